// Fixture: a database as the migrations up to one version leave it (an earlier release's), filled
// in plain SQL, so no code of today writes its rows; an upgrade test then opens it with today's.
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../../config.js';
import { migratePostgres, migrateSqlite } from '../migrate.js';
import { postgresMigrations } from '../postgres-migrations.js';
import { sqliteMigrations } from '../sqlite-migrations.js';

/** Migrates `database` up to `version` only, then runs `fill` (the engine's SQL) in it. */
export async function databaseAtMigration(
  database: DatabaseConfig,
  version: number,
  fill: (engine: DatabaseConfig['kind']) => string,
): Promise<void> {
  if (database.kind === 'sqlite') {
    const db = new Database(database.file);
    try {
      await migrateSqlite(
        db,
        sqliteMigrations.filter((migration) => migration.version <= version),
      );
      db.exec(fill('sqlite'));
    } finally {
      db.close();
    }
    return;
  }
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  try {
    await migratePostgres(
      pool,
      postgresMigrations.filter((migration) => migration.version <= version),
    );
    await pool.query(fill('postgres'));
  } finally {
    await pool.end();
  }
}
