// Test helper: the database engines a store suite runs against. SQLite always; PostgreSQL when
// TEST_DATABASE_URL is set (CI sets it), each test in a schema of its own that is dropped after.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { tempDatabaseFile } from './temp-database.js';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const testRedisUrl = process.env.TEST_REDIS_URL || undefined;

if (!testDatabaseUrl) console.info('PostgreSQL tests are skipped here: set TEST_DATABASE_URL to run them.');
if (!testRedisUrl) console.info('Redis tests are skipped here: set TEST_REDIS_URL to run them.');

/** A PostgreSQL URL whose connections use a fresh schema; the schema is dropped when the test ends. */
export async function tempPostgresUrl(): Promise<string> {
  if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set.');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(testDatabaseUrl);
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  onTestFinished(async () => {
    const cleanup = new pg.Client(testDatabaseUrl);
    await cleanup.connect();
    await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await cleanup.end();
  });
  const url = new URL(testDatabaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

export interface StoreEngine {
  name: 'sqlite' | 'postgres';
  available: boolean;
  /** A fresh, empty database of this engine, removed after the test. */
  database: () => Promise<DatabaseConfig>;
}

export const storeEngines: StoreEngine[] = [
  { name: 'sqlite', available: true, database: async () => ({ kind: 'sqlite', file: tempDatabaseFile() }) },
  {
    name: 'postgres',
    available: testDatabaseUrl !== undefined,
    database: async () => ({ kind: 'postgres', url: await tempPostgresUrl(), poolSize: 4 }),
  },
];

/** A suite's name on one engine, saying how to run it where it is skipped. */
export function suiteName(subject: string, engine: StoreEngine): string {
  return `${subject} on ${engine.name}${engine.available ? '' : ' (skipped: set TEST_DATABASE_URL to run it)'}`;
}

/** How long dropping a test's database may take: a hang guard. */
const DROP_LIMIT_MS = 180_000;

/**
 * A PostgreSQL database of its own (its public schema, as an owner's database has), dropped when the
 * test ends: for what works on a whole database, such as pg_dump and pg_restore.
 */
export async function tempPostgresDatabase(): Promise<string> {
  if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set.');
  const name = `test_db_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(testDatabaseUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  // Dropping a database waits for a checkpoint, which on a busy machine took over 30 s (the hooks'
  // limit): a clean-up that waits its turn, not a test that failed.
  onTestFinished(async () => {
    const cleanup = new pg.Client(testDatabaseUrl);
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  }, DROP_LIMIT_MS);
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Whole databases of each engine (an SQLite file; a PostgreSQL database of its own). */
export const wholeDatabaseEngines: StoreEngine[] = storeEngines.map((engine) =>
  engine.name === 'postgres'
    ? { ...engine, database: async () => ({ kind: 'postgres', url: await tempPostgresDatabase(), poolSize: 4 }) }
    : engine,
);
