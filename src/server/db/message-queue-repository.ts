// The outbox's rows of every kind but a broadcast's (decision 052): queued, claimed with a lease by
// one sender (consent/outbox-sender.ts), and ended as sent, tried again later, failed or skipped.
// A person has at most one live row of each kind (the index outbox_one_live), so adding one that is
// there already adds nothing. Written once with Kysely for SQLite and PostgreSQL.
import type { ExpressionBuilder, Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import type { Database } from './database.js';
import type { Channel } from './message-channels.js';
import type { FailureKind, MessageState, QueuedKind } from './outbox.table.js';
import { isoOrNull } from './column-types.js';
import { ERROR_LENGTH } from './outbox-rows.js';
import { CHUNK, stamp, type QueryContext } from './sql-dialect.js';

/** A queued message, claimed by one sender until its lease ends. */
export interface QueuedMessage {
  id: number;
  kind: QueuedKind;
  signupId: string;
  /** Attempts so far, this one included. */
  attempts: number;
}

/** A row as it stands. */
export interface QueuedRow extends QueuedMessage {
  state: MessageState;
  nextAttemptAt: string | null;
  sentAt: string | null;
  error: string | null;
}

/** The states a row is live in: it will be (or is being) tried. */
export const LIVE_STATES = ['queued', 'sending', 'failed_temporary'] as const;

/**
 * For a select from signups: whether a confirmation email waits for the person (a live row), and
 * whether one was ever queued for them (both as the engine says true: 1 or true).
 */
export function confirmationColumns(eb: ExpressionBuilder<Database, 'signups'>) {
  const rows = (live: boolean) =>
    eb
      .selectFrom('outbox')
      .select('outbox.id')
      .where('outbox.kind', '=', 'confirmation')
      .whereRef('outbox.signup_id', '=', 'signups.id')
      .$if(live, (query) => query.where('outbox.state', 'in', LIVE_STATES));
  return [eb.exists(rows(true)).as('confirmation_waiting'), eb.exists(rows(false)).as('confirmation_queued')];
}

/**
 * Withdraws a person's live messages of `kind` (a "no" or a yes since made them pointless): skipped,
 * also one being sent, so a retry never brings it back. In the caller's transaction.
 */
export async function withdrawQueued(
  db: Kysely<Database> | Transaction<Database>,
  kind: QueuedKind,
  signupId: string,
  why: string,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ state: 'skipped', next_attempt_at: null, claimed_at: null, error: why })
    .where('kind', '=', kind)
    .where('signup_id', '=', signupId)
    .where('state', 'in', LIVE_STATES)
    .execute();
}

export class MessageQueueRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * Queues a message of `kind` for each of these people (ids of signups), due at once and in this
   * order; a person who has a live row of the kind keeps it. Returns how many were queued.
   */
  async add(kind: QueuedKind, channel: Channel, signupIds: string[]): Promise<number> {
    const at = stamp(this.context);
    let added = 0;
    for (let start = 0; start < signupIds.length; start += CHUNK) {
      const result = await this.context.db
        .insertInto('outbox')
        .values(
          signupIds.slice(start, start + CHUNK).map((signupId) => ({
            kind,
            signup_id: signupId,
            channel,
            state: 'queued' as const,
            attempts: 0,
            next_attempt_at: at,
          })),
        )
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return added;
  }

  /**
   * Queues a message of `kind` for each person `people` selects (ids of signups), due at once (or
   * at `dueAt`); a
   * person who has a live row of the kind keeps it, and with `once`, a person who ever had one gets
   * none (a message sent once in a lifetime). Returns how many were queued.
   */
  async addFrom(
    kind: QueuedKind,
    channel: Channel,
    people: SelectQueryBuilder<Database, 'signups', { id: string }>,
    { once = false, dueAt }: { once?: boolean; dueAt?: Date } = {},
  ): Promise<number> {
    const at = dueAt?.toISOString() ?? stamp(this.context);
    const result = await this.context.db
      .insertInto('outbox')
      .columns(['kind', 'signup_id', 'channel', 'state', 'attempts', 'next_attempt_at'])
      .expression(
        people
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('outbox')
                  .select('outbox.id')
                  .where('outbox.kind', '=', kind)
                  .whereRef('outbox.signup_id', '=', 'signups.id')
                  .$if(!once, (query) => query.where('outbox.state', 'in', LIVE_STATES)),
              ),
            ),
          )
          .clearSelect()
          .select((eb) => [
            eb.val(kind).as('kind'),
            'signups.id as signup_id',
            eb.val(channel).as('channel'),
            eb.val('queued').as('state'),
            eb.val(0).as('attempts'),
            eb.val(at).as('next_attempt_at'),
          ]),
      )
      // Another sender queued the same person meanwhile: theirs stands.
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  /**
   * Takes up to `limit` messages of `kind` that are due, for this sender alone: queued or to be tried
   * again, and those a sender took more than `leaseMs` ago and never finished (it died). On
   * PostgreSQL, rows another sender is taking are skipped, not waited for; on SQLite the one
   * statement is atomic.
   */
  async claim(kind: QueuedKind, limit: number, leaseMs: number): Promise<QueuedMessage[]> {
    const now = this.context.now();
    const at = now.toISOString();
    const leaseEnded = new Date(now.getTime() - leaseMs).toISOString();
    const due = this.context.db
      .selectFrom('outbox')
      .select('id')
      .where('kind', '=', kind)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', 'in', ['queued', 'failed_temporary']), eb('next_attempt_at', '<=', at)]),
          eb.and([eb('state', '=', 'sending'), eb('claimed_at', '<', leaseEnded)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .$if(this.context.dialect.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    const rows = await this.context.db
      .updateTable('outbox')
      .set((eb) => ({ state: 'sending', claimed_at: at, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      .returning(['id', 'signup_id', 'attempts'])
      .execute();
    return rows
      .map((row) => ({ id: Number(row.id), kind, signupId: String(row.signup_id), attempts: row.attempts }))
      .sort((a, b) => a.id - b.id);
  }

  /** Every row of `kind`, oldest first: where each message stands (the owner's view, and tests). */
  async rows(kind: QueuedKind): Promise<QueuedRow[]> {
    const rows = await this.context.db
      .selectFrom('outbox')
      .select(['id', 'signup_id', 'state', 'attempts', 'next_attempt_at', 'sent_at', 'error'])
      .where('kind', '=', kind)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      kind,
      signupId: String(row.signup_id),
      state: row.state,
      attempts: row.attempts,
      nextAttemptAt: isoOrNull(row.next_attempt_at),
      sentAt: isoOrNull(row.sent_at),
      error: row.error,
    }));
  }

  /** It went. */
  async sent(id: number): Promise<void> {
    await this.end(id, { state: 'sent', sent_at: stamp(this.context), error: null, failure_kind: null });
  }

  /**
   * Not now: tried again at `at`. `countAttempt: false` gives back the attempt the claim counted
   * (the reason was ours, or nothing was tried), so the person's back-off does not grow.
   */
  async later(id: number, at: Date, error: string | null, { countAttempt = true } = {}): Promise<void> {
    await this.context.db
      .updateTable('outbox')
      .set((eb) => ({
        state: error === null ? 'queued' : 'failed_temporary',
        next_attempt_at: at.toISOString(),
        error: error?.slice(0, ERROR_LENGTH) ?? null,
        claimed_at: null,
        ...(countAttempt
          ? {}
          : {
              attempts: eb
                .case()
                .when('attempts', '>', 0)
                .then(eb('attempts', '-', 1))
                .else(0)
                .end(),
            }),
      }))
      .where('id', '=', id)
      .where('state', '=', 'sending')
      .execute();
  }

  /** Refused for good, for a reason `kind` says whose (messaging/send-failure.ts): never tried again. */
  async failed(id: number, error: string, kind: FailureKind): Promise<void> {
    await this.end(id, { state: 'failed_permanent', error: error.slice(0, ERROR_LENGTH), failure_kind: kind });
  }

  /** No longer due (the person left, was deleted, or is asked otherwise): never tried. */
  async skipped(id: number, why: string): Promise<void> {
    await this.end(id, { state: 'skipped', error: why.slice(0, ERROR_LENGTH) });
  }

  private async end(
    id: number,
    set: Partial<Pick<Database['outbox'], 'sent_at' | 'error' | 'failure_kind'>> & {
      state: 'sent' | 'failed_permanent' | 'skipped';
    },
  ): Promise<void> {
    await this.context.db
      .updateTable('outbox')
      .set({ ...set, next_attempt_at: null, claimed_at: null })
      .where('id', '=', id)
      .where('state', '=', 'sending')
      .execute();
  }
}
