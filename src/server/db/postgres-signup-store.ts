// Sign-ups in PostgreSQL, for more than one server instance: batched upserts, answered after commit.
import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { AnalyticsEvent } from '../../shared/analytics-events.js';
import type { SignupInput, SignupRecord } from '../../shared/signup-schema.js';
import { EventBuffer, rowsOf } from './event-buffer.js';
import { funnelDayFromColumns, funnelQuery, type StoredFunnelColumns } from './funnel-sql.js';
import { assertPostgresMigrated, migratePostgres } from './migrate.js';
import {
  dayAfter,
  firstDay,
  NO_CAMPAIGN,
  recordFromColumns,
  StoreUnavailableError,
  toEventRow,
  toSignupRow,
  type EventRow,
  type FunnelDay,
  type FunnelOptions,
  type SignupFilter,
  type SignupRow,
  type StoredSignupColumns,
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

/** PostgreSQL's rows carry `seq`, the insertion order the export follows. */
interface StoredRow extends StoredSignupColumns {
  seq: string;
}

interface PendingAdd {
  row: SignupRow;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const LIST_BATCH_SIZE = 1000;

const columns = [
  ['id', 'uuid'],
  ['name', 'text'],
  ['phone', 'text'],
  ['email', 'text'],
  ['email_key', 'text'],
  ['beta_testing', 'boolean'],
  ['utm_source', 'text'],
  ['utm_medium', 'text'],
  ['utm_campaign', 'text'],
  ['utm_term', 'text'],
  ['utm_content', 'text'],
  ['referrer', 'text'],
  ['landing_path', 'text'],
  ['button', 'text'],
  ['source', 'text'],
  ['consent_version', 'text'],
] as const;

// One statement for new and repeated emails alike (the first record is kept), so both take the
// same path and time. created_at and last_seen_at are the database server's clock (spec section 3).
// A repeat sign-up is new consent: it lifts earlier opt-outs and leaving, and someone who had left or
// turned email off confirms again (anyone can type an address, so only its owner may undo their
// "no"). It asks for a confirmation email unless the person is confirmed, one is already waiting, or
// one went out in the last day; someone coming back after leaving or turning email off is asked
// whenever they come back (as in sqlite-shared.ts). Each sign-up adds its line to the consent history in the same
// statement (one statement is one transaction).
const UPSERT = `
  WITH input AS (
    SELECT * FROM unnest(${columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')},
      $${columns.length + 1}::boolean[]) AS t(${columns.map(([name]) => name).join(', ')}, confirm)
  ), upserted AS (
    INSERT INTO signups (${columns.map(([name]) => name).join(', ')}, confirm_requested_at)
    SELECT ${columns.map(([name]) => name).join(', ')}, CASE WHEN confirm THEN now() END FROM input
    ON CONFLICT (email_key) DO UPDATE SET
      beta_testing = signups.beta_testing OR excluded.beta_testing,
      last_seen_at = now(),
      signup_count = signups.signup_count + 1,
      left_at = NULL,
      email_opt_out_at = NULL,
      sms_opt_out_at = NULL,
      confirmed_at = CASE WHEN signups.left_at IS NULL AND signups.email_opt_out_at IS NULL
        THEN signups.confirmed_at END,
      confirm_requested_at = CASE
        WHEN excluded.confirm_requested_at IS NULL THEN signups.confirm_requested_at
        WHEN signups.confirmed_at IS NOT NULL AND signups.left_at IS NULL AND signups.email_opt_out_at IS NULL
          THEN signups.confirm_requested_at
        WHEN signups.confirm_requested_at IS NOT NULL THEN signups.confirm_requested_at
        WHEN signups.left_at IS NOT NULL
          OR signups.email_opt_out_at IS NOT NULL
          OR signups.confirm_sent_at IS NULL
          OR signups.confirm_sent_at < now() - interval '1 day'
          THEN excluded.confirm_requested_at
      END
    RETURNING id, email_key
  )
  INSERT INTO consent_events (signup_id, kind, source, consent_version, created_at)
  SELECT upserted.id, 'signed_up', 'signup_form', input.consent_version, now()
  FROM upserted JOIN input ON input.email_key = upserted.email_key`;

/** A batch of analytics events in one statement (one transaction); a null time is the database's clock. */
const INSERT_EVENTS = `
  INSERT INTO analytics_events (name, page_name, params, created_at)
  SELECT name, page_name, params, coalesce(created_at, now())
  FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::timestamptz[]) AS event(name, page_name, params, created_at)`;

/** The funnel's query in PostgreSQL's words: days are taken in UTC, whatever the session's time zone. */
const FUNNEL_SQL = funnelQuery({
  day: `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  param: (name) => `(params ->> '${name}')`,
  window: `created_at >= ($1::date)::timestamp AT TIME ZONE 'UTC' AND created_at < ($2::date)::timestamp AT TIME ZONE 'UTC'`,
});

/** Errors that mean "PostgreSQL cannot be reached or cannot take writes now", not "this sign-up is wrong". */
export function isPostgresUnavailable(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  if (code && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|EPIPE|EAI_AGAIN)$/.test(code)) return true;
  // SQLSTATE 08: connection exceptions; 57P0x: the server is shutting down or starting; 53: out of resources.
  if (code && /^(08|57P0|53)/.test(code)) return true;
  return /timeout exceeded when trying to connect|Connection terminated|connection failure|Client has encountered a connection error/i.test(
    message ?? '',
  );
}

function isPrimaryKeyClash(error: unknown): boolean {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === '23505' && constraint === 'signups_pkey';
}

/**
 * Answer 201 only after the commit is on disk, whatever the server's default says: every
 * connection starts with synchronous_commit on (added to any options the URL already has).
 */
export function withSynchronousCommit(connectionString: string): string {
  const url = new URL(connectionString);
  const options = url.searchParams.get('options');
  url.searchParams.set('options', `${options ? `${options} ` : ''}-c synchronous_commit=on`);
  return url.toString();
}

export interface PostgresSignupStoreOptions extends SignupStoreOptions {
  /** Connections in the pool (PG_POOL_SIZE). */
  poolSize?: number;
  newId?: () => string;
}

export class PostgresSignupStore implements Db {
  readonly engine = 'postgres' as const;
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
  private pending: PendingAdd[] = [];
  private flushScheduled = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Events go on their own connection and statement, a few times a second at most, never in a sign-up's. */
  private readonly eventBuffer = new EventBuffer(() => this.track(this.writeEvents()));
  private writingEvents = false;
  private closed = false;
  readonly consent: ConsentRepository;
  readonly outbox: OutboxRepository;
  readonly owners: OwnerRepository;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly newId: () => string,
    private readonly confirmSignups: boolean,
    now: () => Date,
  ) {
    const kysely = new Kysely<MessagingTables>({ dialect: new PostgresDialect({ pool }) });
    this.consent = new ConsentRepository(kysely, 'postgres', { now });
    this.outbox = new OutboxRepository(kysely as unknown as Kysely<BroadcastTables>, 'postgres', { now });
    this.owners = new OwnerRepository(kysely as unknown as Kysely<OwnerTables>, 'postgres', now);
  }

  static async open(
    connectionString: string,
    {
      migrate = true,
      poolSize = 10,
      newId = randomUUID,
      confirmSignups = false,
      now = () => new Date(),
    }: PostgresSignupStoreOptions = {},
  ): Promise<PostgresSignupStore> {
    const pool = new pg.Pool({
      connectionString: withSynchronousCommit(connectionString),
      max: poolSize,
      connectionTimeoutMillis: 2000, // an unreachable database is answered with 503 quickly
    });
    // An idle connection that drops (a database restart) must not crash the process.
    pool.on('error', () => undefined);
    try {
      if (migrate) await migratePostgres(pool);
      else await assertPostgresMigrated(pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresSignupStore(pool, newId, confirmSignups, now);
  }

  add(input: SignupInput): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The sign-up store is closed.'));
    return new Promise((resolve, reject) => {
      this.pending.push({ row: toSignupRow(input), resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.track(this.flush()));
      }
    });
  }

  recordEvents(events: AnalyticsEvent[], at?: Date): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The sign-up store is closed.'));
    if (events.length === 0) return Promise.resolve();
    return this.eventBuffer.add(events.map((event) => toEventRow(event, at)));
  }

  async *list(filter: SignupFilter = {}): AsyncIterable<SignupRecord> {
    const conditions = ['seq > $1'];
    const values: unknown[] = [0];
    if (filter.since) {
      values.push(filter.since);
      conditions.push(`created_at >= $${values.length}`);
    }
    if (filter.betaOnly) conditions.push('beta_testing');
    const sql = `SELECT * FROM signups WHERE ${conditions.join(' AND ')} ORDER BY seq LIMIT ${LIST_BATCH_SIZE}`;
    for (;;) {
      const { rows } = await this.pool.query<StoredRow>(sql, values);
      for (const row of rows) yield recordFromColumns(row);
      const last = rows.at(-1);
      if (!last || rows.length < LIST_BATCH_SIZE) return;
      values[0] = last.seq;
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 FROM signups LIMIT 1');
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM signups');
    return Number(rows[0]?.n ?? 0);
  }

  async stats({ days, top, now = new Date() }: StatsOptions): Promise<SignupStats> {
    const counted = (rows: { label: string; count: string }[]) =>
      rows.map((row) => ({ label: row.label, count: Number(row.count) }));
    const [totals, byDay, topSources, topCampaigns] = await Promise.all([
      this.pool.query<{ total: string; submissions: string; beta: string; confirmed: string }>(
        `SELECT count(*) AS total, coalesce(sum(signup_count), 0) AS submissions,
                count(*) FILTER (WHERE beta_testing) AS beta, count(confirmed_at) AS confirmed FROM signups`,
      ),
      this.pool.query<{ label: string; count: string }>(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS label, count(*) AS count FROM signups
         WHERE created_at >= ($1::date)::timestamp AT TIME ZONE 'UTC' GROUP BY label ORDER BY label`,
        [firstDay(now, days)],
      ),
      this.pool.query<{ label: string; count: string }>(
        'SELECT source AS label, count(*) AS count FROM signups GROUP BY source ORDER BY count DESC, label LIMIT $1',
        [top],
      ),
      this.pool.query<{ label: string; count: string }>(
        `SELECT coalesce(utm_campaign, '${NO_CAMPAIGN}') AS label, count(*) AS count FROM signups
         GROUP BY label ORDER BY count DESC, label LIMIT $1`,
        [top],
      ),
    ]);
    const total = totals.rows[0];
    return {
      total: Number(total?.total ?? 0),
      submissions: Number(total?.submissions ?? 0),
      betaTesting: Number(total?.beta ?? 0),
      confirmed: Number(total?.confirmed ?? 0),
      byDay: counted(byDay.rows),
      topSources: counted(topSources.rows),
      topCampaigns: counted(topCampaigns.rows),
    };
  }

  async funnel({ days, now = new Date() }: FunnelOptions): Promise<FunnelDay[]> {
    const { rows } = await this.pool.query<StoredFunnelColumns>(FUNNEL_SQL, [firstDay(now, days), dayAfter(now)]);
    return rows.map(funnelDayFromColumns);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Everything already accepted is written before the pool closes, events included.
    this.track(this.flush());
    this.eventBuffer.drain();
    this.track(this.writeEvents());
    await Promise.all(this.inFlight);
    await this.pool.end();
  }

  /** Writes due events, one batch after another, on one connection at a time. */
  private async writeEvents(): Promise<void> {
    if (this.writingEvents) return; // the loop already running picks them up
    this.writingEvents = true;
    try {
      while (this.eventBuffer.due) {
        const calls = this.eventBuffer.take();
        try {
          await this.insertEvents(rowsOf(calls));
          for (const call of calls) call.resolve();
        } catch (error) {
          const failure = isPostgresUnavailable(error) ? new StoreUnavailableError((error as Error).message) : error;
          for (const call of calls) call.reject(failure);
        }
      }
    } finally {
      this.writingEvents = false;
    }
  }

  private async insertEvents(rows: EventRow[]): Promise<void> {
    await this.pool.query(INSERT_EVENTS, [
      rows.map((row) => row.name),
      rows.map((row) => row.pageName),
      rows.map((row) => row.params),
      rows.map((row) => row.createdAt),
    ]);
  }

  private track(flush: Promise<void>): void {
    this.inFlight.add(flush);
    void flush.finally(() => this.inFlight.delete(flush));
  }

  /** Group commit, as in the SQLite store: one statement for every sign-up of this turn of the event loop. */
  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const adds = this.pending;
    this.pending = [];
    if (adds.length === 0) return;
    await this.writeBatch(adds);
  }

  private async writeBatch(adds: PendingAdd[]): Promise<void> {
    try {
      // One statement is one transaction: when it returns, every row of the batch is committed.
      await this.upsert(adds.map((add) => add.row));
      for (const add of adds) add.resolve();
    } catch (error) {
      if (isPostgresUnavailable(error)) {
        const failure = new StoreUnavailableError((error as Error).message);
        for (const add of adds) add.reject(failure);
        return;
      }
      // The same email twice in one batch: the first of each email as one batch, the repeats after
      // it (a burst of hundreds stays a few statements, not hundreds queued for the pool).
      const seen = new Set<string>();
      const firsts: PendingAdd[] = [];
      const repeats: PendingAdd[] = [];
      for (const add of adds) {
        (seen.has(add.row.emailKey) ? repeats : firsts).push(add);
        seen.add(add.row.emailKey);
      }
      if (repeats.length > 0) {
        await this.writeBatch(firsts);
        await this.writeBatch(repeats);
        return;
      }
      // An id clash or another failure: each sign-up on its own.
      await Promise.all(adds.map((add) => this.addAlone(add)));
    }
  }

  private async addAlone(add: PendingAdd): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.upsert([add.row]);
        return add.resolve();
      } catch (error) {
        // Concurrent first sign-ups of one email can race on the unique key: the retry updates instead.
        if (isPostgresUnavailable(error)) return add.reject(new StoreUnavailableError((error as Error).message));
        const retryable = isPrimaryKeyClash(error) || (error as { code?: string }).code === '23505';
        if (!retryable || attempt >= 2) return add.reject(error);
      }
    }
  }

  private async upsert(rows: SignupRow[]): Promise<void> {
    const ids = rows.map(() => this.newId());
    const values = [
      ids,
      rows.map((row) => row.name),
      rows.map((row) => row.phone),
      rows.map((row) => row.email),
      rows.map((row) => row.emailKey),
      rows.map((row) => row.betaTesting),
      rows.map((row) => row.utmSource),
      rows.map((row) => row.utmMedium),
      rows.map((row) => row.utmCampaign),
      rows.map((row) => row.utmTerm),
      rows.map((row) => row.utmContent),
      rows.map((row) => row.referrer),
      rows.map((row) => row.landingPath),
      rows.map((row) => row.button),
      rows.map((row) => row.source),
      rows.map((row) => row.consentVersion),
      rows.map(() => this.confirmSignups),
    ];
    await this.pool.query(UPSERT, values);
  }
}
