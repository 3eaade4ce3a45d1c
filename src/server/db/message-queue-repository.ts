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
import { markSent, type SendOutcomeIds } from './sent-messages-repository.js';
import { CHUNK, stamp, type QueryContext } from './sql-dialect.js';

/** How long a message sent while the person waits may take before a new one is not held up by it. */
export const SEND_NOW_LEASE_MS = 5 * 60_000;

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

/** What became of one claimed message, for `record`. */
export type QueuedOutcome =
  /** `logged`: its record in the message log, marked sent in the same transaction. */
  | { id: number; result: 'sent'; logged?: Omit<SendOutcomeIds, 'state'> | undefined }
  /** Tried again at `at`; `error` null when nothing was tried; `countAttempt: false` gives the claim's attempt back. */
  | { id: number; result: 'later'; at: Date; error: string | null; countAttempt?: boolean }
  | { id: number; result: 'failed'; error: string; failureKind: FailureKind }
  | { id: number; result: 'skipped'; why: string };

/** The states a row that went may be in when its send is recorded: held, or withdrawn meanwhile. */
const WENT_FROM = ['sending', 'skipped'] as const;

/** The states a row is live in: it will be (or is being) tried. */
export const LIVE_STATES = ['queued', 'sending', 'failed_temporary'] as const;

// Every query on the other kinds' rows says `broadcast_id IS NULL`: the term their partial indexes
// (outbox_kind_due, outbox_person) are made on, which SQLite's planner needs to see to use them.

/** In a query on signups: the person's rows of `kind` (only the live ones with `live`), for EXISTS. */
export function rowsOfPerson(eb: ExpressionBuilder<Database, 'signups'>, kind: QueuedKind, live: boolean) {
  return eb
    .selectFrom('outbox')
    .select('outbox.id')
    .where('outbox.broadcast_id', 'is', null)
    .whereRef('outbox.signup_id', '=', 'signups.id')
    .where('outbox.kind', '=', kind)
    .$if(live, (query) => query.where('outbox.state', 'in', LIVE_STATES));
}

/**
 * For a select from signups: whether a confirmation email waits for the person (a live row), and
 * whether one was ever queued for them (both as the engine says true: 1 or true).
 */
export function confirmationColumns(eb: ExpressionBuilder<Database, 'signups'>) {
  const rows = (live: boolean) => rowsOfPerson(eb, 'confirmation', live);
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
    .where('broadcast_id', 'is', null)
    .where('signup_id', '=', signupId)
    .where('kind', '=', kind)
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
   * Queues a message of `kind` for each person `people` selects (ids of signups), due at once (or at
   * `dueAt`); a person who has a live row of the kind keeps it, and with `once`, a person who ever
   * had one gets none (a message sent once in a lifetime). Returns how many were queued.
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
          // A person with a live row of the kind keeps it; with `once`, one who ever had one gets none.
          .where((eb) => eb.not(eb.exists(rowsOfPerson(eb, kind, !once))))
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
   * again, and those a sender took more than `leaseMs` ago and never finished (it died). A claim moves
   * the row's due time to the lease's end, so one index range finds both. On PostgreSQL, rows another
   * sender is taking are skipped, not waited for; on SQLite the one statement is atomic.
   */
  async claim(kind: QueuedKind, limit: number, leaseMs: number): Promise<QueuedMessage[]> {
    const now = this.context.now();
    const at = now.toISOString();
    const due = this.context.db
      .selectFrom('outbox')
      .select('id')
      .where('broadcast_id', 'is', null)
      .where('kind', '=', kind)
      .where('next_attempt_at', '<=', at)
      .where('state', 'in', LIVE_STATES)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .$if(this.context.dialect.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    const rows = await this.context.db
      .updateTable('outbox')
      .set((eb) => ({
        state: 'sending',
        claimed_at: at,
        next_attempt_at: new Date(now.getTime() + leaseMs).toISOString(),
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', due)
      .returning(['id', 'signup_id', 'attempts'])
      .execute();
    return rows
      .map((row) => ({ id: Number(row.id), kind, signupId: String(row.signup_id), attempts: row.attempts }))
      .sort((a, b) => a.id - b.id);
  }

  /**
   * A message sent at once, while the person waits (the emailed button): its row, already held by
   * this sender. Undefined when one of the kind is being sent to the person this moment.
   */
  begin(
    kind: QueuedKind,
    channel: Channel,
    signupId: string,
    leaseMs = SEND_NOW_LEASE_MS,
  ): Promise<number | undefined> {
    return this.beginNow(kind, channel, { signup_id: signupId, owner_id: null }, leaseMs);
  }

  /**
   * An owner's sign-in email, sent at once (owner/sign-in-mailer.ts): its row names the owner.
   * Undefined while another is being sent to them.
   */
  beginOwnerSignIn(ownerId: number, leaseMs = SEND_NOW_LEASE_MS): Promise<number | undefined> {
    return this.beginNow('owner_sign_in', 'email', { signup_id: null, owner_id: ownerId }, leaseMs);
  }

  private async beginNow(
    kind: QueuedKind | 'owner_sign_in',
    channel: Channel,
    to: { signup_id: string; owner_id: null } | { signup_id: null; owner_id: number },
    leaseMs: number,
  ): Promise<number | undefined> {
    const now = this.context.now();
    const at = now.toISOString();
    // One whose server stopped mid-send (no sender comes back for it) ends, so it holds nobody up.
    await this.context.db
      .updateTable('outbox')
      .set({ state: 'skipped', next_attempt_at: null, error: 'its sender stopped while sending it' })
      .where('broadcast_id', 'is', null)
      .$if(to.signup_id !== null, (query) => query.where('signup_id', '=', to.signup_id))
      .$if(to.owner_id !== null, (query) => query.where('owner_id', '=', to.owner_id))
      .where('kind', '=', kind)
      .where('state', '=', 'sending')
      .where('claimed_at', '<', new Date(now.getTime() - leaseMs).toISOString())
      .execute();
    const row = await this.context.db
      .insertInto('outbox')
      .values({ kind, ...to, channel, state: 'sending', attempts: 1, claimed_at: at, next_attempt_at: at })
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  /** Every row of `kind`, oldest first: where each message stands (the owner's view, and tests). */
  async rows(kind: QueuedKind): Promise<QueuedRow[]> {
    const rows = await this.context.db
      .selectFrom('outbox')
      .select(['id', 'signup_id', 'state', 'attempts', 'next_attempt_at', 'sent_at', 'error'])
      .where('broadcast_id', 'is', null)
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

  /**
   * Records what became of claimed messages, in one transaction (one commit for a wave of sends).
   * A message that went is recorded sent even if a "no" withdrew it while it was going (it did go);
   * any other outcome changes only rows still held ('sending'): a row withdrawn or taken by another
   * sender meanwhile keeps what that said. A confirmation that went is the person's fact too (confirm_sent_at: what
   * the deletion and the reminder count from), written in the same transaction.
   */
  async record(outcomes: QueuedOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const at = stamp(this.context);
    await this.context.db.transaction().execute(async (trx) => {
      const held = (ids: number[]) => trx.updateTable('outbox').where('id', 'in', ids).where('state', '=', 'sending');
      const sent = outcomes.filter((outcome) => outcome.result === 'sent').map((outcome) => outcome.id);
      if (sent.length > 0) {
        await trx
          .updateTable('signups')
          .set({ confirm_sent_at: at })
          .where(
            'id',
            'in',
            trx
              .selectFrom('outbox')
              .select('signup_id')
              .where('id', 'in', sent)
              .where('kind', '=', 'confirmation')
              .where('state', 'in', WENT_FROM),
          )
          .execute();
        await trx
          .updateTable('outbox')
          .where('id', 'in', sent)
          .where('state', 'in', WENT_FROM)
          .set({ state: 'sent', sent_at: at, error: null, failure_kind: null, next_attempt_at: null, claimed_at: null })
          .execute();
        // The message log learns the same in the same write: they left, with the provider's ids.
        const logged = outcomes.flatMap((outcome) =>
          outcome.result === 'sent' && outcome.logged ? [{ ...outcome.logged, state: 'sent' as const }] : [],
        );
        if (logged.length > 0) await markSent(trx, this.context, logged);
      }
      for (const outcome of outcomes) {
        if (outcome.result === 'later')
          await held([outcome.id])
            .set((eb) => ({
              state: outcome.error === null ? 'queued' : 'failed_temporary',
              next_attempt_at: outcome.at.toISOString(),
              error: outcome.error?.slice(0, ERROR_LENGTH) ?? null,
              claimed_at: null,
              ...(outcome.countAttempt === false
                ? {
                    attempts: eb
                      .case()
                      .when('attempts', '>', 0)
                      .then(eb('attempts', '-', 1))
                      .else(0)
                      .end(),
                  }
                : {}),
            }))
            .execute();
        // Failed for good or skipped: it ends here, with its reason, never tried again.
        if (outcome.result === 'failed' || outcome.result === 'skipped')
          await held([outcome.id])
            .set({
              ...(outcome.result === 'failed'
                ? { state: 'failed_permanent', failure_kind: outcome.failureKind }
                : { state: 'skipped' }),
              error: (outcome.result === 'failed' ? outcome.error : outcome.why).slice(0, ERROR_LENGTH),
              next_attempt_at: null,
              claimed_at: null,
            })
            .execute();
      }
    });
  }

  /** It went. */
  sent(id: number): Promise<void> {
    return this.record([{ id, result: 'sent' }]);
  }

  /**
   * Not now: tried again at `at`. `countAttempt: false` gives back the attempt the claim counted
   * (the reason was ours, or nothing was tried), so the person's back-off does not grow.
   */
  later(id: number, at: Date, error: string | null, { countAttempt = true } = {}): Promise<void> {
    return this.record([{ id, result: 'later', at, error, countAttempt }]);
  }

  /** Refused for good, for a reason `failureKind` says whose (messaging/send-failure.ts): never tried again. */
  failed(id: number, error: string, failureKind: FailureKind): Promise<void> {
    return this.record([{ id, result: 'failed', error, failureKind }]);
  }

  /** No longer due (the person left, was deleted, or is asked otherwise): never tried. */
  skipped(id: number, why: string): Promise<void> {
    return this.record([{ id, result: 'skipped', why }]);
  }
}
