// The outbox's rows of every kind but a broadcast's (decision 052): queued here, or begun here when
// sent at once while the person waits; claimed with a lease and ended by the one claim and record
// (outbox-claims.ts). A person has at most one live row of each kind (the index outbox_one_live), so
// adding one that is there already adds nothing. Written once with Kysely for SQLite and PostgreSQL.
import type { ExpressionBuilder, Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import type { Database } from './database.js';
import type { Channel } from './message-channels.js';
import type { MessageState, QueuedKind } from './outbox.table.js';
import { isoOrNull } from './column-types.js';
import { LIVE_STATES } from './outbox-claims.js';
import { CHUNK, stamp, type QueryContext } from './sql-dialect.js';

/** A row of one of these kinds as it stands. */
export interface QueuedRow {
  id: number;
  kind: QueuedKind;
  signupId: string;
  attempts: number;
  state: MessageState;
  nextAttemptAt: string | null;
  sentAt: string | null;
  error: string | null;
}

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
}
