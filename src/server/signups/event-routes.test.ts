// POST /api/events in-process: what it takes, what it refuses, and that nothing about the visitor is kept.
import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { InjectOptions } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { EVENT_BATCH_MAX, type AnalyticsEvent } from '../../shared/analytics-events.js';
import type { Config } from '../config.js';
import { loggerOptions } from '../logger.js';
import { eventsRateLimitedMessage } from '../request-rate-limits.js';
import { buildTestApp } from '../test/build-test-app.js';
import { rosa } from '../test/people.js';
import { storeEngines, testRedisUrl, type StoreEngine } from '../test/store-engines.js';
import { EVENTS_BODY_LIMIT_BYTES } from './event-routes.js';
import { capturedLog } from '../test/captured-log.js';
import { machineClock } from '../test/clock.js';

const landingView: AnalyticsEvent = { name: 'page_view', params: { page_name: 'home' } };
const scrolledHalfway: AnalyticsEvent = {
  name: 'scroll_depth',
  params: { page_name: 'home', scroll_percentage: 50, section: 'scam-statistics' },
};
const dialogOpen: AnalyticsEvent = { name: 'sign_up_start', params: { page_name: 'home', method: 'modal' } };

interface SetupOptions {
  engine?: StoreEngine | StoreEngine['name'];
  rateLimit?: Partial<Config['rateLimit']>;
  logLevel?: Config['logLevel'];
  redis?: Redis;
}

async function setupApp({ engine = 'sqlite', rateLimit = {}, logLevel = 'info', redis }: SetupOptions = {}) {
  const { written: lines, logger } = capturedLog(loggerOptions(logLevel));
  const { app, database } = await buildTestApp({
    engine,
    config: {
      logLevel,
      rateLimit: { perMinute: 0, perHour: 0, redisUrl: undefined, eventsPerMinute: 0, ...rateLimit },
    },
    ...(redis ? { redis } : {}),
    logger,
  });
  const file = database.kind === 'sqlite' ? database.file : '';
  const send = (payload: unknown, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/events',
      ...options,
      // As navigator.sendBeacon sends a Blob of type application/json.
      headers: { 'content-type': 'application/json', ...options.headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  /** Closes the app (which writes everything accepted), then reads the table straight from the database. */
  const stored = async () => {
    await app.close();
    return database.kind === 'sqlite' ? storedInFile(database.file) : await storedInPostgres(database.url);
  };
  /** Rows written so far, read while the app runs (events are written a moment after the answer). */
  const written = () => {
    const db = new Database(file, { readonly: true });
    const { n } = db.prepare('SELECT count(*) AS n FROM analytics_events').get() as { n: number };
    db.close();
    return n;
  };
  const logged = (text: string) => lines.filter((line) => line.includes(text));
  return { app, file, send, stored, written, lines, logged };
}

function storedInFile(file: string) {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT * FROM analytics_events ORDER BY id').all() as Record<string, unknown>[];
  const columns = (db.prepare('PRAGMA table_info(analytics_events)').all() as { name: string }[]).map(
    (column) => column.name,
  );
  db.close();
  return { rows, columns };
}

/** The same rows as storedInFile gives: params as JSON text, the time as an ISO string. */
async function storedInPostgres(url: string) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, unknown>>(
      `SELECT id, name, page_name, params::text AS params,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
         FROM analytics_events ORDER BY id`,
    );
    const columns = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_name = 'analytics_events' AND table_schema = current_schema() ORDER BY ordinal_position`,
    );
    return { rows, columns: columns.rows.map((column) => column.column_name) };
  } finally {
    await client.end();
  }
}

/** An address no other test run uses, so counters kept in Redis never carry over. */
function randomAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`POST /api/events on ${engine.name}`, () => {
    const setup = (options: SetupOptions = {}) => setupApp({ ...options, engine });

    it('answers 204 with no body, and stores each event of the batch with its validated params', async () => {
      const { send, stored } = await setup();
      const before = machineClock.ms();
      const response = await send({ events: [landingView, scrolledHalfway, dialogOpen] });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const { rows } = await stored();
      const after = machineClock.ms();
      expect(rows.map((row) => [row.name, row.page_name, JSON.parse(String(row.params))])).toEqual([
        ['page_view', 'home', { page_name: 'home' }],
        ['scroll_depth', 'home', { page_name: 'home', scroll_percentage: 50, section: 'scam-statistics' }],
        ['sign_up_start', 'home', { page_name: 'home', method: 'modal' }],
      ]);
      // Timed by the database's own clock, between the request and the read.
      const stamped = Date.parse(String(rows[0]?.created_at));
      expect([before <= stamped, stamped <= after]).toEqual([true, true]);
    });

    it(`takes a full beacon of ${EVENT_BATCH_MAX} events`, async () => {
      const { send, stored } = await setup();
      const response = await send({ events: Array.from({ length: EVENT_BATCH_MAX }, () => landingView) });
      expect(response.statusCode).toBe(204);
      expect((await stored()).rows).toHaveLength(EVENT_BATCH_MAX);
    });

    const refused: [what: string, body: unknown, problem: RegExp][] = [
      ['an unknown event name', { events: [{ name: 'purchase', params: { page_name: 'home' } }] }, /^events\[0\]/],
      [
        'a personal detail in the params (an email)',
        { events: [landingView, { name: 'page_view', params: { page_name: 'home', email: 'rosa@example.com' } }] },
        /^events\[1\]\.params: .*"email"/,
      ],
      [
        'a name typed into a free-text field (a section with spaces)',
        { events: [{ ...scrolledHalfway, params: { ...scrolledHalfway.params, section: 'Rosa Díaz' } }] },
        /^events\[0\]\.params\.section/,
      ],
      ['an empty batch', { events: [] }, /^events: /],
      [
        `${EVENT_BATCH_MAX + 1} events`,
        { events: Array.from({ length: EVENT_BATCH_MAX + 1 }, () => landingView) },
        /^events: /,
      ],
      ['a key beside the events', { events: [landingView], visitorId: 'abc' }, /^body: .*"visitorId"/],
      ['a body that is not a batch', [landingView], /^body: /],
    ];
    for (const [what, body, problem] of refused) {
      it(`answers 400 for ${what}, storing nothing`, async () => {
        const { send, stored } = await setup();
        const response = await send(body);
        expect(response.statusCode).toBe(400);
        const { error } = response.json();
        expect(error).toMatchObject({ code: 'invalid_events', message: 'The event batch is not valid.' });
        expect(error.problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
        expect(response.body).not.toContain('rosa@example.com'); // the value is never echoed back
        expect((await stored()).rows).toEqual([]);
      });
    }

    it(`answers 413 for a body over ${EVENTS_BODY_LIMIT_BYTES / 1024} KB, and 415 for one that is not JSON`, async () => {
      const { send, stored } = await setup();
      const large = await send({ events: Array.from({ length: 400 }, () => landingView) }); // about 20 KB
      expect(large.statusCode).toBe(413);
      // sendBeacon with a plain string sends text/plain: the page must send a JSON Blob.
      const text = await send({ events: [landingView] }, { headers: { 'content-type': 'text/plain;charset=UTF-8' } });
      expect(text.statusCode).toBe(415);
      expect((await stored()).rows).toEqual([]);
    });

    it('sets no cookie, whatever the answer', async () => {
      const { send } = await setup({ rateLimit: { eventsPerMinute: 1 } });
      const client = randomAddress();
      const answers = [
        await send({ events: [landingView] }, { remoteAddress: client }),
        await send({ events: [] }, { remoteAddress: randomAddress() }),
        await send({ events: [landingView] }, { remoteAddress: client }),
      ];
      expect(answers.map((response) => response.statusCode)).toEqual([204, 400, 429]);
      for (const response of answers) expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('logs nothing about the client, even at debug level where other requests log their address', async () => {
      const { app, send, lines } = await setup({ logLevel: 'debug' });
      const headers = { 'user-agent': 'Mozilla/5.0 (TestAgent 7.7)' };
      await send({ events: [landingView] }, { remoteAddress: '203.0.113.77', headers });
      await send({ events: [{ name: 'nope' }] }, { remoteAddress: '203.0.113.77', headers });
      await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '192.0.2.1' });
      expect(lines.join('')).toContain('192.0.2.1'); // debug request lines are captured here...
      expect(lines.join('')).not.toContain('203.0.113.77'); // ...but not for this route
      expect(lines.join('')).not.toContain('TestAgent');
    });

    it('answers 429 past the per-minute limit per address, without using up that address’s sign-ups', async () => {
      const { app, send, stored } = await setup({ rateLimit: { eventsPerMinute: 2, perMinute: 1 } });
      const client = randomAddress();
      expect((await send({ events: [landingView] }, { remoteAddress: client })).statusCode).toBe(204);
      expect((await send({ events: [landingView] }, { remoteAddress: client })).statusCode).toBe(204);
      const limited = await send({ events: [landingView] }, { remoteAddress: client });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: eventsRateLimitedMessage } });
      expect((await send({ events: [landingView] }, { remoteAddress: randomAddress() })).statusCode).toBe(204);
      const signup = await app.inject({
        method: 'POST',
        url: '/api/signups',
        remoteAddress: client,
        payload: { name: rosa.name, phone: rosa.phone, email: rosa.email, openedForMs: 5000 },
      });
      expect(signup.statusCode).toBe(201);
      expect((await stored()).rows).toHaveLength(3);
    });
  });
}

// These read the SQLite file itself (every byte of it, or a lock held on it), so they run on SQLite only.
describe('POST /api/events on the SQLite file', () => {
  const setup = (options: SetupOptions = {}) => setupApp({ ...options, engine: 'sqlite' });

  it('keeps nothing about the client: only the event columns, and no address or browser anywhere in the file', async () => {
    const { send, stored, file } = await setup();
    const response = await send(
      { events: [landingView, scrolledHalfway] },
      {
        remoteAddress: '203.0.113.77',
        headers: {
          'user-agent': 'Mozilla/5.0 (TestAgent 7.7)',
          'x-forwarded-for': '198.51.100.23',
          referer: 'https://referrer.example/private-page',
          cookie: 'session=visitor-cookie-42',
        },
      },
    );
    expect(response.statusCode).toBe(204);
    const { rows, columns } = await stored();
    expect(columns).toEqual(['id', 'name', 'page_name', 'params', 'created_at']);
    expect(rows).toHaveLength(2);
    const folder = path.dirname(file);
    const everything = readdirSync(folder)
      .map((name) => readFileSync(path.join(folder, name)).toString('latin1'))
      .join('');
    expect(everything).toContain('scam-statistics'); // the search below does find what is stored
    for (const trace of ['203.0.113.77', '198.51.100.23', 'TestAgent', 'referrer.example', 'visitor-cookie-42']) {
      expect(everything).not.toContain(trace);
    }
  });

  it('still answers 204 when the database cannot take the events: it drops them, logs once, and recovers', async () => {
    const { send, stored, written, file, logged } = await setup();
    expect((await send({ events: [landingView] })).statusCode).toBe(204);
    // Written a moment after the answer: the limit only catches a hang (a busy machine can take seconds).
    await vi.waitFor(() => expect(written()).toBe(1), { timeout: 10_000 });
    const other = new Database(file);
    other.exec('BEGIN EXCLUSIVE');
    try {
      expect((await send({ events: [dialogOpen] })).statusCode).toBe(204);
      expect((await send({ events: [dialogOpen] })).statusCode).toBe(204);
      await vi.waitFor(() => expect(logged('could not store analytics events')).toHaveLength(1), {
        timeout: 10_000,
      });
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    expect((await send({ events: [scrolledHalfway] })).statusCode).toBe(204);
    await vi.waitFor(() => expect(logged('analytics events are being stored again')).toHaveLength(1), {
      timeout: 10_000,
    });
    expect(logged('could not store analytics events')).toHaveLength(1);
    expect(JSON.parse(logged('being stored again')[0] ?? '{}')).toMatchObject({ droppedBatches: 2 });
    expect((await stored()).rows.map((row) => row.name)).toEqual(['page_view', 'scroll_depth']);
  });
});

describe.skipIf(!testRedisUrl)('POST /api/events limits shared through Redis', () => {
  const setup = setupApp;

  it('two instances on one Redis enforce one limit', async () => {
    const first = await setup({ rateLimit: { eventsPerMinute: 2 }, redis: new Redis(testRedisUrl ?? '') });
    const second = await setup({ rateLimit: { eventsPerMinute: 2 }, redis: new Redis(testRedisUrl ?? '') });
    const client = randomAddress();
    expect((await first.send({ events: [landingView] }, { remoteAddress: client })).statusCode).toBe(204);
    expect((await second.send({ events: [landingView] }, { remoteAddress: client })).statusCode).toBe(204);
    expect((await first.send({ events: [landingView] }, { remoteAddress: client })).statusCode).toBe(429);
    expect((await second.send({ events: [landingView] }, { remoteAddress: client })).statusCode).toBe(429);
  });
});
