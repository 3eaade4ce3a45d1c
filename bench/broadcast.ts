// `npm run bench:broadcast [-- --people N] [--postgres URL] [--workers 1,2,4] [--no-kill] [--no-sqlite] [--no-bare]`: launch
// day at full speed. Fills a list, then sends the launch broadcast through a real SMTP server on
// loopback and a local stand-in for Twilio (bench/broadcast-edges.ts, its own process), with 1, 2
// and 4 sender processes on PostgreSQL and one on SQLite, each exactly as `broadcast send --workers N`
// starts them. Prints emails per second, time per message, a sender's peak memory, and the two
// counts that must be zero: people who got a message twice, and people who got none. Then once more
// with one sender killed (SIGKILL) half-way and a new one started.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { loadConfig, type DatabaseConfig } from '../src/server/config.js';
import { createBroadcastControl } from '../src/server/compose.js';
import { openDatabase, type Db } from '../src/server/db/open-database.js';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '100000' },
    postgres: { type: 'string' },
    workers: { type: 'string', default: '1,2,4' },
    'no-kill': { type: 'boolean' },
    'no-sqlite': { type: 'boolean' },
    'no-bare': { type: 'boolean' },
  },
});
const people = Number(values.people);
const workerCounts = (values.workers ?? '1,2,4').split(',').map(Number);
const postgresUrl = values.postgres ?? process.env.BENCH_POSTGRES_URL ?? process.env.TEST_DATABASE_URL;
/** One in ten people also gets a text (the rest turned texts off), through the Twilio stand-in. */
const TEXT_EVERY = 10;
const TWILIO_SID = `AC${'0'.repeat(32)}`;
const TWILIO_TOKEN = '0'.repeat(32);

interface Edges {
  child: ChildProcess;
  smtpPort: number;
  twilioUrl: string;
}

interface EdgeReport {
  received: number;
  /** Bytes of email the sink took in (headers and bodies). */
  bytes: number;
  twice: number;
  none: number;
  seconds: number;
  texts: number;
  textsTwice: number;
}

function ask<T>(child: ChildProcess, message: object, key: keyof T): Promise<T> {
  return new Promise((resolve) => {
    const listener = (answer: T) => {
      if ((answer as Record<string, unknown>)[key as string] === undefined) return;
      child.off('message', listener);
      resolve(answer);
    };
    child.on('message', listener);
    child.send(message);
  });
}

async function startEdges(): Promise<Edges> {
  const child = fork(path.resolve('bench/broadcast-edges.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_TWILIO_SID: TWILIO_SID, BENCH_TWILIO_TOKEN: TWILIO_TOKEN },
  });
  const ready = await new Promise<{ smtpPort: number; twilioUrl: string }>((resolve) =>
    child.once('message', (message) => resolve(message as { smtpPort: number; twilioUrl: string })),
  );
  return { child, ...ready };
}

function environment(database: DatabaseConfig, edges: Edges): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url,
    SITE_URL: 'https://scamsavvy.example',
    SECRET_KEY: 'bench-secret-key-bench-secret-key-bench',
    SMTP_URL: `smtp://127.0.0.1:${edges.smtpPort}`,
    MAIL_FROM: 'ScamSavvy <news@scamsavvy.example>',
    MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701', // every email says who sends it, and from where
    TWILIO_ACCOUNT_SID: TWILIO_SID,
    TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    TWILIO_FROM: '+15550000000',
    TWILIO_API_BASE_URL: edges.twilioUrl,
    APP_STORE_URL: 'https://apps.apple.com/app/id000000',
    PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=example.app',
    EMAIL_CONFIRMATION: 'off',
    BROADCAST_EMAIL_RATE: '100000', // the most it takes: no ceiling but the sink's
    BROADCAST_SMS_RATE: '10000',
    // Every text may go now, whatever the hour the bench runs (the daytime rules still run for each).
    TEST_TEXT_CLOCK: '2026-06-10T20:00:00Z',
  };
}

/** The list: `people` sign-ups, texts off for all but one in ten. */
async function fill(store: Db, database: DatabaseConfig): Promise<void> {
  const started = performance.now();
  const batch = 1_000;
  for (let start = 0; start < people; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, people - start) }, (_, offset) => {
        const index = start + offset;
        return store.signups.add({
          name: `Person ${index}`,
          phone: `+1555${String(index).padStart(7, '0')}`,
          email: `person${index}@bench.example`,
          betaTesting: false,
          consentVersion: '2026-11-23',
        });
      }),
    );
  }
  // Texts off for nine in ten, past the port; every number has said YES to its joining text
  // (decision 041: only a proven number gets the launch text), as the release before sent to all.
  const textsOff = `UPDATE signups SET sms_opt_out_at = created_at WHERE CAST(substr(email, 7, length(email) - 20) AS INTEGER) % ${TEXT_EVERY} <> 0; UPDATE signups SET sms_confirmed_at = created_at`;
  if (database.kind === 'postgres') {
    const client = new pg.Client(database.url);
    await client.connect();
    // Simple-query protocol: the two statements in one call.
    await client.query(
      textsOff.replace(
        'CAST(substr(email, 7, length(email) - 20) AS INTEGER)',
        'substr(email, 7, length(email) - 20)::int',
      ),
    );
    await client.end();
  } else {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(database.file);
    db.pragma('busy_timeout = 5000');
    db.exec(textsOff);
    db.close();
  }
  console.log(
    `  filled ${people.toLocaleString('en-US')} sign-ups in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

interface WorkerReport {
  sent: number;
  latency: { p50: number; p99: number; count: number };
  peakRssBytes: number;
}

function startWorker(
  env: NodeJS.ProcessEnv,
  name: string,
): { child: ChildProcess; done: Promise<WorkerReport | undefined> } {
  const child = spawn(process.execPath, ['dist/node/cli/broadcast.js', 'worker', name], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const done = new Promise<WorkerReport | undefined>((resolve) =>
    child.on('exit', () => {
      const line = output.trim().split('\n').at(-1);
      try {
        resolve(line ? (JSON.parse(line) as WorkerReport) : undefined);
      } catch {
        resolve(undefined);
      }
    }),
  );
  return { child, done };
}

interface RunResult {
  engine: string;
  workers: number;
  emails: number;
  perSecond: number;
  p50: number;
  p99: number;
  peakMb: number;
  twice: number;
  none: number;
  texts: number;
  textsTwice: number;
  unknown: number;
  killed: boolean;
  /** The average email's size on the wire. */
  emailBytes: number;
}

let runNumber = 0;

async function run(
  engine: string,
  database: DatabaseConfig,
  store: Db,
  edges: Edges,
  workers: number,
  kill = false,
): Promise<RunResult> {
  runNumber += 1;
  const name = `bench-${runNumber}`;
  const env = environment(database, edges);
  const broadcasts = createBroadcastControl(loadConfig(env), store).broadcasts;
  const { broadcast, report } = await broadcasts.create({ name, template: 'launch' });
  await ask(edges.child, { reset: people }, 'ready');
  const senders = Array.from({ length: workers }, () => startWorker(env, name));
  let replacement: ReturnType<typeof startWorker> | undefined;
  if (kill) {
    // Half-way, one sender is killed outright; a new one is started, as an owner would.
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const counts = await store.outbox.counts(broadcast.id, 'email');
      if (counts.sent >= (report.channels.email?.recipients ?? 0) / 2) break;
    }
    senders[0]?.child.kill('SIGKILL');
    replacement = startWorker(env, name);
  }
  const reports = (
    await Promise.all([...senders, ...(replacement ? [replacement] : [])].map((sender) => sender.done))
  ).filter((each): each is WorkerReport => each !== undefined);
  const edge = await ask<EdgeReport>(edges.child, { report: true }, 'received');
  const outbox = await store.outbox.counts(broadcast.id);
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
  const p50s = sorted(reports.map((each) => each.latency.p50));
  return {
    engine,
    workers,
    emails: edge.received,
    perSecond: edge.seconds > 0 ? edge.received / edge.seconds : 0,
    p50: p50s[Math.floor(p50s.length / 2)] ?? 0,
    p99: Math.max(0, ...reports.map((each) => each.latency.p99)),
    peakMb: Math.max(0, ...reports.map((each) => each.peakRssBytes)) / 1e6,
    twice: edge.twice,
    // Nobody may be missing but for messages reported unknown (in flight at the kill).
    none: edge.none,
    texts: edge.texts,
    textsTwice: edge.textsTwice,
    unknown: outbox.unknown,
    killed: kill,
    emailBytes: edge.received > 0 ? edge.bytes / edge.received : 0,
  };
}

function print(result: RunResult): void {
  const number = (value: number) => Math.round(value).toLocaleString('en-US');
  console.log(
    `  ${result.engine.padEnd(10)} ${String(result.workers).padStart(2)} sender${result.workers === 1 ? ' ' : 's'}${result.killed ? ' (one killed)' : ''}: ` +
      `${number(result.perSecond)} emails/s · p50 ${result.p50.toFixed(1)} ms · p99 ${result.p99.toFixed(1)} ms per message · ` +
      `sender peak ${number(result.peakMb)} MB · ${number(result.emails)} emails, ${number(result.texts)} texts · ` +
      `twice: ${result.twice + result.textsTwice} · none: ${result.none}${result.killed || result.unknown > 0 ? ` (unknown, in flight at the kill: ${result.unknown})` : ''}`,
  );
}

/** A fresh, empty database of one engine for one run, and its removal. */
type FreshDatabase = () => Promise<{ database: DatabaseConfig; drop: () => Promise<void> }>;

/**
 * Each run is its own launch day on a database of its own, filled afresh: each kind of email goes to
 * a person once, ever (decision 051), so a second broadcast on the same list rightly sends nothing.
 */
async function engineRuns(label: string, fresh: FreshDatabase, counts: number[], edges: Edges): Promise<RunResult[]> {
  console.log(`${label}:`);
  const results: RunResult[] = [];
  const runs: { workers: number; kill: boolean }[] = counts.map((workers) => ({ workers, kill: false }));
  if (!values['no-kill']) runs.push({ workers: label === 'PostgreSQL' ? 2 : 1, kill: true });
  for (const { workers, kill } of runs) {
    const { database, drop } = await fresh();
    const store = await openDatabase(database);
    try {
      await fill(store, database);
      const result = await run(label, database, store, edges, workers, kill);
      print(result);
      results.push(result);
    } finally {
      await store.close();
      await drop();
    }
  }
  return results;
}

/**
 * The ceiling: a bare nodemailer pool of 8 connections (as a sender keeps) sending the same number
 * of ready-made emails of the launch email's size (as measured in the runs before) into the same
 * sink, with no database, no rendering and no rate limiter. A sender's figure is read against it.
 */
async function bareRun(edges: Edges, emailBytes: number): Promise<number> {
  await ask(edges.child, { reset: people }, 'ready');
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: edges.smtpPort,
    pool: true,
    maxConnections: 8,
    maxMessages: Infinity,
    ignoreTLS: true,
  });
  const line = `${'ScamSavvy is here. '.repeat(4)}\r\n`;
  const body = line.repeat(Math.max(1, Math.round((emailBytes - 250) / line.length)));
  try {
    await Promise.all(
      Array.from({ length: people }, (_, index) => {
        const to = `person${index}@bench.example`;
        const raw = `From: ScamSavvy <news@scamsavvy.example>\r\nTo: ${to}\r\nSubject: ScamSavvy is here\r\nMessage-ID: <bare-${index}@scamsavvy.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}`;
        return transport.sendMail({ envelope: { from: 'news@scamsavvy.example', to: [to] }, raw });
      }),
    );
  } finally {
    transport.close();
  }
  const edge = await ask<EdgeReport>(edges.child, { report: true }, 'received');
  return edge.seconds > 0 ? edge.received / edge.seconds : 0;
}

const edges = await startEdges();
const results: RunResult[] = [];
console.log(
  `bench:broadcast: ${people.toLocaleString('en-US')} people, the launch email to each and a text to one in ${TEXT_EVERY}.`,
);
try {
  if (postgresUrl) {
    const admin = new pg.Client(postgresUrl);
    await admin.connect();
    try {
      let schemas = 0;
      const fresh: FreshDatabase = async () => {
        schemas += 1;
        const schema = `bench_broadcast_${Date.now()}_${schemas}`;
        await admin.query(`CREATE SCHEMA ${schema}`);
        const url = new URL(postgresUrl);
        url.searchParams.set('options', `-c search_path=${schema}`);
        return {
          database: { kind: 'postgres', url: url.toString(), poolSize: 4 },
          drop: async () => void (await admin.query(`DROP SCHEMA ${schema} CASCADE`)),
        };
      };
      results.push(...(await engineRuns('PostgreSQL', fresh, workerCounts, edges)));
    } finally {
      await admin.end();
    }
  } else console.log('PostgreSQL: skipped (give --postgres URL, or set BENCH_POSTGRES_URL).');
  if (!values['no-sqlite']) {
    const fresh: FreshDatabase = async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'bench-broadcast-'));
      return {
        database: { kind: 'sqlite', file: path.join(dir, 'bench.db') },
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      };
    };
    results.push(...(await engineRuns('SQLite', fresh, [1], edges)));
  }
  if (!values['no-bare']) {
    const emailBytes = results.find((result) => result.emailBytes > 0)?.emailBytes ?? 6_000;
    const ceiling = await bareRun(edges, emailBytes);
    const shares = results
      .filter((result) => result.workers === 1 && !result.killed)
      .map((result) => `${result.engine} ${Math.round((result.perSecond / ceiling) * 100)}%`);
    console.log(
      `Bare nodemailer pool, 8 connections, no database, ${Math.round(emailBytes).toLocaleString('en-US')}-byte emails: ` +
        `${Math.round(ceiling).toLocaleString('en-US')} emails/s` +
        (shares.length > 0 ? ` · one sender's share of it: ${shares.join(', ')}` : ''),
    );
  }
} finally {
  edges.child.kill();
}
const bad = results.filter((result) => result.twice + result.textsTwice > 0 || result.none > result.unknown);
console.log(
  bad.length === 0
    ? 'Nobody got a message twice; nobody went without one except messages reported unknown.'
    : `FAILED: ${bad.length} run(s) sent someone a message twice or left someone out.`,
);
process.exitCode = bad.length === 0 ? 0 : 1;
