// The outbox: a broadcast's rows, one per broadcast, person and channel (unique), written once with
// Kysely for SQLite and PostgreSQL (decision 023): queued, and queued again by the owner's retry.
// Every kind's rows are claimed and recorded by the one claim and record (outbox-claims.ts); a row
// still 'sending' when its broadcast's sender died may or may not have gone out: 'unknown'.
import { OutboxClaims } from './outbox-claims.js';
import type { MessageState } from './outbox.table.js';
import type { Channel } from './message-channels.js';
import { stamp } from './sql-dialect.js';

export class OutboxRepository extends OutboxClaims {
  /** Adds these people to the outbox; those already in it are left as they are. Returns how many were added. */
  async enqueue(broadcastId: number, rows: { signupId: string; channel: Channel }[]): Promise<number> {
    if (rows.length === 0) return 0;
    const at = stamp(this.context);
    const result = await this.context.db
      .insertInto('outbox')
      .values(
        rows.map((row) => ({
          broadcast_id: broadcastId,
          signup_id: row.signupId,
          channel: row.channel,
          state: 'queued' as const,
          attempts: 0,
          next_attempt_at: at,
        })),
      )
      .onConflict((conflict) => conflict.columns(['broadcast_id', 'signup_id', 'channel']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  /**
   * Failed messages back in the queue, as if never tried (only rows still failed: never one that
   * was sent, skipped or is unknown). Returns how many.
   */
  requeueFailed(broadcastId: number, ids: number[]): Promise<number> {
    return this.requeue(broadcastId, ids, ['failed_temporary', 'failed_permanent']);
  }

  /** These rows, if still in one of `from`, back in the queue as if never tried. Returns how many. */
  private async requeue(broadcastId: number, ids: number[], from: MessageState[]): Promise<number> {
    let count = 0;
    const at = stamp(this.context);
    for (let start = 0; start < ids.length; start += 500) {
      const result = await this.context.db
        .updateTable('outbox')
        .set({
          state: 'queued',
          next_attempt_at: at,
          attempts: 0,
          error: null,
          failure_kind: null,
          ...this.noMarks(),
          claimed_by: null,
        })
        .where('broadcast_id', '=', broadcastId)
        .where('id', 'in', ids.slice(start, start + 500))
        .where('state', 'in', from)
        .executeTakeFirst();
      count += Number(result.numUpdatedRows);
    }
    return count;
  }

  /**
   * One person's messages in a broadcast that has not finished, made sure to be waiting: added when
   * missing, queued again when the senders skipped them (they may be reached now). Never one that
   * was sent, is being sent, or failed. Returns how many it queued.
   */
  async ensureQueued(broadcastId: number, rows: { signupId: string; channel: Channel }[]): Promise<number> {
    if (rows.length === 0) return 0;
    const added = await this.enqueue(broadcastId, rows);
    const skipped = await this.context.db
      .selectFrom('outbox')
      .select(['id', 'signup_id', 'channel'])
      .where('broadcast_id', '=', broadcastId)
      .where('signup_id', 'in', [...new Set(rows.map((row) => row.signupId))])
      .where('state', '=', 'skipped')
      .execute();
    const wanted = new Set(rows.map((row) => `${row.signupId} ${row.channel}`));
    const ids = skipped.filter((row) => wanted.has(`${row.signup_id} ${row.channel}`)).map((row) => Number(row.id));
    return added + (await this.requeue(broadcastId, ids, ['skipped']));
  }

  /**
   * Messages recorded as sent that a report later said never arrived (bounced, undeliverable), for
   * the owner's `retry` after lifting a suppression that was our fault: back in the queue.
   */
  requeueSent(broadcastId: number, ids: number[]): Promise<number> {
    return this.requeue(broadcastId, ids, ['sent']);
  }

  /** The owner's "send them anyway": unknown rows go back in the queue. Returns how many. */
  async requeueUnknown(broadcastId: number): Promise<number> {
    const result = await this.context.db
      .updateTable('outbox')
      .set({
        state: 'queued',
        next_attempt_at: stamp(this.context),
        error: null,
        ...this.noMarks(),
      })
      .where('broadcast_id', '=', broadcastId)
      .where('state', '=', 'unknown')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
