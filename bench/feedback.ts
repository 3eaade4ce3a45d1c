// `npm run bench:feedback [-- --postgres URL] [--runs N] [--events N] [--connections C] [--report-rate R] [--hostile-copies N]`:
// webhook reports stored per second by the real production server (Mailgun's webhook, signed as
// Mailgun signs it, each report about a message we recorded, 10% of them redelivered), flat out, on
// SQLite and PostgreSQL when given; and the sign-up API's rate alone and while reports keep coming
// at R a second (default 500). Every report is counted in the store after: stored once each,
// redeliveries not again. Then the bounce mailbox (a real Dovecot on loopback) holding N copies of
// each 1 MB shape a stranger can mail to make reading slow (issue 42): how long the server takes to
// read them all, and the sign-ups' rate and latency alone and while it does.
import { createHmac, randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { DatabaseConfig } from '../src/server/config.js';
import { ImapFlow } from 'imapflow';
import { HOSTILE_SHAPES } from '../src/server/bounces/test-fixtures/hostile-shapes.js';
import { createMessageTokens } from '../src/server/messaging/message-tokens.js';
import { dovecotAvailable, startDovecot, type TestDovecot } from '../src/server/test/dovecot.js';
import { openDatabase } from '../src/server/db/open-database.js';
import { freshPostgres, freshSqlite, median } from './bench-databases.js';
import { startProductionServer, stop } from './server-process.js';

const { values } = parseArgs({
  options: {
    postgres: { type: 'string' },
    runs: { type: 'string', default: '3' },
    events: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '20' },
    'report-rate': { type: 'string', default: '500' },
    'hostile-copies': { type: 'string', default: '3' },
  },
});
const hostileCopies = Number(values['hostile-copies']);
const runs = Number(values.runs);
const events = Number(values.events);
const connections = Number(values.connections);
/** Reports a second while sign-ups are measured: 35 times what a launch send at the default 14 emails a second brings back. */
const reportRate = Number(values['report-rate']);
/** How long each sign-up measurement lasts, in seconds. */
const SIGNUP_SECONDS = 5;
const postgresUrl = values.postgres ?? process.env.BENCH_POSTGRES_URL;
const PORT = 4351;
const SECRET = randomBytes(32).toString('hex');
const SIGNING_KEY = `key-${randomBytes(16).toString('hex')}`;
const DUPLICATE_SHARE = 0.1;

/** A Mailgun "delivered" report about this message, signed with a fresh signature token. */
function mailgunReport(eventId: string, token: string): string {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signatureToken = randomBytes(25).toString('hex');
  const signature = createHmac('sha256', SIGNING_KEY)
    .update(timestamp + signatureToken)
    .digest('hex');
  return JSON.stringify({
    signature: { timestamp, token: signatureToken, signature },
    'event-data': {
      id: eventId,
      event: 'delivered',
      timestamp: Date.now() / 1000,
      recipient: 'person@example.com',
      message: { headers: { 'message-id': `${token}@scamsavvy.example` } },
      'user-variables': { token },
    },
  });
}

/** Records `count` messages as sent, as the senders do; their tokens. */
async function recordMessages(database: DatabaseConfig, count: number): Promise<string[]> {
  const tokens = createMessageTokens(SECRET);
  const store = await openDatabase(database);
  const issued = Array.from({ length: count }, () => tokens.issue());
  for (let start = 0; start < issued.length; start += 500)
    await store.sentMessages.sending(
      issued.slice(start, start + 500).map((token) => ({
        token,
        channel: 'email' as const,
        purpose: 'broadcast' as const,
        signupId: null,
        addressHash: token,
      })),
    );
  await store.close();
  return issued;
}

/** The report indexes a run sends: 10% of them a redelivery of an earlier report (the same event id, stored once). */
const originalOf = (index: number) => (index > 10 && index % Math.round(1 / DUPLICATE_SHARE) === 0 ? index - 7 : index);

/** Posts one signed report per token (10% redelivered), as fast as the server takes them or at `rate` a second. */
async function driveReports(url: string, tokens: string[], { rate, prefix }: { rate?: number; prefix: string }) {
  let sequence = 0;
  const result = await autocannon({
    url: `${url}/api/webhooks/mailgun`,
    method: 'POST',
    connections,
    amount: tokens.length,
    ...(rate ? { overallRate: rate } : {}),
    sampleInt: 50,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          const original = originalOf(sequence);
          sequence += 1;
          return { ...request, body: mailgunReport(`${prefix}-${original}`, tokens[original] as string) };
        },
      },
    ],
  });
  return { perSecond: result['2xx'] / result.duration, ok: result['2xx'], errors: result.non2xx + result.errors };
}

/** Sign-ups for `seconds`, or (given `until`) until it resolves; their rate and latency. */
async function driveSignups(url: string, seconds: number, until?: Promise<unknown>) {
  let sequence = 0;
  let instance: autocannon.Instance | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: `${url}/api/signups`,
        method: 'POST',
        connections: 10,
        duration: seconds,
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => {
              sequence += 1;
              return {
                ...request,
                body: JSON.stringify({
                  name: 'Rosa Díaz',
                  phone: '+15551234567',
                  email: `bench-${randomBytes(3).toString('hex')}-${sequence}@example.com`,
                  betaTesting: false,
                  consentVersion: '2026-11-22',
                  openedForMs: 5000,
                }),
              };
            },
          },
        ],
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error) : resolve(done)),
    );
    if (until) void until.then(() => instance?.stop());
  });
  return {
    perSecond: result['2xx'] / result.duration,
    errors: result.non2xx + result.errors,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

async function withServer<T>(database: DatabaseConfig, work: (url: string) => Promise<T>): Promise<T> {
  const url = `http://127.0.0.1:${PORT}`;
  const child = await startProductionServer(PORT, database, {
    SECRET_KEY: SECRET,
    MAILGUN_WEBHOOK_SIGNING_KEY: SIGNING_KEY,
    WEBHOOK_RATE_LIMIT_PER_MINUTE: '0', // lifted for the run: one client sends every report
  });
  try {
    return await work(url);
  } finally {
    await stop(child);
  }
}

async function countReports(database: DatabaseConfig): Promise<number> {
  const store = await openDatabase(database, { migrate: false });
  try {
    return (await store.messageHealth.listHealth('1970-01-01T00:00:00.000Z')).messages;
  } finally {
    await store.close();
  }
}

console.log(
  `bench:feedback: POST /api/webhooks/mailgun, ${events} reports a run flat out (${DUPLICATE_SHARE * 100}% redelivered), ${connections} connections, then sign-ups while reports come at ${reportRate}/s, ${runs} runs each; ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
);
const engines: ('sqlite' | 'postgres')[] = ['sqlite', ...(postgresUrl ? ['postgres' as const] : [])];
if (!postgresUrl) console.log('  (PostgreSQL not measured: pass -- --postgres postgres://… or set BENCH_POSTGRES_URL)');
for (const engine of engines) {
  const reportRates: number[] = [];
  const alone: number[] = [];
  const during: number[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const { database, cleanup } =
      engine === 'sqlite' ? await freshSqlite() : await freshPostgres(postgresUrl as string);
    try {
      // The server migrates on its first start; the messages are recorded before the reports come.
      await withServer(database, async () => undefined);
      const tokens = await recordMessages(database, events);
      // While sign-ups are measured, reports come at a steady rate (providers post as messages are
      // delivered), for a little longer than the measurement.
      const steady = await recordMessages(database, Math.ceil(reportRate * (SIGNUP_SECONDS + 1)));
      const result = await withServer(database, async (url) => {
        const signupsAlone = await driveSignups(url, SIGNUP_SECONDS);
        const reports = await driveReports(url, tokens, { prefix: 'flat-out' });
        const steadyReports = driveReports(url, steady, { rate: reportRate, prefix: 'steady' });
        const signupsDuring = await driveSignups(url, SIGNUP_SECONDS);
        return { reports, steady: await steadyReports, signupsAlone, signupsDuring };
      });
      const delivered = await countReports(database);
      const uniqueOf = (count: number) => new Set(Array.from({ length: count }, (_, index) => originalOf(index))).size;
      const unique = uniqueOf(tokens.length) + uniqueOf(steady.length);
      reportRates.push(result.reports.perSecond);
      alone.push(result.signupsAlone.perSecond);
      during.push(result.signupsDuring.perSecond);
      console.log(
        `  ${engine} run ${run}: reports ${result.reports.perSecond.toFixed(0)}/s (2xx ${result.reports.ok + result.steady.ok}, errors ${result.reports.errors + result.steady.errors}; ${delivered} messages delivered in the store, ${unique} unique reports${delivered === unique ? '' : ' (MISMATCH)'}); sign-ups alone ${result.signupsAlone.perSecond.toFixed(0)}/s, while reports come at ${result.steady.perSecond.toFixed(0)}/s ${result.signupsDuring.perSecond.toFixed(0)}/s`,
      );
    } finally {
      await cleanup();
    }
  }
  const change = (median(during) / median(alone) - 1) * 100;
  console.log(
    `${engine}: median reports stored ${median(reportRates).toFixed(0)}/s (target ≥ 2,000/s); sign-ups alone ${median(alone).toFixed(0)}/s, while reports come at ${reportRate}/s ${median(during).toFixed(0)}/s (${change.toFixed(1)}%, limit -20%)`,
  );
}

/** How many messages wait in the mailbox's INBOX. */
async function inboxCount(dovecot: TestDovecot): Promise<number> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: dovecot.port,
    secure: false,
    auth: { user: dovecot.user, pass: dovecot.password },
    logger: false,
  });
  await client.connect();
  try {
    const status = await client.status('INBOX', { messages: true });
    if (!status || status.messages === undefined) throw new Error('the bounce mailbox INBOX could not be read');
    return status.messages;
  } finally {
    await client.logout();
  }
}

/**
 * The bounce mailbox holding `copies` of each hostile shape: the server reads them (in its worker,
 * off the event loop) from the moment it starts; sign-ups are measured until the INBOX is empty.
 */
async function hostileMail(): Promise<void> {
  if (hostileCopies <= 0) return;
  if (!dovecotAvailable) {
    console.log('hostile mail: not measured (install dovecot-imapd to run it)');
    return;
  }
  const dovecot = await startDovecot();
  const { database, cleanup } = await freshSqlite();
  try {
    const env = {
      SECRET_KEY: SECRET,
      BOUNCE_ADDRESS: 'bounces@scamsavvy.example',
      BOUNCE_IMAP_URL: dovecot.url(),
    };
    const url = `http://127.0.0.1:${PORT}`;
    let child = await startProductionServer(PORT, database, env);
    const alone = await driveSignups(url, SIGNUP_SECONDS).finally(() => stop(child));
    for (let copy = 0; copy < hostileCopies; copy += 1)
      for (const [, raw] of HOSTILE_SHAPES) await dovecot.deliver(raw);
    const messages = hostileCopies * HOSTILE_SHAPES.length;
    const began = performance.now();
    child = await startProductionServer(PORT, database, env);
    let readSeconds = Number.NaN;
    const emptied = (async () => {
      while ((await inboxCount(dovecot)) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      readSeconds = (performance.now() - began) / 1000;
    })();
    // At most a minute: a reader that never finishes shows as the figure "not read".
    const during = await driveSignups(url, 60, emptied).finally(() => stop(child));
    const left = await inboxCount(dovecot);
    console.log(
      `hostile mail (sqlite): ${messages} messages of 1 MB (${HOSTILE_SHAPES.length} shapes × ${hostileCopies}) read in ${Number.isFinite(readSeconds) ? `${readSeconds.toFixed(1)} s from the server's start (${((readSeconds * 1000) / messages).toFixed(0)} ms a message, fetching included)` : `not read within a minute (${left} left)`}; sign-ups alone ${alone.perSecond.toFixed(0)}/s, p50 ${alone.p50} ms, p99 ${alone.p99} ms; while it reads ${during.perSecond.toFixed(0)}/s, p50 ${during.p50} ms, p99 ${during.p99} ms; errors ${alone.errors + during.errors}`,
    );
  } finally {
    await cleanup();
    await dovecot.stop();
  }
}

await hostileMail();
