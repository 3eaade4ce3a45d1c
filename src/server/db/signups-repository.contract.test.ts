// One suite, every engine: what any Db must do.
import { isReferralCode } from '../../shared/referral.js';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { REFERRAL_CODE_PATTERN } from '../../shared/referral.js';
import type { AnalyticsEvent } from '../../shared/analytics-events.js';
import type { SignupInput, SignupRecord } from '../../shared/signup-schema.js';
import type { DatabaseConfig } from '../config.js';
import { storeEngines } from '../test/store-engines.js';
import { openDatabase, type Db } from './open-database.js';
import { NotMigratedError } from './database-errors.js';
import type { SignupFilter } from './signups-repository.js';
import { machineClock } from '../test/clock.js';

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

async function all(store: Db, filter?: SignupFilter): Promise<SignupRecord[]> {
  const records = [];
  for await (const record of store.signups.list(filter)) records.push(record);
  return records;
}

const landingView: AnalyticsEvent = { name: 'page_view', params: { page_name: 'home' } };
const missingPageView: AnalyticsEvent = { name: 'page_view', params: { page_name: 'missing-page' } };
const dialogOpen: AnalyticsEvent = { name: 'sign_up_start', params: { page_name: 'home', method: 'modal' } };
const signedUp: AnalyticsEvent = {
  name: 'sign_up',
  params: { page_name: 'home', method: 'modal', beta_testing: true },
};
const formFailed: AnalyticsEvent = {
  name: 'form_submission',
  params: { page_name: 'home', form_name: 'signup_modal', success: false },
};
const formSucceeded: AnalyticsEvent = {
  name: 'form_submission',
  params: { page_name: 'home', form_name: 'signup_modal', success: true },
};
const shared: AnalyticsEvent = { name: 'share', params: { page_name: 'home', method: 'native' } };
const sharedFromPreferences: AnalyticsEvent = { name: 'share', params: { page_name: 'preferences', method: 'copy' } };
const downloadIntent: AnalyticsEvent = {
  name: 'download_intent',
  params: { page_name: 'home', platform: 'ios', source: 'landing_page' },
};
const buttonClick: AnalyticsEvent = {
  name: 'button_click',
  params: { page_name: 'home', button_name: 'signup_interest', section: 'hero_section' },
};
function scrolled(percentage: 25 | 50 | 75 | 100, pageName = 'home'): AnalyticsEvent {
  return { name: 'scroll_depth', params: { page_name: pageName, scroll_percentage: percentage, section: 'hero' } };
}
const times = <T>(count: number, value: T): T[] => Array.from({ length: count }, () => value);

/** The analytics_events rows as stored, read past the port (each engine its own way). */
async function storedEvents(database: DatabaseConfig) {
  type Row = { name: string; page_name: string; params: unknown; created_at: string | Date };
  let rows: Row[];
  if (database.kind === 'sqlite') {
    const db = new Database(database.file, { readonly: true });
    rows = db.prepare('SELECT name, page_name, params, created_at FROM analytics_events ORDER BY id').all() as Row[];
    db.close();
  } else {
    const client = new pg.Client(database.url);
    await client.connect();
    rows = (await client.query<Row>('SELECT name, page_name, params, created_at FROM analytics_events ORDER BY id'))
      .rows;
    await client.end();
  }
  return rows.map((row) => ({
    name: row.name,
    pageName: row.page_name,
    params: typeof row.params === 'string' ? (JSON.parse(row.params) as unknown) : row.params,
    createdAt: row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
  }));
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`Db on ${engine.name}`, () => {
    async function open(database?: DatabaseConfig, newId?: () => string): Promise<Db> {
      const config = database ?? (await engine.database());
      const store =
        newId === undefined
          ? await openDatabase(config)
          : config.kind === 'sqlite'
            ? await openDatabase({ kind: 'sqlite', file: config.file }, { newId })
            : await openDatabase({ kind: 'postgres', url: config.url, poolSize: 2 }, { newId });
      onTestFinished(() => store.close());
      return store;
    }

    it('stores a sign-up with a random id, the server time and where it came from, and reads it back', async () => {
      const store = await open();
      const before = machineClock.ms() - 1000;
      // "Stored", and the person's own link code: nothing else about the record.
      const added = await store.signups.add(rosa);
      expect(Object.keys(added)).toEqual(['referralCode']);
      const [record] = await all(store);
      if (!record) throw new Error('nothing stored');
      expect(record.referralCode).toBe(added.referralCode);
      expect(record.referralCode).toMatch(REFERRAL_CODE_PATTERN);
      expect(record.referredBy).toBeNull();
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
      expect(Date.parse(record.timestamp)).toBeLessThanOrEqual(machineClock.ms() + 1000);
      expect(record.lastSeenAt).toBe(record.timestamp);
    });

    it('gives each person a code of their own, never hands it to a repeat sign-up, and records whose link a newcomer came through', async () => {
      const store = await open();
      const rosaCode = (await store.signups.add(rosa)).referralCode ?? '';
      expect(isReferralCode(rosaCode)).toBe(true);
      // Anyone can type an address: a repeat's answer holds nothing the record has.
      expect((await store.signups.add({ ...rosa, name: 'Rosa D' })).referralCode).toBeNull();
      expect((await all(store)).find((record) => record.email === rosa.email)?.referralCode).toBe(rosaCode);
      const came = (email: string, referredBy: string) =>
        store.signups.add({ ...rosa, email, attribution: { referredBy } });
      const samCode = (await came('sam@example.com', rosaCode)).referralCode;
      expect(samCode).not.toBe(rosaCode);
      await came('made-up@example.com', 'abcdefghjkmn'); // the right form, but nobody's
      // A repeat keeps where it first came from: the second link is not recorded.
      await came(
        'sam@example.com',
        (await store.signups.add({ ...rosa, email: 'lee@example.com' })).referralCode ?? '',
      );
      const by = Object.fromEntries((await all(store)).map((record) => [record.email, record.referredBy]));
      expect(by).toEqual({
        'rosa@example.com': null,
        'sam@example.com': rosaCode,
        'made-up@example.com': null,
        'lee@example.com': null,
      });
      expect(new Set((await all(store)).map((record) => record.referralCode)).size).toBe(4);
    });

    it('keeps what it acknowledged after the store is closed and opened again', async () => {
      const database = await engine.database();
      const first = await openDatabase(database);
      await first.signups.add(rosa);
      await first.close(); // right after the acknowledgement
      const second = await open(database);
      expect(await all(second)).toMatchObject([{ email: 'rosa@example.com', utmSource: 'newsletter' }]);
    });

    it('keeps one record per email: the first, beta interest as first given, and counts the repeats', async () => {
      const store = await open();
      await store.signups.add(rosa);
      const [first] = await all(store);
      if (!first) throw new Error('nothing stored');
      await store.signups.add({
        ...rosa,
        name: 'Someone Else',
        phone: '+447700900123',
        email: '  ROSA@Example.com ',
        betaTesting: true,
        attribution: { utmSource: 'tv' },
      });
      await store.signups.add({ ...rosa, email: 'Rosa@example.COM', betaTesting: false });
      const records = await all(store);
      expect(records).toHaveLength(1);
      const [kept] = records;
      expect(kept).toMatchObject({ id: first.id, name: 'Rosa Díaz', phone: '+15551234567', email: 'rosa@example.com' });
      // Only the person changes their beta wish (their own page): a repeat sign-up speaks for nobody.
      expect(kept?.betaTesting).toBe(false);
      expect(kept?.signupCount).toBe(3);
      expect(kept?.utmSource).toBe('newsletter');
      expect(kept?.timestamp).toBe(first.timestamp);
      expect(Date.parse(kept?.lastSeenAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.timestamp));
      expect(await store.signups.count()).toBe(1);
    });

    it('takes a burst of sign-ups, repeats within it included, each acknowledged once', async () => {
      const store = await open();
      const emails = Array.from({ length: 400 }, (_, index) => `person${index % 300}@example.com`);
      const acknowledged = await Promise.all(
        emails.map((email) => store.signups.add({ ...rosa, email }).then(() => true)),
      );
      expect(acknowledged.filter(Boolean)).toHaveLength(400);
      expect(await store.signups.count()).toBe(300);
      const stored = await all(store);
      expect(new Set(stored.map((record) => record.id)).size).toBe(300);
      expect(stored.reduce((sum, record) => sum + record.signupCount, 0)).toBe(400);
    });

    it('lists more than one batch, in the order first stored, with filters', async () => {
      const store = await open();
      for (let index = 0; index < 1100; index += 1)
        void store.signups.add({ ...rosa, email: `p${index}@example.com`, betaTesting: index % 10 === 0 });
      await store.signups.add({ ...rosa, email: 'last@example.com' });
      const records = await all(store);
      expect(records).toHaveLength(1101);
      expect(records.at(-1)?.email).toBe('last@example.com');
      expect(records.slice(0, 3).map((record) => record.email)).toEqual([
        'p0@example.com',
        'p1@example.com',
        'p2@example.com',
      ]);
      expect(await all(store, { betaOnly: true })).toHaveLength(110);
      expect(await all(store, { since: new Date(machineClock.ms() + 60_000) })).toHaveLength(0);
      expect(await all(store, { since: new Date(machineClock.ms() - 60_000), betaOnly: true })).toHaveLength(110);
    });

    it('never overwrites an existing record: a clashing id is replaced, its batch neighbours still land', async () => {
      const database = await engine.database();
      const first = await openDatabase(database);
      await first.signups.add(rosa);
      const [existing] = await all(first);
      await first.close();
      if (!existing) throw new Error('nothing stored');
      let calls = 0;
      const store = await open(database, () => (calls++ === 0 ? existing.id : crypto.randomUUID()));
      await Promise.all([
        store.signups.add({ ...rosa, email: 'second@example.com' }),
        store.signups.add({ ...rosa, email: 'third@example.com' }),
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

    it('counts people, repeats, beta testers, confirmed people, family links, days, sources and campaigns', async () => {
      const store = await open();
      const { referralCode } = await store.signups.add(rosa);
      await store.signups.add({ ...rosa, email: 'ROSA@example.com', betaTesting: true });
      await store.signups.add({
        ...rosa,
        email: 'b@example.com',
        betaTesting: true,
        attribution: { referrer: 'https://www.facebook.com/x' },
      });
      await store.signups.add({
        ...rosa,
        email: 'c@example.com',
        attribution: { referredBy: referralCode ?? undefined },
      });
      await store.signups.add({
        ...rosa,
        email: 'd@example.com',
        attribution: { utmSource: 'newsletter', utmCampaign: 'spring' },
      });
      const confirmedOne = (await all(store)).find((record) => record.email === 'b@example.com');
      expect(await store.subscribers.confirm(confirmedOne?.id ?? '', 'confirm_page')).toBe('confirmed');
      // Stamped by the database's clock (PostgreSQL's own now()): the day is the one they were stored on.
      const now = machineClock.now();
      const stats = await store.signups.stats({ days: 7, top: 5, now });
      expect(stats).toMatchObject({ total: 4, submissions: 5, betaTesting: 1, confirmed: 1, throughFamily: 1 });
      const days = [...new Set((await all(store)).map((record) => record.timestamp.slice(0, 10)))];
      if (days.length === 1) {
        expect(stats.byDay).toEqual([{ label: days[0], count: 4 }]);
        expect(stats.throughFamilyByDay).toEqual([{ label: days[0], count: 1 }]);
      } else {
        // Stored across midnight: the days still hold all four, the family link's one among them.
        expect(stats.byDay.map((day) => day.label)).toEqual(days.sort());
        expect(stats.byDay.reduce((sum, day) => sum + day.count, 0)).toBe(4);
        expect(stats.throughFamilyByDay.reduce((sum, day) => sum + day.count, 0)).toBe(1);
      }
      const rosaId = (await all(store)).find((record) => record.email === rosa.email)?.id ?? '';
      expect(await store.signups.joinedThrough(rosaId)).toBe(1);
      expect(await store.signups.joinedThrough(confirmedOne?.id ?? '')).toBe(0);
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
      expect(await store.signups.stats({ days: 30, top: 10 })).toEqual({
        total: 0,
        submissions: 0,
        betaTesting: 0,
        confirmed: 0,
        byDay: [],
        throughFamily: 0,
        throughFamilyByDay: [],
        topSources: [],
        topCampaigns: [],
        byLanguage: [
          { language: 'en', count: 0 },
          { language: 'es', count: 0 },
        ],
      });
    });

    it('stores each event with its name, page and validated params, timed by the database', async () => {
      const database = await engine.database();
      const store = await open(database);
      const before = machineClock.ms() - 1000;
      await expect(store.events.record([landingView, scrolled(50), formFailed])).resolves.toBeUndefined();
      const rows = await storedEvents(database);
      expect(rows.map(({ createdAt: _time, ...row }) => row)).toEqual([
        { name: 'page_view', pageName: 'home', params: { page_name: 'home' } },
        {
          name: 'scroll_depth',
          pageName: 'home',
          params: { page_name: 'home', scroll_percentage: 50, section: 'hero' },
        },
        {
          name: 'form_submission',
          pageName: 'home',
          params: { page_name: 'home', form_name: 'signup_modal', success: false },
        },
      ]);
      for (const row of rows) {
        expect(row.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(Date.parse(row.createdAt)).toBeGreaterThanOrEqual(before);
        expect(Date.parse(row.createdAt)).toBeLessThanOrEqual(machineClock.ms() + 1000);
      }
    });

    it('counts the landing-page funnel per UTC day, leaving out other pages and days outside the window', async () => {
      const store = await open();
      const now = new Date('2026-11-22T15:00:00Z');
      await Promise.all([
        store.events.record(
          [...times(3, landingView), missingPageView, scrolled(25, 'missing-page'), dialogOpen],
          new Date('2026-11-15T23:59:59.999Z'), // the day before a 7-day window starts
        ),
        store.events.record(
          [...times(4, landingView), missingPageView, dialogOpen, dialogOpen, signedUp, formFailed, formSucceeded],
          new Date('2026-11-16T00:00:00.000Z'), // the window's first moment
        ),
        store.events.record(
          [scrolled(25), scrolled(25), scrolled(50), scrolled(75), scrolled(100), downloadIntent, buttonClick, shared],
          new Date('2026-11-16T23:59:59.999Z'),
        ),
        store.events.record(
          // A share from the preferences page counts too: shares are counted on every page.
          [
            ...times(10, landingView),
            signedUp,
            signedUp,
            scrolled(25),
            scrolled(50, 'missing-page'),
            sharedFromPreferences,
          ],
          now,
        ),
        store.events.record([landingView, signedUp], new Date('2026-11-23T00:00:00.000Z')), // after the window
      ]);
      const scrollDepth = (s25: number, s50: number, s75: number, s100: number) => ({
        25: s25,
        50: s50,
        75: s75,
        100: s100,
      });
      expect(await store.events.funnel({ days: 7, now })).toEqual([
        {
          day: '2026-11-16',
          landingViews: 4,
          dialogOpens: 2,
          signups: 1,
          formFailures: 1,
          downloadIntents: 1,
          shares: 1,
          scrollDepth: scrollDepth(2, 1, 1, 1),
        },
        {
          day: '2026-11-22',
          landingViews: 10,
          dialogOpens: 0,
          signups: 2,
          formFailures: 0,
          downloadIntents: 0,
          shares: 1,
          scrollDepth: scrollDepth(1, 0, 0, 0),
        },
      ]);
      expect((await store.events.funnel({ days: 8, now }))[0]).toMatchObject({ day: '2026-11-15', landingViews: 3 });
      expect(await store.events.funnel({ days: 1, now: new Date('2026-11-10T12:00:00Z') })).toEqual([]);
    });

    it('writes the events it accepted before closing, and takes them alongside a burst of sign-ups', async () => {
      const database = await engine.database();
      const first = await openDatabase(database);
      const signups = Array.from({ length: 200 }, (_, index) =>
        first.signups.add({ ...rosa, email: `p${index}@example.com` }),
      );
      const beacons = Array.from({ length: 100 }, () => first.events.record([landingView, dialogOpen]));
      await Promise.all([...signups, ...beacons]);
      void first.events.record(times(5, signedUp)); // not awaited: close() must still write it
      await first.close();
      const second = await open(database);
      expect(await second.signups.count()).toBe(200);
      expect(await second.events.funnel({ days: 1 })).toMatchObject([
        { landingViews: 100, dialogOpens: 100, signups: 5 },
      ]);
    });

    it('reports no funnel days when there are no events', async () => {
      const store = await open();
      await store.signups.add(rosa);
      expect(await store.events.funnel({ days: 30 })).toEqual([]);
    });

    it('refuses to read a database that was never set up, rather than create one', async () => {
      const database = await engine.database();
      await expect(openDatabase(database, { migrate: false })).rejects.toSatisfy(
        (error) => error instanceof NotMigratedError || (error as { code?: string }).code === 'SQLITE_CANTOPEN',
      );
    });

    it('rejects sign-ups and events after it is closed', async () => {
      const store = await openDatabase(await engine.database());
      await store.close();
      await expect(store.signups.add(rosa)).rejects.toThrow(/closed/);
      await expect(store.events.record([landingView])).rejects.toThrow(/closed/);
    });
  });
}
