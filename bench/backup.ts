// `npm run bench:backup [-- --postgres URL] [--runs N] [--megabytes M] [--connections C]`: sign-ups per
// second against the real production server while `db:backup` copies a database of M megabytes, and
// for as long again with no backup, in turns; every acknowledged sign-up counted in the store after.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { cpus, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { freshPostgres, freshSqlite, median, type FreshDatabase } from './bench-databases.js';
import { startProductionServer, stop } from './server-process.js';
import { openDatabase } from '../src/server/db/open-database.js';
import type { DatabaseConfig } from '../src/server/config.js';
import { fileSize } from '../src/shared/plain-numbers.js';

const { values } = parseArgs({
  options: {
    postgres: { type: 'string' },
    runs: { type: 'string', default: '3' },
    megabytes: { type: 'string', default: '200' },
    connections: { type: 'string', default: '50' },
  },
});
const runs = Number(values.runs);
const megabytes = Number(values.megabytes);
const connections = Number(values.connections);
const postgresUrl = values.postgres ?? process.env.BENCH_POSTGRES_URL;
const PORT = 4351;
const PADDING = 'x'.repeat(1000);

/** Page events of about 1 kB each, written straight into the tables, until the database is about M megabytes. */
async function fill(database: DatabaseConfig): Promise<void> {
  const store = await openDatabase(database); // creates the tables
  await store.close();
  const rows = megabytes * 1000;
  if (database.kind === 'sqlite') {
    const db = new Database(database.file);
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO analytics_events (name, page_name, params, created_at)
       SELECT 'page_view', 'home', json_object('padding', ?, 'i', i), '2026-11-26T00:00:00.000Z' FROM n`,
    ).run(rows, PADDING);
    db.close();
  } else {
    const client = new pg.Client(database.url);
    await client.connect();
    await client.query(
      `INSERT INTO analytics_events (name, page_name, params, created_at)
       SELECT 'page_view', 'home', jsonb_build_object('padding', $2::text, 'i', i), '2026-11-26T00:00:00Z'
       FROM generate_series(1, $1) AS i`,
      [rows, PADDING],
    );
    await client.end();
  }
}

interface Phase {
  perSecond: number;
  p99: number;
  ok: number;
  errors: number;
  seconds: number;
}

/** Sign-ups at full speed until `until` settles; the 2xx per second over that time. */
function drive(url: string, until: Promise<unknown>): Promise<Phase> {
  const runId = randomBytes(4).toString('hex');
  let sequence = 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}/api/signups`,
        method: 'POST',
        connections,
        duration: 600, // stopped when the phase ends
        sampleInt: 100,
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                name: 'Rosa Díaz',
                phone: '+15551234567',
                email: `backup-${runId}-${(sequence += 1)}@example.com`,
                openedForMs: 5000,
              }),
            }),
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const seconds = (performance.now() - started) / 1000;
        resolve({
          perSecond: result['2xx'] / seconds,
          p99: result.latency.p99,
          ok: result['2xx'],
          errors: result.non2xx + result.errors + result.timeouts,
          seconds,
        });
      },
    );
    const end = () => instance.stop();
    void until.then(end, end);
  });
}

/** `npm run db:backup` as the owner runs it, into the run's folder; resolves with its exit code. */
function backup(database: DatabaseConfig, out: string): Promise<number | null> {
  const child = spawn(process.execPath, ['dist/node/cli/backup-database.js', '--out', out], {
    env: { ...process.env, DATABASE_URL: database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve) => child.once('exit', resolve));
}

interface RunResult {
  during: Phase;
  after: Phase;
  backupSeconds: number;
  backupBytes: number;
  rows: number;
}

async function once(fresh: FreshDatabase, folder: string): Promise<RunResult> {
  const { database } = fresh;
  await fill(database);
  const url = `http://127.0.0.1:${PORT}`;
  const child = await startProductionServer(PORT, database);
  try {
    const out = path.join(
      folder,
      `bench-${randomBytes(4).toString('hex')}.${database.kind === 'sqlite' ? 'sqlite' : 'pgdump'}`,
    );
    const started = performance.now();
    const copied = backup(database, out).then((code) => {
      if (code !== 0) throw new Error(`db:backup exited with ${code}`);
      return (performance.now() - started) / 1000;
    });
    const during = await drive(url, copied);
    const backupSeconds = await copied;
    // As long again with no backup: the same server, the same database, a moment later.
    const after = await drive(url, new Promise((resolve) => setTimeout(resolve, backupSeconds * 1000)));
    await stop(child);
    const store = await openDatabase(database, { migrate: false });
    const rows = await store.signups.count();
    await store.close();
    return { during, after, backupSeconds, backupBytes: statSync(out).size, rows };
  } finally {
    await stop(child);
  }
}

console.log(
  `bench:backup: POST /api/signups with ${connections} connections while db:backup copies a database of about ${megabytes} MB, then as long again without; ${runs} runs each; ${cpus().length} cores, Node ${process.version}`,
);
const targets: { name: string; fresh: () => Promise<FreshDatabase> }[] = [{ name: 'SQLite', fresh: freshSqlite }];
if (postgresUrl) targets.push({ name: 'PostgreSQL', fresh: () => freshPostgres(postgresUrl) });
else console.log('  (PostgreSQL not measured: pass -- --postgres postgres://… or set BENCH_POSTGRES_URL)');

const results = targets.map((target) => ({ name: target.name, runs: [] as RunResult[] }));
for (let run = 1; run <= runs; run += 1) {
  for (const [index, target] of targets.entries()) {
    const fresh = await target.fresh();
    const folder = mkdtempSync(path.join(tmpdir(), 'scamsavvy-bench-backups-'));
    try {
      const result = await once(fresh, folder);
      results[index]?.runs.push(result);
      console.log(
        `  ${target.name} run ${run}: backup ${result.backupSeconds.toFixed(1)} s (${fileSize(result.backupBytes)}); during ${result.during.perSecond.toFixed(0)}/s (p99 ${result.during.p99} ms), after ${result.after.perSecond.toFixed(0)}/s (p99 ${result.after.p99} ms); errors ${result.during.errors + result.after.errors}; rows ${result.rows} (2xx ${result.during.ok + result.after.ok})`,
      );
    } finally {
      await fresh.cleanup();
      rmSync(folder, { recursive: true, force: true });
    }
  }
}

console.log('\nMedians:');
console.log(
  '  target        backup s   during /s   after /s   during/after   p99 during   p99 after   errors   rows ≥ 2xx',
);
let allGood = true;
for (const { name, runs: done } of results) {
  const during = median(done.map((run) => run.during.perSecond));
  const after = median(done.map((run) => run.after.perSecond));
  const errors = done.reduce((sum, run) => sum + run.during.errors + run.after.errors, 0);
  // Stopping a phase cuts off the requests in flight (at most one per connection): stored, not yet answered.
  const rowsMatch = done.every((run) => {
    const ok = run.during.ok + run.after.ok;
    return run.rows >= ok && run.rows <= ok + 2 * connections;
  });
  allGood &&= errors === 0 && rowsMatch;
  console.log(
    `  ${name.padEnd(12)} ${median(done.map((run) => run.backupSeconds))
      .toFixed(1)
      .padStart(
        8,
      )}   ${during.toFixed(0).padStart(9)}   ${after.toFixed(0).padStart(8)}   ${`${Math.round((during / after) * 100)}%`.padStart(12)}   ${String(median(done.map((run) => run.during.p99))).padStart(10)}   ${String(median(done.map((run) => run.after.p99))).padStart(9)}   ${String(errors).padStart(6)}   ${(rowsMatch ? 'yes' : 'NO').padStart(10)}`,
  );
}
process.exitCode = allGood ? 0 : 1;
