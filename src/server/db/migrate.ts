// The one migration runner and the one "is the schema current" check, for both engines. Each engine
// has a numbered list (sqlite-migrations.ts, postgres-migrations.ts) with the same version and name
// for the same change; adding one means a migration per engine with the same number, nothing here.
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { NotMigratedError } from './database-errors.js';
import { postgresMigrations, type PostgresMigration } from './postgres-migrations.js';
import { sqliteMigrations, type SqliteMigration } from './sqlite-migrations.js';

/** A row of schema_migrations, and what every migration has: the two must match for it to count as applied. */
export interface MigrationInfo {
  version: number;
  name: string;
}

/** How the runner reaches one engine; SQLite's answers at once (better-sqlite3 is synchronous), PostgreSQL's with promises. */
interface Connection<M extends MigrationInfo> {
  /** Begins the one transaction, taking the engine's migration lock first, and makes sure schema_migrations exists. */
  begin(): unknown;
  end(outcome: 'COMMIT' | 'ROLLBACK'): unknown;
  /** What schema_migrations holds, or undefined when the table does not exist yet. */
  recorded(): MigrationInfo[] | undefined | Promise<MigrationInfo[] | undefined>;
  /** Moves a recorded row to another version; its name and applied_at stay. */
  renumber(from: number, to: number): unknown;
  /** Runs the migration and records it. */
  apply(migration: M): unknown;
}

/**
 * Databases created before the engines' numbers were unified recorded some migrations under other
 * versions (PostgreSQL's analytics..owners were 2..5 and are 3..6 now). A recorded row whose name
 * belongs to a migration with another version is moved to that version, highest first so that
 * moving forward never lands on a row that has not moved yet. Returns the moves, in order.
 */
export function renumbering(recorded: MigrationInfo[], migrations: MigrationInfo[]): { from: number; to: number }[] {
  const versionOf = new Map(migrations.map((migration) => [migration.name, migration.version]));
  const taken = new Map(recorded.map((row) => [row.version, row.name]));
  const moves: { from: number; to: number }[] = [];
  for (const row of [...recorded].sort((a, b) => b.version - a.version)) {
    const to = versionOf.get(row.name);
    if (to === undefined || to === row.version) continue;
    const holder = taken.get(to);
    if (holder !== undefined)
      throw new Error(
        `schema_migrations: cannot move "${row.name}" from version ${row.version} to ${to}, which "${holder}" holds.`,
      );
    taken.delete(row.version);
    taken.set(to, row.name);
    moves.push({ from: row.version, to });
  }
  return moves;
}

/**
 * Where a recorded schema stands against this code's migrations: the ones it lacks (recorded under
 * another version or name counts as lacking), its highest version, and whether a later release set
 * it up (a version beyond this code's newest).
 */
export function schemaState(
  recorded: MigrationInfo[],
  migrations: MigrationInfo[],
): { missing: MigrationInfo[]; version: number; newest: number; ahead: boolean } {
  const names = new Map(recorded.map((row) => [row.version, row.name]));
  const missing = migrations.filter((migration) => names.get(migration.version) !== migration.name);
  const version = Math.max(0, ...recorded.map((row) => row.version));
  const newest = Math.max(0, ...migrations.map((migration) => migration.version));
  return { missing, version, newest, ahead: version > newest };
}

/** Current: every migration this code knows is recorded under its own version and name (a newer release may have added more). */
export function isSchemaCurrent(recorded: MigrationInfo[] | undefined, migrations: MigrationInfo[]): boolean {
  return recorded !== undefined && schemaState(recorded, migrations).missing.length === 0;
}

/** Under the lock: renumber rows from before the unified numbers, then apply what is missing, in order. */
async function runMigrations<M extends MigrationInfo>(connection: Connection<M>, migrations: M[]): Promise<number[]> {
  await connection.begin();
  try {
    const recorded = (await connection.recorded()) ?? [];
    const moves = renumbering(recorded, migrations);
    for (const { from, to } of moves) await connection.renumber(from, to);
    const done = new Set(recorded.map((row) => moves.find((move) => move.from === row.version)?.to ?? row.version));
    const missing = [...migrations].sort((a, b) => a.version - b.version).filter((m) => !done.has(m.version));
    for (const migration of missing) await connection.apply(migration);
    await connection.end('COMMIT');
    return missing.map((migration) => migration.version);
  } catch (error) {
    await connection.end('ROLLBACK');
    throw error;
  }
}

/** The check for the owner's read-only commands, which never migrate: NotMigratedError tells them what to run. */
async function assertMigrated<M extends MigrationInfo>(connection: Connection<M>, migrations: M[]): Promise<void> {
  if (!isSchemaCurrent(await connection.recorded(), migrations)) throw new NotMigratedError();
}

function sqliteConnection(db: Database.Database): Connection<SqliteMigration> {
  return {
    begin: () => {
      // IMMEDIATE takes the write lock first, so two processes starting together cannot both migrate.
      db.exec('BEGIN IMMEDIATE');
      db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        applied_at TEXT NOT NULL
      ) STRICT`);
    },
    // Some errors end SQLite's transaction themselves; rolling back then would hide the first error.
    end: (outcome) => db.inTransaction && db.exec(outcome),
    recorded: () => {
      try {
        return db.prepare('SELECT version, name FROM schema_migrations').all() as MigrationInfo[];
      } catch {
        return undefined; // no schema_migrations table at all
      }
    },
    renumber: (from, to) => db.prepare('UPDATE schema_migrations SET version = ? WHERE version = ?').run(to, from),
    apply: (migration) => {
      migration.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    },
  };
}

/** One lock for everyone migrating this database, so two instances starting together take turns. */
const MIGRATION_LOCK = 'scamsavvy.migrations';

/** On one client: the transaction and the advisory lock it holds must stay on the same connection. */
function postgresConnection(client: pg.ClientBase): Connection<PostgresMigration> {
  return {
    begin: async () => {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    },
    end: (outcome) =>
      client.query(outcome).catch((error) => (outcome === 'COMMIT' ? Promise.reject(error) : undefined)),
    recorded: async () => {
      try {
        return (await client.query<MigrationInfo>('SELECT version, name FROM schema_migrations')).rows;
      } catch (error) {
        if ((error as { code?: string }).code === '42P01') return undefined; // no such table
        throw error;
      }
    },
    renumber: (from, to) => client.query('UPDATE schema_migrations SET version = $1 WHERE version = $2', [to, from]),
    apply: async (migration) => {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    },
  };
}

/** Applies the migrations this file does not have yet, in one write transaction; returns their versions. */
export function migrateSqlite(db: Database.Database, migrations = sqliteMigrations): Promise<number[]> {
  return runMigrations(sqliteConnection(db), migrations);
}

export function assertSqliteMigrated(db: Database.Database, migrations = sqliteMigrations): Promise<void> {
  return assertMigrated(sqliteConnection(db), migrations);
}

/** On one pooled client, released after: the advisory lock is the transaction's. */
async function withClient<T>(pool: pg.Pool, work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

/** Applies the migrations this database does not have yet, in one transaction under the advisory lock; returns their versions. */
export function migratePostgres(pool: pg.Pool, migrations = postgresMigrations): Promise<number[]> {
  return withClient(pool, (client) => runMigrations(postgresConnection(client), migrations));
}

export function assertPostgresMigrated(pool: pg.Pool, migrations = postgresMigrations): Promise<void> {
  return withClient(pool, (client) => assertMigrated(postgresConnection(client), migrations));
}
