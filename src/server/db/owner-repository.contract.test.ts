// The owners' store on every engine: owners, one-time links, idle sessions and the audit log.
import { describe, expect, it, onTestFinished } from 'vitest';
import { newSecret, secretHash } from '../secrets.js';
import { storeEngines } from '../test/store-engines.js';
import { openDatabase } from './open-database.js';

const FIFTEEN_MINUTES = 15 * 60_000;
const TWELVE_HOURS = 12 * 3_600_000;

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`owner store on ${engine.name}`, () => {
    /** A store whose clock the test moves. */
    async function open() {
      let now = new Date('2026-11-23T10:00:00.000Z');
      const store = await openDatabase(await engine.database(), { migrate: true, now: () => now });
      onTestFinished(() => store.close());
      return { owners: store.owners, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
    }

    it('adds an owner once (any capitals), lists them, and removes them', async () => {
      const { owners } = await open();
      expect(await owners.add('Owner@Example.com ')).toBe('added');
      expect(await owners.add('owner@example.com')).toBe('exists');
      expect(await owners.add('second@example.com')).toBe('added');
      expect((await owners.list()).map((owner) => [owner.email, owner.lastSignInAt])).toEqual([
        ['owner@example.com', null],
        ['second@example.com', null],
      ]);
      expect(await owners.remove('OWNER@example.com')).toBe(true);
      expect(await owners.remove('owner@example.com')).toBe(false);
      expect((await owners.list()).map((owner) => owner.email)).toEqual(['second@example.com']);
    });

    it('a sign-in link works once, and starts a session', async () => {
      const { owners } = await open();
      await owners.add('owner@example.com');
      const owner = await owners.byEmail('owner@example.com');
      const token = newSecret();
      await owners.createLink(owner?.id ?? 0, secretHash(token), FIFTEEN_MINUTES);
      expect(await owners.linkUsable(secretHash(token))).toBe(true);
      const session = newSecret();
      expect((await owners.useLink(secretHash(token), secretHash(session)))?.email).toBe('owner@example.com');
      expect(await owners.linkUsable(secretHash(token))).toBe(false);
      expect(await owners.useLink(secretHash(token), secretHash(newSecret()))).toBeUndefined();
      expect((await owners.session(secretHash(session), TWELVE_HOURS))?.email).toBe('owner@example.com');
      expect((await owners.list())[0]?.lastSignInAt).toBe('2026-11-23T10:00:00.000Z');
    });

    it('two requests racing for one link: only one gets a session', async () => {
      const { owners } = await open();
      await owners.add('owner@example.com');
      const token = newSecret();
      await owners.createLink((await owners.byEmail('owner@example.com'))?.id ?? 0, secretHash(token), FIFTEEN_MINUTES);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => owners.useLink(secretHash(token), secretHash(newSecret()))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('a link stops working after 15 minutes, unused', async () => {
      const { owners, advance } = await open();
      await owners.add('owner@example.com');
      const token = newSecret();
      await owners.createLink((await owners.byEmail('owner@example.com'))?.id ?? 0, secretHash(token), FIFTEEN_MINUTES);
      advance(FIFTEEN_MINUTES - 1000);
      expect(await owners.linkUsable(secretHash(token))).toBe(true);
      advance(2000);
      expect(await owners.linkUsable(secretHash(token))).toBe(false);
      expect(await owners.useLink(secretHash(token), secretHash(newSecret()))).toBeUndefined();
    });

    it('a session ends after 12 idle hours, is kept alive by use, and ends on sign-out', async () => {
      const { owners, advance } = await open();
      await owners.add('owner@example.com');
      const owner = await owners.byEmail('owner@example.com');
      const start = async () => {
        const token = newSecret();
        const session = secretHash(newSecret());
        await owners.createLink(owner?.id ?? 0, secretHash(token), FIFTEEN_MINUTES);
        await owners.useLink(secretHash(token), session);
        return session;
      };
      const used = await start();
      const idle = await start();
      advance(11 * 3_600_000);
      expect(await owners.session(used, TWELVE_HOURS)).toBeDefined();
      advance(2 * 3_600_000);
      // 13 hours since the idle one was last used; 2 since the other.
      expect(await owners.session(idle, TWELVE_HOURS)).toBeUndefined();
      expect(await owners.session(used, TWELVE_HOURS)).toBeDefined();
      await owners.endSession(used);
      expect(await owners.session(used, TWELVE_HOURS)).toBeUndefined();
    });

    it('removing an owner ends their sessions and voids their links', async () => {
      const { owners } = await open();
      await owners.add('owner@example.com');
      const id = (await owners.byEmail('owner@example.com'))?.id ?? 0;
      const first = newSecret();
      const second = newSecret();
      const session = secretHash(newSecret());
      await owners.createLink(id, secretHash(first), FIFTEEN_MINUTES);
      await owners.createLink(id, secretHash(second), FIFTEEN_MINUTES);
      await owners.useLink(secretHash(first), session);
      await owners.remove('owner@example.com');
      expect(await owners.session(session, TWELVE_HOURS)).toBeUndefined();
      expect(await owners.useLink(secretHash(second), secretHash(newSecret()))).toBeUndefined();
    });

    it('keeps the audit log newest first', async () => {
      const { owners, advance } = await open();
      await owners.audit({ ownerEmail: 'owner@example.com', action: 'exported', detail: 'CSV of everyone (2 people)' });
      advance(1000);
      await owners.audit({
        ownerEmail: 'owner@example.com',
        action: 'viewed_person',
        subject: 'abc',
        detail: 'ro•••@example.com',
      });
      const log = await owners.auditLog(10);
      expect(log.map((entry) => [entry.action, entry.subject, entry.detail, entry.at])).toEqual([
        ['viewed_person', 'abc', 'ro•••@example.com', '2026-11-23T10:00:01.000Z'],
        ['exported', null, 'CSV of everyone (2 people)', '2026-11-23T10:00:00.000Z'],
      ]);
      expect(await owners.auditLog(1)).toHaveLength(1);
    });
  });
}
