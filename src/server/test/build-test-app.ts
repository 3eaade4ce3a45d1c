// Test helper: the app in-process over a fresh database of the given engine, closed when the test ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { onTestFinished } from 'vitest';
import { createApp, type CreateAppOptions } from '../app.js';
import type { Config, DatabaseConfig } from '../config.js';
import { openDatabase, type OpenDatabaseOptions } from '../db/open-database.js';
import type { Db } from '../db/open-database.js';
import { storeEngines, type StoreEngine } from './store-engines.js';
import { testConfig } from './test-config.js';

export interface TestAppOptions {
  /** Which database: an entry of storeEngines (suites loop over them), or SQLite by default. */
  engine?: StoreEngine | StoreEngine['name'];
  /** A database the test opened already (a broadcast world's): used instead of a fresh one, closed with the app. */
  existing?: { db: Db; database: DatabaseConfig };
  /** Serve the built page from config.distDir (off: the API alone). */
  serveSite?: boolean;
  /** Opened in beforeAll: the suite closes the app itself (afterAll) instead of each test. */
  keepOpen?: boolean;
  /** Settings over testConfig()'s (rate limits off, logging silent, no site). */
  config?: Partial<Config>;
  /** How the database opens (e.g. confirmSignups). */
  database?: OpenDatabaseOptions;
  /** Email and texts, built over the test's database (e.g. with createMessaging). */
  messaging?: (db: Db) => NonNullable<CreateAppOptions['messaging']>;
  /** The owner's dashboard options, built over the test's database. */
  owner?: (db: Db) => NonNullable<CreateAppOptions['owner']>;
  /** What comes back after a send (createFeedbackParts), built over the test's database and messaging. */
  feedback?: (db: Db, messaging: CreateAppOptions['messaging']) => CreateAppOptions['feedback'];
  /** No logger unless the test captures lines. */
  logger?: CreateAppOptions['logger'];
  redis?: CreateAppOptions['redis'];
  onRoute?: CreateAppOptions['onRoute'];
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** Where the database is (a SQLite file, or a PostgreSQL URL with its own schema), to open it again. */
  database: DatabaseConfig;
}

/**
 * A suite's own SQLite file for an app kept open (a suite's beforeAll cannot register a test's
 * clean-up): gone when the test process ends.
 */
function suiteDatabase(): DatabaseConfig {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-suite-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return { kind: 'sqlite', file: path.join(dir, 'signups.db') };
}

export async function buildTestApp({
  engine = 'sqlite',
  existing,
  serveSite = false,
  keepOpen = false,
  config,
  database: databaseOptions,
  messaging,
  owner,
  feedback,
  logger = false,
  redis,
  onRoute,
}: TestAppOptions = {}): Promise<TestApp> {
  const chosen = typeof engine === 'string' ? storeEngines.find((candidate) => candidate.name === engine) : engine;
  if (!existing && !chosen?.available)
    throw new Error(`The ${String(typeof engine === 'string' ? engine : engine.name)} engine is not available here.`);
  // The database's clean-up is registered here, before the app's close: vitest runs them last first, so the app closes first.
  const database =
    existing?.database ?? (keepOpen && chosen!.name === 'sqlite' ? suiteDatabase() : await chosen!.database());
  const db = existing?.db ?? (await openDatabase(database, databaseOptions));
  let app: FastifyInstance;
  try {
    const built = messaging?.(db);
    const parts = feedback?.(db, built);
    app = await createApp({
      config: testConfig(config),
      db,
      serveSite,
      logger,
      ...(built ? { messaging: built } : {}),
      ...(parts ? { feedback: parts } : {}),
      ...(owner ? { owner: owner(db) } : {}),
      ...(redis ? { redis } : {}),
      ...(onRoute ? { onRoute } : {}),
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  // Closing the app closes the database; a test that closed it already is fine.
  if (!keepOpen) onTestFinished(() => app.close());
  return { app, db, database };
}
