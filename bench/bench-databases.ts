// What the benchmarks share: a fresh database for each run (an SQLite file in a temp dir, or a
// PostgreSQL schema of its own), and the median of several runs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../src/server/config.js';

export interface FreshDatabase {
  database: DatabaseConfig;
  cleanup: () => Promise<void>;
}

export async function freshSqlite(): Promise<FreshDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-bench-'));
  return {
    database: { kind: 'sqlite', file: path.join(dir, 'signups.db') },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A schema of its own in the database at `base`, dropped by cleanup; the server migrates it on start. */
export async function freshPostgres(base: string): Promise<FreshDatabase> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(base);
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    database: { kind: 'postgres', url: url.toString(), poolSize: 10 },
    cleanup: async () => {
      const client = new pg.Client(base);
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

export function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Runs `measure` on a fresh SQLite file, then on a fresh PostgreSQL schema when `postgresUrl` is
 * given (else says how to ask for it); each database is removed after its run.
 */
export async function onEachEngine(
  postgresUrl: string | undefined,
  measure: (name: 'SQLite' | 'PostgreSQL', database: DatabaseConfig) => Promise<void>,
): Promise<void> {
  const fresh: [name: 'SQLite' | 'PostgreSQL', make: () => Promise<FreshDatabase>][] = [['SQLite', freshSqlite]];
  if (postgresUrl) fresh.push(['PostgreSQL', () => freshPostgres(postgresUrl)]);
  for (const [name, make] of fresh) {
    const { database, cleanup } = await make();
    try {
      await measure(name, database);
    } finally {
      await cleanup();
    }
  }
  if (!postgresUrl)
    console.log('  (PostgreSQL not measured: pass -- --postgres postgres://… or set BENCH_POSTGRES_URL)');
}
