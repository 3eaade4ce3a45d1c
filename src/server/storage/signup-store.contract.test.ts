// One suite, every engine: what any SignupStore must do.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { SignupInput, SignupRecord } from '../../shared/signup-schema.js';
import type { DatabaseConfig } from '../config.js';
import { storeEngines } from '../test/store-engines.js';
import { openSignupStore } from './open-signup-store.js';
import { PostgresSignupStore } from './postgres-signup-store.js';
import { NotMigratedError, type SignupFilter, type SignupStore } from './signup-store.js';
import { SqliteSignupStore } from './sqlite-signup-store.js';

const rosa: SignupInput = {
  name: 'Rosa Díaz',
  phone: '+15551234567',
  email: 'rosa@example.com',
  betaTesting: false,
  attribution: {
    utmSource: 'newsletter',
    utmCampaign: 'launch',
    referrer: 'https://news.example/a',
    landingPath: '/',
    button: 'hero_section',
  },
  consentVersion: '2026-11-22',
};

async function all(store: SignupStore, filter?: SignupFilter): Promise<SignupRecord[]> {
  const records = [];
  for await (const record of store.list(filter)) records.push(record);
  return records;
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`SignupStore on ${engine.name}`, () => {
    async function open(database?: DatabaseConfig, newId?: () => string): Promise<SignupStore> {
      const config = database ?? (await engine.database());
      const store =
        newId === undefined
          ? await openSignupStore(config)
          : config.kind === 'sqlite'
            ? new SqliteSignupStore(config.file, { newId })
            : await PostgresSignupStore.open(config.url, { newId, poolSize: 2 });
      onTestFinished(() => store.close());
      return store;
    }

    it('stores a sign-up with a random id, the server time and where it came from, and reads it back', async () => {
      const store = await open();
      const before = Date.now() - 1000;
      await expect(store.add(rosa)).resolves.toBeUndefined(); // only "stored": the answer says nothing more
      const [record] = await all(store);
      if (!record) throw new Error('nothing stored');
      expect(record).toMatchObject({
        name: 'Rosa Díaz',
        phone: '+15551234567',
        email: 'rosa@example.com',
        betaTesting: false,
        signupCount: 1,
        utmSource: 'newsletter',
        utmMedium: null,
        utmCampaign: 'launch',
        referrer: 'https://news.example/a',
        landingPath: '/',
        button: 'hero_section',
        consentVersion: '2026-11-22',
      });
      expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(record.timestamp)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(record.timestamp)).toBeLessThanOrEqual(Date.now() + 1000);
      expect(record.lastSeenAt).toBe(record.timestamp);
    });

    it('keeps what it acknowledged after the store is closed and opened again', async () => {
      const database = await engine.database();
      const first = await openSignupStore(database);
      await first.add(rosa);
      await first.close(); // right after the acknowledgement
      const second = await open(database);
      expect(await all(second)).toMatchObject([{ email: 'rosa@example.com', utmSource: 'newsletter' }]);
    });

    it('keeps one record per email: the first, with beta interest if either asked, and counts the repeats', async () => {
      const store = await open();
      await store.add(rosa);
      const [first] = await all(store);
      if (!first) throw new Error('nothing stored');
      await store.add({
        ...rosa,
        name: 'Someone Else',
        phone: '+447700900123',
        email: '  ROSA@Example.com ',
        betaTesting: true,
        attribution: { utmSource: 'tv' },
      });
      await store.add({ ...rosa, email: 'Rosa@example.COM', betaTesting: false });
      const records = await all(store);
      expect(records).toHaveLength(1);
      const [kept] = records;
      expect(kept).toMatchObject({ id: first.id, name: 'Rosa Díaz', phone: '+15551234567', email: 'rosa@example.com' });
      expect(kept?.betaTesting).toBe(true);
      expect(kept?.signupCount).toBe(3);
      expect(kept?.utmSource).toBe('newsletter');
      expect(kept?.timestamp).toBe(first.timestamp);
      expect(Date.parse(kept?.lastSeenAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.timestamp));
      expect(await store.count()).toBe(1);
    });

    it('takes a burst of sign-ups, repeats within it included, each acknowledged once', async () => {
      const store = await open();
      const emails = Array.from({ length: 400 }, (_, index) => `person${index % 300}@example.com`);
      const acknowledged = await Promise.all(emails.map((email) => store.add({ ...rosa, email }).then(() => true)));
      expect(acknowledged.filter(Boolean)).toHaveLength(400);
      expect(await store.count()).toBe(300);
      const stored = await all(store);
      expect(new Set(stored.map((record) => record.id)).size).toBe(300);
      expect(stored.reduce((sum, record) => sum + record.signupCount, 0)).toBe(400);
    });

    it('lists more than one batch, in the order first stored, with filters', async () => {
      const store = await open();
      for (let index = 0; index < 1100; index += 1)
        void store.add({ ...rosa, email: `p${index}@example.com`, betaTesting: index % 10 === 0 });
      await store.add({ ...rosa, email: 'last@example.com' });
      const records = await all(store);
      expect(records).toHaveLength(1101);
      expect(records.at(-1)?.email).toBe('last@example.com');
      expect(records.slice(0, 3).map((record) => record.email)).toEqual([
        'p0@example.com',
        'p1@example.com',
        'p2@example.com',
      ]);
      expect(await all(store, { betaOnly: true })).toHaveLength(110);
      expect(await all(store, { since: new Date(Date.now() + 60_000) })).toHaveLength(0);
      expect(await all(store, { since: new Date(Date.now() - 60_000), betaOnly: true })).toHaveLength(110);
    });

    it('never overwrites an existing record: a clashing id is replaced, its batch neighbours still land', async () => {
      const database = await engine.database();
      const first = await openSignupStore(database);
      await first.add(rosa);
      const [existing] = await all(first);
      await first.close();
      if (!existing) throw new Error('nothing stored');
      let calls = 0;
      const store = await open(database, () => (calls++ === 0 ? existing.id : crypto.randomUUID()));
      await Promise.all([
        store.add({ ...rosa, email: 'second@example.com' }),
        store.add({ ...rosa, email: 'third@example.com' }),
      ]);
      const records = await all(store);
      expect(records.map((record) => record.email).sort()).toEqual([
        'rosa@example.com',
        'second@example.com',
        'third@example.com',
      ]);
      expect(records.find((record) => record.id === existing.id)?.email).toBe('rosa@example.com');
      expect(new Set(records.map((record) => record.id)).size).toBe(3);
    });

    it('counts people, repeats, beta testers, days, sources and campaigns', async () => {
      const store = await open();
      await store.add(rosa);
      await store.add({ ...rosa, email: 'ROSA@example.com', betaTesting: true });
      await store.add({ ...rosa, email: 'b@example.com', attribution: { referrer: 'https://www.facebook.com/x' } });
      await store.add({ ...rosa, email: 'c@example.com', attribution: undefined });
      await store.add({
        ...rosa,
        email: 'd@example.com',
        attribution: { utmSource: 'newsletter', utmCampaign: 'spring' },
      });
      const now = new Date();
      const stats = await store.stats({ days: 7, top: 5, now });
      expect(stats).toMatchObject({ total: 4, submissions: 5, betaTesting: 1 });
      expect(stats.byDay).toEqual([{ label: now.toISOString().slice(0, 10), count: 4 }]);
      expect(stats.topSources).toEqual([
        { label: 'newsletter', count: 2 },
        { label: '(direct)', count: 1 },
        { label: 'facebook.com', count: 1 },
      ]);
      expect(stats.topCampaigns).toEqual([
        { label: '(none)', count: 2 },
        { label: 'launch', count: 1 },
        { label: 'spring', count: 1 },
      ]);
    });

    it('reports empty figures for an empty list', async () => {
      const store = await open();
      expect(await store.stats({ days: 30, top: 10 })).toEqual({
        total: 0,
        submissions: 0,
        betaTesting: 0,
        byDay: [],
        topSources: [],
        topCampaigns: [],
      });
    });

    it('refuses to read a database that was never set up, rather than create one', async () => {
      const database = await engine.database();
      await expect(openSignupStore(database, { migrate: false })).rejects.toSatisfy(
        (error) => error instanceof NotMigratedError || (error as { code?: string }).code === 'SQLITE_CANTOPEN',
      );
    });

    it('rejects sign-ups after it is closed', async () => {
      const store = await openSignupStore(await engine.database());
      await store.close();
      await expect(store.add(rosa)).rejects.toThrow(/closed/);
    });
  });
}
