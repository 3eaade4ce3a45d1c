// Sign-ups in an SQLite file: WAL mode, synchronous=FULL, and group commit for bursts.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { SignupButton, SignupInput, SignupRecord } from '../../shared/signup-schema.js';
import {
  firstDay,
  NO_CAMPAIGN,
  NotMigratedError,
  toSignupRow,
  type SignupFilter,
  type SignupStats,
  type SignupStore,
  type StatsOptions,
} from './signup-store.js';
import { sqliteMigrations, type SqliteMigration } from './sqlite-migrations.js';

interface StoredRow {
  rowid: number;
  id: string;
  name: string;
  phone: string;
  email: string;
  beta_testing: number;
  created_at: string;
  last_seen_at: string;
  signup_count: number;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  referrer: string | null;
  landing_path: string | null;
  button: string | null;
  consent_version: string | null;
}

interface PendingAdd {
  input: SignupInput;
  resolve: (record: SignupRecord) => void;
  reject: (error: unknown) => void;
}

const LIST_BATCH_SIZE = 1000;

function toRecord(row: StoredRow): SignupRecord {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    betaTesting: row.beta_testing === 1,
    timestamp: row.created_at,
    lastSeenAt: row.last_seen_at,
    signupCount: row.signup_count,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    utmTerm: row.utm_term,
    utmContent: row.utm_content,
    referrer: row.referrer,
    landingPath: row.landing_path,
    button: row.button as SignupButton | null,
    consentVersion: row.consent_version,
  };
}

function isPrimaryKeyClash(error: unknown): boolean {
  return (error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Applies the migrations this file does not have yet, in one write transaction; returns their versions. */
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

export interface SqliteSignupStoreOptions {
  /** Apply pending migrations on open (the server does; the owner's commands only check). */
  migrate?: boolean;
  /** Makes record ids; random UUIDs unless a test needs to force a clash. */
  newId?: () => string;
  /** The clock; the real one unless a test needs another day. */
  now?: () => Date;
}

export class SqliteSignupStore implements SignupStore {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;
  private readonly upsertBatch: (adds: PendingAdd[], records: SignupRecord[]) => void;
  private readonly newId: () => string;
  private readonly now: () => Date;
  private pending: PendingAdd[] = [];
  private flushScheduled = false;
  private closed = false;

  constructor(
    file: string,
    { migrate = true, newId = randomUUID, now = () => new Date() }: SqliteSignupStoreOptions = {},
  ) {
    this.newId = newId;
    this.now = now;
    if (migrate) mkdirSync(path.dirname(file), { recursive: true });
    // The owner's commands must not create an empty database where they expected one.
    this.db = new Database(file, { fileMustExist: !migrate });
    this.db.pragma('journal_mode = WAL');
    // FULL: every commit is synced to disk before we answer, so an acknowledged sign-up survives a power cut.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    if (migrate) migrateSqlite(this.db);
    else if (!this.hasCurrentSchema()) throw new NotMigratedError();
    // One statement for new and repeated emails alike, so both take the same path and time.
    this.upsert = this.db.prepare(`
      INSERT INTO signups (id, name, phone, email, email_key, beta_testing, created_at, last_seen_at, signup_count,
        utm_source, utm_medium, utm_campaign, utm_term, utm_content, referrer, landing_path, button, source, consent_version)
      VALUES (@id, @name, @phone, @email, @emailKey, @betaTesting, @now, @now, 1,
        @utmSource, @utmMedium, @utmCampaign, @utmTerm, @utmContent, @referrer, @landingPath, @button, @source, @consentVersion)
      ON CONFLICT (email_key) DO UPDATE SET
        beta_testing = max(beta_testing, excluded.beta_testing),
        last_seen_at = excluded.last_seen_at,
        signup_count = signup_count + 1
      RETURNING rowid, *`);
    this.upsertBatch = this.db.transaction((adds: PendingAdd[], records: SignupRecord[]) => {
      for (const add of adds) records.push(this.upsertOne(add.input));
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

  async *list(filter: SignupFilter = {}): AsyncIterable<SignupRecord> {
    // rowid order is insertion order, so sign-ups within the same millisecond keep theirs too.
    const conditions = ['rowid > @after'];
    if (filter.since) conditions.push('created_at >= @since');
    if (filter.betaOnly) conditions.push('beta_testing = 1');
    const page = this.db.prepare(
      `SELECT rowid, * FROM signups WHERE ${conditions.join(' AND ')} ORDER BY rowid LIMIT ${LIST_BATCH_SIZE}`,
    );
    const since = filter.since?.toISOString();
    let after = 0;
    for (;;) {
      const rows = page.all({ after, ...(since ? { since } : {}) }) as StoredRow[];
      for (const row of rows) yield toRecord(row);
      const last = rows.at(-1);
      if (!last || rows.length < LIST_BATCH_SIZE) return;
      after = last.rowid;
    }
  }

  async count(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM signups').get() as { n: number }).n;
  }

  async stats({ days, top, now = this.now() }: StatsOptions): Promise<SignupStats> {
    const totals = this.db
      .prepare(
        'SELECT count(*) AS total, coalesce(sum(signup_count), 0) AS submissions, coalesce(sum(beta_testing), 0) AS beta FROM signups',
      )
      .get() as { total: number; submissions: number; beta: number };
    const byDay = this.db
      .prepare(
        `SELECT substr(created_at, 1, 10) AS label, count(*) AS count FROM signups
         WHERE created_at >= ? GROUP BY label ORDER BY label`,
      )
      .all(firstDay(now, days)) as { label: string; count: number }[];
    const topSources = this.db
      .prepare(
        'SELECT source AS label, count(*) AS count FROM signups GROUP BY source ORDER BY count DESC, label LIMIT ?',
      )
      .all(top) as { label: string; count: number }[];
    const topCampaigns = this.db
      .prepare(
        `SELECT coalesce(utm_campaign, '${NO_CAMPAIGN}') AS label, count(*) AS count FROM signups
         GROUP BY label ORDER BY count DESC, label LIMIT ?`,
      )
      .all(top) as { label: string; count: number }[];
    return {
      total: totals.total,
      submissions: totals.submissions,
      betaTesting: totals.beta,
      byDay,
      topSources,
      topCampaigns,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.flush();
    this.db.close();
  }

  private upsertOne(input: SignupInput): SignupRecord {
    const row = toSignupRow(input);
    const stored = this.upsert.get({
      ...row,
      id: this.newId(),
      betaTesting: row.betaTesting ? 1 : 0,
      now: this.now().toISOString(),
    }) as StoredRow;
    return toRecord(stored);
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
      this.upsertBatch(adds, records);
      adds.forEach((add, index) => add.resolve(records[index] as SignupRecord));
    } catch {
      for (const add of adds) this.addAlone(add);
    }
  }

  private addAlone(add: PendingAdd): void {
    try {
      add.resolve(this.upsertOne(add.input));
    } catch (error) {
      // A random 122-bit id clashing is next to impossible, but an existing record is never overwritten.
      if (!isPrimaryKeyClash(error)) return add.reject(error);
      try {
        add.resolve(this.upsertOne(add.input));
      } catch (retryError) {
        add.reject(retryError);
      }
    }
  }

  private hasCurrentSchema(): boolean {
    const latest = Math.max(...sqliteMigrations.map((migration) => migration.version));
    try {
      const row = this.db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as {
        version: number | null;
      };
      return row.version !== null && row.version >= latest;
    } catch {
      return false; // no schema_migrations table at all
    }
  }
}
