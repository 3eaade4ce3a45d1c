// Several repositories' writes as one transaction, written once for both engines: one commit (on
// SQLite one sync to disk) instead of one each. SQLite's begins IMMEDIATE: it takes the write lock
// first, so a transaction that reads before it writes is never refused with SQLITE_BUSY because the
// sign-up writer thread committed in between (a deferred one would be).
import { sql, type Kysely } from 'kysely';
import type { Engine } from './column-types.js';
import type { Database } from './database.js';

/** Runs `work` on one transaction: all of its writes kept, or none when it throws. */
export async function oneTransaction<T>(
  kysely: Kysely<Database>,
  engine: Engine,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (engine === 'postgres') return kysely.transaction().execute(work);
  // The main connection is held throughout: the server's other queries on it wait their turn.
  return kysely.connection().execute(async (connection) => {
    await sql`BEGIN IMMEDIATE`.execute(connection);
    let result: T;
    try {
      result = await work(connection);
    } catch (error) {
      // SQLite may have rolled back already (a full disk): nothing left to undo then.
      await sql`ROLLBACK`.execute(connection).catch(() => undefined);
      throw error;
    }
    await sql`COMMIT`.execute(connection);
    return result;
  });
}
