// Sign-ups in an SQLite file: WAL mode, synchronous=FULL, and group commit for bursts.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { AnalyticsEvent } from '../../shared/analytics-events.js';
import type { SignupInput, SignupRecord } from '../../shared/signup-schema.js';
import { EventBuffer, rowsOf, type PendingEvents } from './event-buffer.js';
import { funnelDayFromColumns, funnelQuery, type StoredFunnelColumns } from './funnel-sql.js';
import {
  dayAfter,
  firstDay,
  NO_CAMPAIGN,
  recordFromColumns,
  StoreUnavailableError,
  toEventRow,
  toSignupRow,
  type FunnelDay,
  type FunnelOptions,
  type SignupFilter,
  type SignupStats,
  type Db,
  type EventsRepository,
  type SignupsRepository,
  type SignupStoreOptions,
  type StatsOptions,
} from './signup-store.js';
import { OutboxRepository, type BroadcastTables } from './outbox-repository.js';
import { ConsentRepository, type MessagingTables } from './consent-repository.js';
import { OwnerRepository, type OwnerTables } from './owner-repository.js';
import { assertSqliteMigrated, migrateSqlite } from './migrate.js';
import {
  isSqliteUnavailable,
  openSqlite,
  type EventWriterRequest,
  type EventWriterResult,
  type EventWriterRow,
  type StoredSqliteRow,
  type WriterRequest,
  type WriterResult,
  type WriterRow,
} from './sqlite-shared.js';

type StoredRow = StoredSqliteRow;

interface PendingAdd {
  row: WriterRow;
  /** Id clashes met so far: the row is retried with a fresh id, a couple of times at most. */
  clashes: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const LIST_BATCH_SIZE = 1000;

/** The funnel's query in SQLite's words: times are ISO 8601 text, so a day is their first ten characters. */
const FUNNEL_SQL = funnelQuery({
  day: 'substr(created_at, 1, 10)',
  param: (name) => `(params -> '$.${name}')`,
  window: 'created_at >= @from AND created_at < @to',
});

/** The writer thread: compiled JavaScript in production; in tests, run from the TypeScript source through tsx. */
function startWriter(file: string): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./sqlite-writer.js', import.meta.url), { workerData: { file } });
  const source = JSON.stringify(new URL('./sqlite-writer.ts', import.meta.url).href);
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); })`;
  return new Worker(boot, { eval: true, workerData: { file } });
}

export interface SqliteSignupStoreOptions extends SignupStoreOptions {
  /** Makes record ids; random UUIDs unless a test needs to force a clash. */
  newId?: () => string;
}

/**
 * Reads happen on a connection in the main thread; writes go to a writer thread (started on the
 * first write), so the event loop keeps serving requests while a commit is synced to disk.
 * Sign-ups that arrive while a batch is being written form the next batch: group commit.
 * Analytics events share the writer but not the transactions: they wait a moment to be written
 * together, and take a turn only when no sign-up waits, or every other batch while some do.
 */
export class SqliteSignupStore implements Db {
  readonly engine = 'sqlite' as const;
  readonly signups: SignupsRepository = {
    add: (input) => this.add(input),
    list: (filter) => this.list(filter),
    count: () => this.count(),
    stats: (options) => this.stats(options),
  };
  readonly events: EventsRepository = {
    record: (events, at) => this.recordEvents(events, at),
    funnel: (options) => this.funnel(options),
  };
  private readonly db: Database.Database;
  private readonly newId: () => string;
  private readonly now: () => Date;
  private readonly confirmSignups: boolean;
  readonly consent: ConsentRepository;
  readonly outbox: OutboxRepository;
  readonly owners: OwnerRepository;
  private writer: Worker | undefined;
  private pending: PendingAdd[] = [];
  private readonly inFlight = new Map<number, PendingAdd[]>();
  private readonly eventBuffer = new EventBuffer(() => this.flush());
  private readonly eventsInFlight = new Map<number, PendingEvents[]>();
  private lastSent: 'signups' | 'events' | undefined;
  private nextBatch = 1;
  private flushScheduled = false;
  private closed = false;
  private drained: (() => void) | undefined;

  constructor(
    private readonly file: string,
    {
      migrate = true,
      newId = randomUUID,
      now = () => new Date(),
      confirmSignups = false,
    }: SqliteSignupStoreOptions = {},
  ) {
    this.newId = newId;
    this.now = now;
    this.confirmSignups = confirmSignups;
    if (migrate) mkdirSync(path.dirname(file), { recursive: true });
    // The owner's commands must not create an empty database where they expected one.
    this.db = openSqlite(file, { fileMustExist: !migrate });
    if (migrate) migrateSqlite(this.db);
    else assertSqliteMigrated(this.db);
    // Messaging's reads and its few writes go through this thread's connection; sign-ups through the writer's.
    // One Kysely (one connection queue) for both, so their transactions never interleave.
    const kysely = new Kysely<MessagingTables>({ dialect: new SqliteDialect({ database: this.db }) });
    this.consent = new ConsentRepository(kysely, 'sqlite', { now });
    this.outbox = new OutboxRepository(kysely as unknown as Kysely<BroadcastTables>, 'sqlite', { now });
    this.owners = new OwnerRepository(kysely as unknown as Kysely<OwnerTables>, 'sqlite', now);
  }

  add(input: SignupInput): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The sign-up store is closed.'));
    const signup = toSignupRow(input);
    const now = this.now().toISOString();
    // In WRITER_COLUMNS order.
    const row: WriterRow = [
      this.newId(),
      signup.name,
      signup.phone,
      signup.email,
      signup.emailKey,
      signup.betaTesting ? 1 : 0,
      now,
      now,
      signup.utmSource,
      signup.utmMedium,
      signup.utmCampaign,
      signup.utmTerm,
      signup.utmContent,
      signup.referrer,
      signup.landingPath,
      signup.button,
      signup.source,
      signup.consentVersion,
      this.confirmSignups ? now : null,
    ];
    return new Promise((resolve, reject) => {
      this.pending.push({ row, clashes: 0, resolve, reject });
      this.scheduleFlush();
    });
  }

  recordEvents(events: AnalyticsEvent[], at?: Date): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The sign-up store is closed.'));
    if (events.length === 0) return Promise.resolve();
    return this.eventBuffer.add(events.map((event) => toEventRow(event, at)));
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
      for (const row of rows) yield recordFromColumns(row);
      const last = rows.at(-1);
      if (!last || rows.length < LIST_BATCH_SIZE) return;
      after = last.rowid;
    }
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1 FROM signups LIMIT 1').get();
  }

  async count(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM signups').get() as { n: number }).n;
  }

  async stats({ days, top, now = this.now() }: StatsOptions): Promise<SignupStats> {
    const totals = this.db
      .prepare(
        `SELECT count(*) AS total, coalesce(sum(signup_count), 0) AS submissions, coalesce(sum(beta_testing), 0) AS beta,
                count(confirmed_at) AS confirmed FROM signups`,
      )
      .get() as { total: number; submissions: number; beta: number; confirmed: number };
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
      confirmed: totals.confirmed,
      byDay,
      topSources,
      topCampaigns,
    };
  }

  async funnel({ days, now = this.now() }: FunnelOptions): Promise<FunnelDay[]> {
    const rows = this.db.prepare(FUNNEL_SQL).all({ from: firstDay(now, days), to: dayAfter(now) });
    return (rows as StoredFunnelColumns[]).map(funnelDayFromColumns);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Everything already accepted is written before the store closes, events included.
    this.eventBuffer.drain();
    while (this.pending.length > 0 || this.inFlight.size > 0 || !this.eventBuffer.empty || this.eventsInFlight.size > 0) {
      await new Promise<void>((resolve) => {
        this.drained = resolve;
        this.flush();
      });
    }
    if (this.writer) {
      const exited = new Promise((resolve) => this.writer?.once('exit', resolve));
      this.writer.postMessage({ close: true });
      await exited;
    }
    this.db.close();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /**
   * Sends what is waiting as one batch, unless a batch is still being written (it then goes next).
   * Events that are due go when no sign-up waits, or after a sign-up batch: a sign-up waits for at
   * most one short event transaction, and events are not held back for long by a stream of sign-ups.
   */
  private flush(): void {
    if (this.inFlight.size > 0 || this.eventsInFlight.size > 0) return;
    if (this.eventBuffer.due && (this.pending.length === 0 || this.lastSent === 'signups')) return this.sendEvents();
    if (this.pending.length > 0) return this.sendSignups();
    this.drained?.();
  }

  private sendSignups(): void {
    const batch = this.nextBatch++;
    const adds = this.pending;
    this.pending = [];
    this.inFlight.set(batch, adds);
    this.lastSent = 'signups';
    this.writer ??= this.startWriter();
    this.writer.postMessage({ batch, rows: JSON.stringify(adds.map((add) => add.row)) } satisfies WriterRequest);
  }

  private sendEvents(): void {
    const batch = this.nextBatch++;
    const calls = this.eventBuffer.take();
    this.eventsInFlight.set(batch, calls);
    this.lastSent = 'events';
    const rows = rowsOf(calls).map((row): EventWriterRow => [row.name, row.pageName, row.params, row.createdAt]);
    this.writer ??= this.startWriter();
    this.writer.postMessage({ batch, events: JSON.stringify(rows) } satisfies EventWriterRequest);
  }

  private startWriter(): Worker {
    const writer = startWriter(this.file);
    writer.on('message', (result: WriterResult | EventWriterResult) =>
      'events' in result ? this.settleEvents(result) : this.settle(result),
    );
    writer.on('error', (error) => {
      // The thread died: what it held fails (the callers get an error, not a false "saved"), and
      // the next sign-up starts a new thread.
      for (const adds of this.inFlight.values()) for (const add of adds) add.reject(error);
      for (const calls of this.eventsInFlight.values()) for (const call of calls) call.reject(error);
      this.inFlight.clear();
      this.eventsInFlight.clear();
      this.writer = undefined;
      this.flush();
    });
    return writer;
  }

  private settleEvents({ batch, events }: EventWriterResult): void {
    const calls = this.eventsInFlight.get(batch) ?? [];
    this.eventsInFlight.delete(batch);
    const failure =
      events === 'ok'
        ? undefined
        : isSqliteUnavailable(events.code)
          ? new StoreUnavailableError(events.message)
          : new Error(events.message);
    for (const call of calls) {
      if (failure) call.reject(failure);
      else call.resolve();
    }
    this.flush();
  }

  private settle({ batch, results }: WriterResult): void {
    const adds = this.inFlight.get(batch) ?? [];
    this.inFlight.delete(batch);
    adds.forEach((add, index) => {
      const result = results === 'all' ? ({ ok: true } as const) : results[index];
      if (result?.ok) return add.resolve();
      // A random 122-bit id clashing is next to impossible, but an existing record is never overwritten.
      if (result && !result.ok && result.idClash && add.clashes < 2) {
        this.pending.push({ ...add, row: [this.newId(), ...add.row.slice(1)], clashes: add.clashes + 1 });
        return;
      }
      if (result && !result.ok && isSqliteUnavailable(result.code))
        return add.reject(new StoreUnavailableError(result.message));
      add.reject(new Error(result && !result.ok ? result.message : 'The sign-up was not written.'));
    });
    this.flush();
  }
}
