// Fixture: the schema release ea7849e leaves, under its own numbers. A shipped migration is never
// edited, so the release's migrations are today's (RELEASE_DIGESTS, checked by migrate.test.ts,
// proves each still reads as it did then); only PostgreSQL's numbers differ: it had no version 2,
// so analytics..owners were recorded as 2..5.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { postgresMigrations } from '../postgres-migrations.js';
import { sqliteMigrations } from '../sqlite-migrations.js';

/** When the release's database was made (a fixed instant: its migrations ran before the test). */
const RELEASE_MIGRATED_AT = '2026-11-01T12:00:00.000Z';

/** The release's last SQLite migration (owners): its numbers are today's. */
export const RELEASE_SQLITE_LAST = 6;

/** The version each migration had in the release, by name (SQLite's are today's). */
export const RELEASE_POSTGRES_VERSIONS: Record<string, number> = {
  'create-signups': 1,
  'create-analytics-events': 2,
  messaging: 3,
  broadcasts: 4,
  owners: 5,
};

/**
 * What the release's migrations made, at ea7849e: the first 16 hex digits of SHA-256 of the SQLite
 * schema they leave (sqliteSchema), and of each PostgreSQL migration's SQL.
 */
export const RELEASE_DIGESTS = {
  sqliteSchema: '0a74a98c87c82c51',
  postgres: {
    'create-signups': '33d7d62b1934be2b',
    'create-analytics-events': '46292300629fab2d',
    messaging: 'd0c38ad940988f91',
    broadcasts: '7067da65c49f783f',
    owners: '967262bda9df6d61',
  },
} as const;

export const digest = (body: string) => createHash('sha256').update(body).digest('hex').slice(0, 16);

/** Every table and index the SQLite migrations make, as SQLite itself writes them down. */
export function sqliteSchema(db: Database.Database): string {
  const rows = db.prepare('SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name').all() as {
    sql: string;
  }[];
  return rows.map((row) => row.sql).join(';\n');
}

/** As the release's runner did: every migration in one transaction, each recorded with its version. */
export function migrateSqliteAsRelease(db: Database.Database): void {
  db.exec(`CREATE TABLE schema_migrations (
    version INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  db.transaction(() => {
    // The release's six only: what came later runs when today's code opens the file.
    for (const migration of sqliteMigrations.filter(({ version }) => version <= RELEASE_SQLITE_LAST)) {
      migration.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        RELEASE_MIGRATED_AT,
      );
    }
  })();
}

/** As the release's runner did on PostgreSQL, with the release's numbers. */
export async function migratePostgresAsRelease(client: pg.ClientBase): Promise<void> {
  await client.query('BEGIN');
  await client.query(`CREATE TABLE schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  for (const migration of postgresMigrations) {
    const version = RELEASE_POSTGRES_VERSIONS[migration.name];
    if (version === undefined) continue; // version 2 came after the release (a no-op on PostgreSQL)
    await client.query(migration.sql);
    await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, migration.name]);
  }
  await client.query('COMMIT');
}
