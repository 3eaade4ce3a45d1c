// `npm run bench:api [-- --postgres URL] [--runs N] [--requests N] [--connections C]`: sign-ups per
// second against the real production server on SQLite (and PostgreSQL when given), beside a bare
// Node http server in the same run, with every acknowledged sign-up counted in the store after.
// `--during-backup [--megabytes M]` measures the same load while db:backup runs, and after: bench/backup.ts.
// `--confirmations [--rate N]` measures how soon each confirmation email leaves: bench/confirmation-latency.ts.
// `--timing [--pairs N]` compares the answer to a new sign-up with a repeat's: bench/signup-timing.ts.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freshPostgres, freshSqlite, median } from './bench-databases.js';
import { startProductionServer, stop, waitForServer } from './server-process.js';
import { openDatabase } from '../src/server/db/open-database.js';
import type { DatabaseConfig } from '../src/server/config.js';

// Whether a repeat sign-up is answered in the time a new one is: bench/signup-timing.ts.
if (process.argv.includes('--timing')) {
  const timing = spawnSync(
    process.execPath,
    [...process.execArgv, 'bench/signup-timing.ts', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(timing.status ?? 1);
}

// How soon the confirmation email leaves while sign-ups keep coming: bench/confirmation-latency.ts.
if (process.argv.includes('--confirmations')) {
  const latency = spawnSync(
    process.execPath,
    [...process.execArgv, 'bench/confirmation-latency.ts', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(latency.status ?? 1);
}

if (process.argv.includes('--during-backup')) {
  const args = process.argv.slice(2).filter((arg) => arg !== '--during-backup');
  const backup = spawnSync(process.execPath, [...process.execArgv, 'bench/backup.ts', ...args], { stdio: 'inherit' });
  process.exit(backup.status ?? 1);
}

const { values } = parseArgs({
  options: {
    postgres: { type: 'string' },
    runs: { type: 'string', default: '3' },
    requests: { type: 'string', default: '40000' },
    connections: { type: 'string', default: '50' },
  },
});
const runs = Number(values.runs);
const requests = Number(values.requests);
const connections = Number(values.connections);
const postgresUrl = values.postgres ?? process.env.BENCH_POSTGRES_URL;
const PORT = 4350;

interface RunResult {
  perSecond: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
  rows: number | null;
}

let sequence = 0;
async function drive(
  url: string,
): Promise<{ perSecond: number; p50: number; p99: number; ok: number; errors: number }> {
  const runId = randomBytes(4).toString('hex');
  const result = await autocannon({
    url: `${url}/api/signups`,
    method: 'POST',
    connections,
    // A fixed number of requests, not a duration, so none is cut off in flight and rows must equal 2xx exactly.
    amount: requests,
    // autocannon notices the end at its next sample; sample often so the timing is not rounded to whole seconds.
    sampleInt: 50,
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
              email: `bench-${runId}-${sequence}@example.com`,
              betaTesting: sequence % 3 === 0,
              attribution: { utmSource: 'bench', landingPath: '/', button: 'hero_section' },
              consentVersion: '2026-11-22',
              openedForMs: 5000,
            }),
          };
        },
      },
    ],
  });
  const ok = result['2xx'];
  return {
    perSecond: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

async function benchServer(database: DatabaseConfig): Promise<RunResult> {
  const url = `http://127.0.0.1:${PORT}`;
  const child = await startProductionServer(PORT, database);
  try {
    const driven = await drive(url);
    await stop(child);
    const store = await openDatabase(database, { migrate: false });
    const rows = await store.signups.count();
    await store.close();
    return { ...driven, rows };
  } finally {
    await stop(child);
  }
}

async function benchBare(): Promise<RunResult> {
  const child = spawn(process.execPath, ['bench/bare-server.mjs'], {
    env: { ...process.env, PORT: String(PORT) },
    stdio: 'ignore',
  });
  try {
    await waitForServer(child, `http://127.0.0.1:${PORT}`);
    return { ...(await drive(`http://127.0.0.1:${PORT}`)), rows: null };
  } finally {
    await stop(child);
  }
}

function report(name: string, run: number, result: RunResult): void {
  const rows = result.rows === null ? '' : `, rows ${result.rows}${result.rows === result.ok ? '' : ' (MISMATCH)'}`;
  console.log(
    `  ${name} run ${run}: ${result.perSecond.toFixed(0)}/s, p50 ${result.p50} ms, p99 ${result.p99} ms, 2xx ${result.ok}, errors ${result.errors}${rows}`,
  );
}

console.log(
  `bench:api: POST /api/signups, ${connections} connections, ${requests} requests a run, ${runs} runs each; ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
);
const targets: { name: string; once: () => Promise<RunResult> }[] = [
  {
    name: 'SQLite',
    once: async () => {
      const { database, cleanup } = await freshSqlite();
      try {
        return await benchServer(database);
      } finally {
        await cleanup();
      }
    },
  },
];
if (postgresUrl) {
  targets.push({
    name: 'PostgreSQL',
    once: async () => {
      const { database, cleanup } = await freshPostgres(postgresUrl);
      try {
        return await benchServer(database);
      } finally {
        await cleanup();
      }
    },
  });
} else {
  console.log('  (PostgreSQL not measured: pass -- --postgres postgres://… or set BENCH_POSTGRES_URL)');
}
targets.push({ name: 'bare Node http', once: benchBare });

// Runs take turns (SQLite, PostgreSQL, bare, then again), so a noisy minute on the machine falls on all alike.
const summaries = targets.map((target) => ({ name: target.name, runs: [] as RunResult[] }));
for (let run = 1; run <= runs; run += 1) {
  for (const [index, target] of targets.entries()) {
    const result = await target.once();
    summaries[index]?.runs.push(result);
    report(target.name, run, result);
  }
}

const ceiling = median(summaries.at(-1)?.runs.map((run) => run.perSecond) ?? [1]);
console.log('\nMedians:');
console.log('  target           sign-ups/s   p50 ms   p99 ms   errors   rows = 2xx   of bare ceiling');
let allGood = true;
for (const { name, runs: results } of summaries) {
  const perSecond = median(results.map((run) => run.perSecond));
  const rowsMatch = results.every((run) => run.rows === null || run.rows === run.ok);
  const errors = results.reduce((sum, run) => sum + run.errors, 0);
  allGood &&= rowsMatch && errors === 0;
  console.log(
    `  ${name.padEnd(16)} ${perSecond.toFixed(0).padStart(10)}   ${String(median(results.map((run) => run.p50))).padStart(6)}   ${String(
      median(results.map((run) => run.p99)),
    ).padStart(
      6,
    )}   ${String(errors).padStart(6)}   ${results[0]?.rows === null ? '         -' : (rowsMatch ? 'yes' : 'NO').padStart(10)}   ${`${Math.round((perSecond / ceiling) * 100)}%`.padStart(15)}`,
  );
}
process.exitCode = allGood ? 0 : 1;
