// Fixture: release ea7849e's two migration runners, verbatim (git show ea7849e:src/server/storage/sqlite-signup-store.ts
// and postgres-signup-store.ts, the functions migrateSqlite and migratePostgres and MIGRATION_LOCK); only imports and comments added.
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { postgresMigrations, type PostgresMigration } from './release-postgres-migrations.js';
import { sqliteMigrations, type SqliteMigration } from './release-sqlite-migrations.js';

const MIGRATION_LOCK = 'scamsavvy.migrations';

export function migrateSqlite(db: Database.Database, migrations: SqliteMigration[] = sqliteMigrations): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const apply = db.transaction(() => {
    const done = new Set(
      (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version),
    );
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      migration.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
      applied.push(migration.version);
    }
    return applied;
  });
  // IMMEDIATE takes the write lock first, so two processes starting together cannot both migrate.
  return apply.immediate();
}

export async function migratePostgres(
  pool: pg.Pool,
  migrations: PostgresMigration[] = postgresMigrations,
): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version),
    );
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
