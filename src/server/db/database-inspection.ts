// What a database holds, read without changing it: its tables and their rows, its migrations, and
// (SQLite) its integrity. For the live database (db:check, db:restore) and an SQLite backup file.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { migrateSqlite, type MigrationInfo } from './migrate.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { BackupError } from './database-errors.js';

export interface TableRows {
  table: string;
  rows: number;
}

export interface LiveDatabase {
  /** False for an SQLite file that is not there yet (the server creates it). */
  exists: boolean;
  tables: TableRows[];
  /** schema_migrations, or undefined when the database has none (nothing set up yet). */
  recorded: MigrationInfo[] | undefined;
  /** SQLite's integrity_check ("ok" when all is well); PostgreSQL checks its own pages. */
  integrity?: string[];
  /** PostgreSQL: the schema the tables are in (current_schema(), public unless DATABASE_URL chose another). */
  schema?: string;
}

export function readLiveDatabase(database: DatabaseConfig, { integrity = false } = {}): Promise<LiveDatabase> {
  return database.kind === 'sqlite'
    ? Promise.resolve(readSqlite(database.file, integrity))
    : readPostgres(database.url);
}

/** An SQLite database's tables with their rows, and its schema_migrations (undefined when it has none). */
export function sqliteTables(db: Database.Database): { tables: TableRows[]; recorded: MigrationInfo[] | undefined } {
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const tables = names.map((table) => ({
    table,
    rows: Number(
      db
        .prepare(`SELECT count(*) FROM "${table.replaceAll('"', '""')}"`)
        .pluck()
        .get(),
    ),
  }));
  const recorded = names.includes('schema_migrations')
    ? (db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as MigrationInfo[])
    : undefined;
  return { tables, recorded };
}

/** One entry of an SQLite schema: a table, index, view or trigger, and the SQL that made it. */
export interface SqliteSchemaEntry {
  type: string;
  name: string;
  sql: string;
}

/** Every entry of an SQLite schema but SQLite's own (sqlite_sequence, sqlite_stat1 …), by name. */
export function sqliteSchema(db: Database.Database): SqliteSchemaEntry[] {
  return (
    db
      .prepare(
        "SELECT type, name, coalesce(sql, '') AS sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name",
      )
      .all() as SqliteSchemaEntry[]
  ).map((entry) => ({ ...entry, sql: entry.sql.replace(/\s+/g, ' ').trim() }));
}

/** What this product's SQLite migrations up to `version` make: a fresh database migrated that far, read. */
export async function migratedSqliteSchema(version: number): Promise<SqliteSchemaEntry[]> {
  const fresh = new Database(':memory:');
  try {
    await migrateSqlite(
      fresh,
      sqliteMigrations.filter((migration) => migration.version <= version),
    );
    return sqliteSchema(fresh);
  } finally {
    fresh.close();
  }
}

/** An SQLite file opened read-only (a backup): its integrity_check, tables, schema and migrations; errors keep SQLite's code. */
export function readSqliteFile(
  file: string,
): Required<Pick<LiveDatabase, 'integrity'>> & Omit<LiveDatabase, 'exists'> & { entries: SqliteSchemaEntry[] } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
    if (integrity.length !== 1 || integrity[0] !== 'ok')
      return { integrity, tables: [], recorded: undefined, entries: [] };
    return { integrity, ...sqliteTables(db), entries: sqliteSchema(db) };
  } finally {
    db.close();
  }
}

function readSqlite(file: string, integrity: boolean): LiveDatabase {
  if (!existsSync(file)) return { exists: false, tables: [], recorded: undefined };
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`Could not open the SQLite file ${file}: ${(error as Error).message}.`);
  }
  try {
    db.pragma('busy_timeout = 5000');
    const problems = integrity
      ? (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check)
      : undefined;
    const { tables, recorded } = sqliteTables(db);
    return { exists: true, tables, recorded, ...(problems ? { integrity: problems } : {}) };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The SQLite file ${file} cannot be read: ${(error as Error).message}.`);
  } finally {
    db.close();
  }
}

/** Opens one PostgreSQL connection for `work`, with the failures a person can act on said plainly. */
export async function withPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(
      `Could not reach PostgreSQL: ${(error as Error).message}. Is it running, and is DATABASE_URL right?`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The tables in the connection's schema, each with its rows (in the transaction the caller may hold). */
export async function postgresTables(client: pg.Client, schema: string): Promise<TableRows[]> {
  const names = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name",
    [schema],
  );
  const tables: TableRows[] = [];
  for (const { table_name: table } of names.rows) {
    const { rows } = await client.query<{ count: string }>(
      `SELECT count(*) AS count FROM ${client.escapeIdentifier(schema)}.${client.escapeIdentifier(table)}`,
    );
    tables.push({ table, rows: Number(rows[0]?.count) });
  }
  return tables;
}

/** The schema unqualified names land in; a search_path naming no schema that exists is the owner's to fix. */
export async function currentSchema(client: pg.Client): Promise<string> {
  const schema = (await client.query<{ schema: string | null }>('SELECT current_schema() AS schema')).rows[0]?.schema;
  if (!schema) throw new BackupError('PostgreSQL has no schema for the tables: check the search_path in DATABASE_URL.');
  return schema;
}

function readPostgres(url: string): Promise<LiveDatabase> {
  return withPostgres(url, async (client) => {
    const schema = await currentSchema(client);
    const tables = await postgresTables(client, schema);
    const recorded = tables.some((table) => table.table === 'schema_migrations')
      ? (
          await client.query<MigrationInfo>(
            `SELECT version, name FROM ${client.escapeIdentifier(schema)}.schema_migrations ORDER BY version`,
          )
        ).rows
      : undefined;
    return { exists: true, tables, recorded, schema };
  });
}
