// After a deletion, the bytes go too: on SQLite secure_delete (sqlite-shared.ts) zeroes the freed
// content in the new pages, but the write-ahead log still holds the pages as they were until it is
// checkpointed; a TRUNCATE checkpoint copies it into the file and empties it (issue 54, path 11).
import { sql } from 'kysely';
import type { QueryContext } from './sql-dialect.js';

/** Empties SQLite's write-ahead log into the file; on PostgreSQL, nothing (its files are not ours to read). */
export async function eraseFromLog(context: Pick<QueryContext, 'db' | 'dialect'>): Promise<void> {
  if (context.dialect.engine !== 'sqlite') return;
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(context.db);
}
