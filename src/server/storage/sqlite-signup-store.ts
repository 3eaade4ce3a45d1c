// Sign-ups in an SQLite file: WAL mode, synchronous=FULL, and group commit for bursts.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { SignupInput, SignupRecord } from '../../shared/signup-schema.js';
import type { SignupStore } from './signup-store.js';
import { sqliteMigrations, type Migration } from './sqlite-migrations.js';

interface SignupRow {
  id: string;
  name: string;
  phone: string;
  email: string;
  beta_testing: number;
  created_at: string;
}

interface PendingAdd {
  input: SignupInput;
  resolve: (record: SignupRecord) => void;
  reject: (error: unknown) => void;
}

const LIST_BATCH_SIZE = 1000;

function toRecord(row: SignupRow): SignupRecord {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    betaTesting: row.beta_testing === 1,
    timestamp: row.created_at,
  };
}

function isPrimaryKeyClash(error: unknown): boolean {
  return (error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Applies the migrations this file does not have yet, in one write transaction. */
export function migrateSqlite(db: Database.Database, migrations: Migration[] = sqliteMigrations): number[] {
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
      db.exec(migration.sql);
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

export interface SqliteSignupStoreOptions {
  /** Apply pending migrations on open (the server does; the owner's commands only check). */
  migrate?: boolean;
  /** Makes record ids; random UUIDs unless a test needs to force a clash. */
  newId?: () => string;
}

export class SqliteSignupStore implements SignupStore {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly insertBatch: (adds: PendingAdd[], records: SignupRecord[]) => void;
  private pending: PendingAdd[] = [];
  private flushScheduled = false;
  private closed = false;
  private readonly newId: () => string;

  constructor(file: string, { migrate = true, newId = randomUUID }: SqliteSignupStoreOptions = {}) {
    this.newId = newId;
    mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // FULL: every commit is synced to disk before we answer, so an acknowledged sign-up survives a power cut.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    if (migrate) migrateSqlite(this.db);
    else this.assertMigrated();
    this.insert = this.db.prepare(
      'INSERT INTO signups (id, name, phone, email, beta_testing, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.insertBatch = this.db.transaction((adds: PendingAdd[], records: SignupRecord[]) => {
      for (const add of adds) records.push(this.insertOne(add.input));
    });
  }

  add(input: SignupInput): Promise<SignupRecord> {
    if (this.closed) return Promise.reject(new Error('The sign-up store is closed.'));
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  async *list(): AsyncIterable<SignupRecord> {
    // rowid order is insertion order, so sign-ups within the same millisecond keep theirs too.
    const page = this.db.prepare(
      `SELECT rowid, * FROM signups WHERE rowid > ? ORDER BY rowid LIMIT ${LIST_BATCH_SIZE}`,
    );
    let after = 0;
    for (;;) {
      const rows = page.all(after) as (SignupRow & { rowid: number })[];
      for (const row of rows) yield toRecord(row);
      const last = rows.at(-1);
      if (!last || rows.length < LIST_BATCH_SIZE) return;
      after = last.rowid;
    }
  }

  async count(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM signups').get() as { n: number }).n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.flush();
    this.db.close();
  }

  private insertOne(input: SignupInput): SignupRecord {
    const record: SignupRecord = { id: this.newId(), ...input, timestamp: new Date().toISOString() };
    this.insert.run(record.id, record.name, record.phone, record.email, record.betaTesting ? 1 : 0, record.timestamp);
    return record;
  }

  /**
   * Group commit: every sign-up that arrived in the same turn of the event loop is written in one
   * transaction, so a burst costs one disk sync instead of one each. Each promise settles only
   * after that commit. If the batch fails, each sign-up is retried on its own, so one bad row
   * cannot fail its neighbours.
   */
  private flush(): void {
    this.flushScheduled = false;
    const adds = this.pending;
    this.pending = [];
    if (adds.length === 0) return;
    const records: SignupRecord[] = [];
    try {
      this.insertBatch(adds, records);
      adds.forEach((add, index) => add.resolve(records[index] as SignupRecord));
    } catch {
      for (const add of adds) this.addAlone(add);
    }
  }

  private addAlone(add: PendingAdd): void {
    try {
      add.resolve(this.insertOne(add.input));
    } catch (error) {
      // A random 122-bit id clashing is next to impossible, but an existing record is never overwritten.
      if (!isPrimaryKeyClash(error)) return add.reject(error);
      try {
        add.resolve(this.insertOne(add.input));
      } catch (retryError) {
        add.reject(retryError);
      }
    }
  }

  private assertMigrated(): void {
    const table = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'signups'").get() as
      { name: string } | undefined;
    if (!table) {
      throw new Error('The database has no signups table yet: start the server once (npm start) to create it.');
    }
  }
}
