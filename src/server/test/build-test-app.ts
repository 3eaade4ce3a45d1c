// Test helper: the app in-process over a fresh database of the given engine, composed as the server
// composes it (compose.ts) from the test's settings, closed when the test ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { onTestFinished } from 'vitest';
import { createApp, type CreateAppOptions } from '../app.js';
import { loadConfig, type Config, type DatabaseConfig } from '../config.js';
import { compose, type ComposeOverrides, type Product } from '../compose.js';
import { openDatabase, type OpenDatabaseOptions } from '../db/open-database.js';
import type { Db } from '../db/open-database.js';
import { storeEngines, type StoreEngine } from './store-engines.js';
import { testConfig } from './test-config.js';
import { DAYTIME_TEXTS } from './clock.js';

export interface TestAppOptions {
  /** Which database: an entry of storeEngines (suites loop over them), or SQLite by default. */
  engine?: StoreEngine | StoreEngine['name'];
  /**
   * A database the test opened already (a broadcast world's): used instead of a fresh one, closed
   * with the app; with the product the world composed over it, the app is made of that one.
   */
  existing?: { db: Db; database: DatabaseConfig; product?: Product };
  /** Serve the built page from config.distDir (off: the API alone). */
  serveSite?: boolean;
  /** Opened in beforeAll: the suite closes the app itself (afterAll) instead of each test. */
  keepOpen?: boolean;
  /**
   * Settings over an empty environment's and testConfig()'s (rate limits off, logging silent, no
   * site); `messaging` over the defaults. The product is composed from them, as the server does.
   */
  config?: TestSettings;
  /** How the database opens (e.g. confirmSignups). */
  database?: OpenDatabaseOptions;
  /** What the test brings instead of a part (a transport of its own, shorter intervals). */
  overrides?: ComposeOverrides;
  /** No logger unless the test captures lines. */
  logger?: CreateAppOptions['logger'];
  redis?: CreateAppOptions['redis'];
  onRoute?: CreateAppOptions['onRoute'];
}

/** A test's settings: any of the server's, with only the messaging settings it names. */
export type TestSettings = Partial<Omit<Config, 'messaging'>> & { messaging?: Partial<Config['messaging']> };

/** The settings a test's product is composed from: an empty environment's, testConfig()'s, then the test's. */
export function testSettings({ messaging, ...rest }: TestSettings = {}): Config {
  // The text-hours rules at DAYTIME: a test's texts go whatever the hour it runs at.
  const defaults = loadConfig({ ...DAYTIME_TEXTS });
  return { ...defaults, ...testConfig(), ...rest, messaging: { ...defaults.messaging, ...messaging } };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** What the app was composed of (its messaging, feedback, owner parts). */
  product: Product;
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
  overrides,
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
  const made = existing?.product;
  const settings = testSettings({ ...config, database, ...(made ? { messaging: made.config.messaging } : {}) });
  // The launch checks have tests of their own (ready/): the apps that test other things start ready.
  const product = made ?? compose(settings, db, { readiness: async () => [], ...overrides });
  let app: FastifyInstance;
  try {
    const { messaging, feedback, owner } = product;
    // The app is not told where its database is, so no automatic backup runs beneath a test that
    // only shows the schedule (the schedule's own tests run it).
    const { database: _opened, ...appSettings } = settings;
    app = await createApp({
      config: appSettings,
      db,
      serveSite,
      logger,
      messaging,
      ...(feedback ? { feedback } : {}),
      owner,
      ...(redis ? { redis } : {}),
      ...(onRoute ? { onRoute } : {}),
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  // Closing the app closes the database; a test that closed it already is fine.
  if (!keepOpen) onTestFinished(() => app.close());
  return { app, db, database, product };
}
