// `npm run bench:stats [-- --rows N] [--postgres URL]`: how long `signups:stats` and a full export
// take on a large list (a million sign-ups by default), on SQLite and, when given, PostgreSQL.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openSqlite } from '../src/server/db/sqlite-shared.js';
import { openDatabase } from '../src/server/db/open-database.js';
import { migrateSqlite } from '../src/server/db/migrate.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, postgres: { type: 'string' } },
});
const rows = Number(values.rows);
const postgresUrl = values.postgres ?? process.env.BENCH_POSTGRES_URL;
const sources = ['newsletter', 'facebook.com', '(direct)', 'tv', 'google.com', 'nextdoor'];
const campaigns = [null, 'launch', 'spring', 'tv-segment'];

/** The export reads each person's standing for the launch with it (the "no"s kept by address are hashed). */
const SECRET_KEY = randomBytes(32).toString('base64');

function timeCommand(script: string, databaseUrl: string, args: string[]): number {
  const start = performance.now();
  execFileSync(process.execPath, [script, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SECRET_KEY },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return performance.now() - start;
}

function measure(label: string, databaseUrl: string): void {
  const stats = [1, 2, 3].map(() => timeCommand('dist/node/cli/signups-stats.js', databaseUrl, []));
  const exportJson = timeCommand('dist/node/cli/export-signups.js', databaseUrl, [
    '--format',
    'csv',
    '--out',
    '/dev/null',
  ]);
  const median = [...stats].sort((a, b) => a - b)[1] ?? 0;
  console.log(
    `  ${label}: signups:stats ${median.toFixed(0)} ms (median of 3, process start included); CSV export of every row ${(exportJson / 1000).toFixed(1)} s`,
  );
}

console.log(`bench:stats: ${rows.toLocaleString('en-US')} sign-ups`);
const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-stats-'));
try {
  const file = path.join(dir, 'signups.db');
  const db = openSqlite(file);
  db.pragma('synchronous = OFF'); // filling only; the commands read with the normal settings
  await migrateSqlite(db);
  const insert = db.prepare(
    `INSERT INTO signups (id, name, phone, email, email_key, beta_testing, created_at, last_seen_at, utm_source, utm_campaign, source)
     VALUES (?, 'Rosa Díaz', '+15551234567', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const start = Date.now() - 60 * 86_400_000;
  db.transaction(() => {
    for (let index = 0; index < rows; index += 1) {
      const email = `person${index}@example.com`;
      const at = new Date(start + Math.floor((index / rows) * 60 * 86_400_000)).toISOString();
      const source = sources[index % sources.length] as string;
      insert.run(
        randomUUID(),
        email,
        email,
        index % 3 === 0 ? 1 : 0,
        at,
        at,
        source,
        campaigns[index % campaigns.length] ?? null,
        source,
      );
    }
  })();
  db.close();
  measure('SQLite', `sqlite:${file}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (postgresUrl) {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(postgresUrl);
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(postgresUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  try {
    await (await await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 })).close(); // creates the tables
    await admin.query(`SET search_path = ${schema}`);
    await admin.query(
      `INSERT INTO signups (id, name, phone, email, email_key, beta_testing, created_at, last_seen_at, utm_source, utm_campaign, source)
       SELECT gen_random_uuid(), 'Rosa Díaz', '+15551234567', 'person' || i || '@example.com', 'person' || i || '@example.com', i % 3 = 0,
              now() - interval '60 days' * (1 - i::float / $1), now(), (ARRAY[${sources.map((s) => `'${s}'`).join(',')}])[1 + i % ${sources.length}],
              (ARRAY[NULL, 'launch', 'spring', 'tv-segment'])[1 + i % 4], (ARRAY[${sources.map((s) => `'${s}'`).join(',')}])[1 + i % ${sources.length}]
       FROM generate_series(1, $1) AS i`,
      [rows],
    );
    await admin.query('ANALYZE signups');
    measure('PostgreSQL', url.toString());
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
} else {
  console.log('  (PostgreSQL not measured: pass -- --postgres postgres://… or set BENCH_POSTGRES_URL)');
}
