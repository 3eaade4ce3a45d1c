// Kysely's SQLite dialect with every transaction begun IMMEDIATE: it takes the write lock first, and
// waits for it (busy_timeout) while another process or the writer thread holds it. A deferred BEGIN
// that reads first is refused at once with SQLITE_BUSY when it then writes and someone committed in
// between (SQLite cannot wait there), so a deletion during a launch send would fail (issue 54, path 12).
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

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
