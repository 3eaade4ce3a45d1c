// Whether a server has this database open, so a restore never writes under a running one (decision
// 041). SQLite: every open connection holds a lock on the file (WAL's shared memory), so a connection
// that asks for an exclusive lock is refused while any other is open. PostgreSQL: each server holds a
// shared advisory lock, keyed to the schema its tables are in, for as long as it runs; a restore takes
// the same key exclusively and holds it while it works, so no server starts in the middle either.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { BackupError } from './database-errors.js';
import { currentSchema } from './database-inspection.js';

/** The advisory lock's key for the schema the connection's tables are in. */
const IN_USE_KEY = `hashtext('scamsavvy.in-use:' || current_schema())`;

/** What to tell the owner: stop the server, then try again. */
function inUse(where: string): BackupError {
  return new BackupError(
    `The server (or another program) is using ${where}. Stop it first (on the server docs/production.md sets up: sudo systemctl stop scamsavvy), then run db:restore again, and start the server after.`,
  );
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * Held by a running server (PostgreSQL; SQLite needs nothing: its connections are the lock). Returns
 * what lets it go at shutdown.
 */
export async function holdDatabaseInUse(database: DatabaseConfig): Promise<() => Promise<void>> {
  if (database.kind === 'sqlite') return async () => undefined;
  const client = await connect(database.url);
  await client.query(`SELECT pg_advisory_lock_shared(${IN_USE_KEY})`);
  return async () => {
    await client.end().catch(() => undefined);
  };
}

/**
 * Refuses (a BackupError saying how to stop the server) while anything else has the database open;
 * otherwise returns what releases the claim (PostgreSQL: the exclusive lock, held while restoring).
 */
export async function claimDatabaseForRestore(database: DatabaseConfig): Promise<() => Promise<void>> {
  if (database.kind === 'sqlite') {
    if (!existsSync(database.file)) return async () => undefined;
    const db = new Database(database.file, { fileMustExist: true, timeout: 200 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      db.exec('COMMIT');
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) throw inUse(database.file);
      throw error;
    } finally {
      db.close();
    }
    return async () => undefined;
  }
  const client = await connect(database.url);
  const schema = await currentSchema(client);
  const taken = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${IN_USE_KEY}) AS ok`);
  if (!taken.rows[0]?.ok) {
    await client.end().catch(() => undefined);
    throw inUse(`the PostgreSQL schema "${schema}"`);
  }
  return async () => {
    await client.end().catch(() => undefined);
  };
}
