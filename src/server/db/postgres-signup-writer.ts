// Sign-ups into PostgreSQL, for more than one server instance: a batch of sign-ups per statement
// (one statement is one transaction), answered after commit.
import type pg from 'pg';
import type { AnalyticsEvent } from '../../shared/analytics-events.js';
import { newReferralCode } from '../../shared/referral.js';
import type { SignupInput } from '../../shared/signup-schema.js';
import { StoreUnavailableError } from './database-errors.js';
import { EventBuffer, rowsOf } from './event-buffer.js';
import type { EventRow } from './events-repository.js';
import { toSignupRow, type SignupRow } from './signup-row.js';
import {
  asksToConfirm,
  onRepeatSignup,
  OWN_CODE_IF_NEW,
  postgresUpsert,
  SIGNUP_CONSENT_EVENT,
} from './signup-upsert.js';
import type { SignupAdded, SignupVia, SignupWriter, SignupWriterOptions } from './signup-writer.js';

interface PendingAdd {
  row: SignupRow;
  resolve: (added: SignupAdded) => void;
  reject: (error: unknown) => void;
}

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
  ['referral_code', 'text'],
  ['language', 'text'],
] as const;

/**
 * The sign-up rules (signup-upsert.ts) in PostgreSQL's words. created_at and last_seen_at are the
 * database server's clock (spec section 3). The code of the link the visit came through is kept only if
 * someone on record has it; each person's own code comes back for a new record only.
 */
// A whole batch in one statement (one statement is one transaction), each sign-up with its line in
// the consent history and the confirmation email it asks for (queued in the outbox).
const UPSERT = `
  WITH input AS (
    SELECT * FROM unnest(${columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')},
      $${columns.length + 1}::boolean[], $${columns.length + 2}::text[], $${columns.length + 3}::text[],
      $${columns.length + 4}::text[])
      AS t(${columns.map(([name]) => name).join(', ')}, confirm, came_through, consent_source, evidence)
  ), upserted AS (
    INSERT INTO signups (${columns.map(([name]) => name).join(', ')}, referred_by)
    SELECT ${columns.map(([name]) => name).join(', ')},
      (SELECT referrer.referral_code FROM signups AS referrer WHERE referrer.referral_code = input.came_through)
    FROM input
    ${onRepeatSignup(postgresUpsert)}
    RETURNING id, email_key, ${OWN_CODE_IF_NEW}, left_at, email_opt_out_at, confirmed_at, confirm_sent_at
  ), consented AS (
    INSERT INTO consent_events (signup_id, kind, source, evidence, consent_version, created_at)
    SELECT upserted.id, '${SIGNUP_CONSENT_EVENT.kind}', input.consent_source, input.evidence, input.consent_version, now()
    FROM upserted JOIN input ON input.email_key = upserted.email_key
  ), asked AS (
    INSERT INTO outbox (kind, signup_id, channel, state, attempts, next_attempt_at)
    SELECT 'confirmation', upserted.id, 'email', 'queued', 0, now()
    FROM upserted JOIN input ON input.email_key = upserted.email_key
    WHERE input.confirm AND ${asksToConfirm({ row: (column) => `upserted.${column}`, dayBefore: `now() - interval '1 day'` })}
    ON CONFLICT DO NOTHING
  )
  SELECT email_key, referral_code FROM upserted`;

/** A batch of analytics events in one statement (one transaction); a null time is the database's clock. */
const INSERT_EVENTS = `
  INSERT INTO analytics_events (name, page_name, params, created_at)
  SELECT name, page_name, params, coalesce(created_at, now())
  FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::timestamptz[]) AS event(name, page_name, params, created_at)`;

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

export class PostgresSignupWriter implements SignupWriter {
  private pending: PendingAdd[] = [];
  private flushScheduled = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Events go on their own connection and statement, a few times a second at most, never in a sign-up's. */
  private readonly eventBuffer = new EventBuffer(() => this.track(this.writeEvents()));
  private writingEvents = false;
  private closed = false;

  private readonly newId: () => string;
  private readonly confirmSignups: boolean;

  constructor(
    private readonly pool: pg.Pool,
    { newId, confirmSignups }: SignupWriterOptions,
  ) {
    this.newId = newId;
    this.confirmSignups = confirmSignups;
  }

  add(input: SignupInput, via?: SignupVia): Promise<SignupAdded> {
    if (this.closed) return Promise.reject(new Error('The sign-up store is closed.'));
    return new Promise((resolve, reject) => {
      this.pending.push({ row: toSignupRow(input, via), resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.track(this.flush()));
      }
    });
  }

  recordEvents(events: AnalyticsEvent[], at?: Date): Promise<void> {
    return this.eventBuffer.record(events, at, this.closed);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Everything already accepted is written before the pool closes, events included.
    this.track(this.flush());
    this.eventBuffer.drain();
    this.track(this.writeEvents());
    await Promise.all(this.inFlight);
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

  /** Group commit, as in the SQLite writer: one statement for every sign-up of this turn of the event loop. */
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
      const codes = await this.upsert(adds.map((add) => add.row));
      for (const add of adds) add.resolve({ referralCode: codes.get(add.row.emailKey) ?? null });
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
        const codes = await this.upsert([add.row]);
        return add.resolve({ referralCode: codes.get(add.row.emailKey) ?? null });
      } catch (error) {
        // Concurrent first sign-ups of one email can race on the unique key: the retry updates instead.
        if (isPostgresUnavailable(error)) return add.reject(new StoreUnavailableError((error as Error).message));
        const retryable = isPrimaryKeyClash(error) || (error as { code?: string }).code === '23505';
        if (!retryable || attempt >= 2) return add.reject(error);
      }
    }
  }

  /** Writes the rows; each email's own link code. A taken id or link code fails it, to be tried again afresh. */
  private async upsert(rows: SignupRow[]): Promise<Map<string, string | null>> {
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
      rows.map(() => newReferralCode()),
      rows.map((row) => row.language),
      rows.map(() => this.confirmSignups),
      rows.map((row) => row.referredBy),
      rows.map((row) => row.consentSource),
      rows.map((row) => row.consentEvidence),
    ];
    const { rows: stored } = await this.pool.query<{ email_key: string; referral_code: string | null }>(UPSERT, values);
    return new Map(stored.map((row) => [row.email_key, row.referral_code]));
  }
}
