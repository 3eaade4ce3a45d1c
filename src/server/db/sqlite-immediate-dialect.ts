// Kysely's SQLite dialect with every transaction begun IMMEDIATE: it takes the write lock first, and
// waits for it (busy_timeout) while another process or the writer thread holds it. A deferred BEGIN
// that reads first is refused at once with SQLITE_BUSY when it then writes and someone committed in
// between (SQLite cannot wait there), so a deletion during a launch send would fail (issue 54, path 12).
// Its statements are prepared once and kept (Kysely's driver prepares each query anew, which cost a
// launch-day rush of confirmation emails a twentieth of the server's time).
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';

/** How many prepared statements are kept: more than the queries the product writes, so none is made twice. */
const KEPT_STATEMENTS = 500;

/**
 * The connection as Kysely sees it, each statement prepared once. A statement a streamed query is
 * still reading (`busy`) is not handed out again: that query gets a fresh one.
 */
export function keepingStatements(connection: BetterSqlite3.Database): SqliteDatabase {
  const kept = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => connection.close(),
    prepare(sql) {
      const statement = kept.get(sql);
      if (statement && !statement.busy) return statement;
      const made = connection.prepare(sql);
      if (!statement) {
        if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
        kept.set(sql, made);
      }
      return made;
    },
  };
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
