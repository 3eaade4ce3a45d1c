// The outbox: one row per broadcast, person and channel (unique), written once with Kysely for
// SQLite and PostgreSQL (decision 023). A sender claims rows by moving them to 'sending' under its own
// id (FOR UPDATE SKIP LOCKED on PostgreSQL, so senders never take the same row); a row still
// 'sending' when its sender died may or may not have gone out: 'unknown'.
import { OutboxReads } from './outbox-reads.js';
import { TEXT_WAIT_REASONS, type MessageState } from './outbox.table.js';
import { ERROR_LENGTH, type ClaimedMessage, type FailureMarks, type Outcome } from './outbox-rows.js';
import type { Channel } from './message-channels.js';
import { caseBy, flag, stamp, type CaseType, type CaseValue } from './sql-dialect.js';

export class OutboxRepository extends OutboxReads {
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
   * Takes up to `limit` messages of this channel that are due, for this sender alone. On PostgreSQL
   * rows another sender is taking are skipped, not waited for; on SQLite the one statement is atomic.
   */
  async claim(broadcastId: number, channel: Channel, senderId: string, limit: number): Promise<ClaimedMessage[]> {
    const at = stamp(this.context);
    const due = this.context.db
      .selectFrom('outbox')
      .select('id')
      .where('broadcast_id', '=', broadcastId)
      .where('channel', '=', channel)
      .where('state', 'in', ['queued', 'failed_temporary'])
      .where('next_attempt_at', '<=', at)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .$if(this.context.dialect.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    const rows = await this.context.db
      .updateTable('outbox')
      .set((eb) => ({
        state: 'sending',
        claimed_by: senderId,
        claimed_at: at,
        attempts: eb('attempts', '+', 1),
        waiting_for: null,
      }))
      .where('id', 'in', due)
      .returning(['id', 'signup_id', 'channel', 'attempts', 'pause_mark'])
      .execute();
    return rows
      .map((row) => ({
        id: Number(row.id),
        signupId: String(row.signup_id),
        channel: row.channel,
        attempts: row.attempts,
        ...(row.pause_mark === 'paused_the_channel' ? { pausedTheChannel: true } : {}),
      }))
      .sort((a, b) => a.id - b.id);
  }

  /**
   * Records what became of claimed messages, in one transaction with one statement per kind of
   * outcome. Only rows this sender still holds change ('sending', or 'unknown' if it was wrongly
   * taken for dead: what it knows beats "unknown").
   */
  async record(senderId: string, outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const at = stamp(this.context);
    const byResult = <R extends Outcome['result']>(result: R) =>
      outcomes.filter((outcome): outcome is Extract<Outcome, { result: R }> => outcome.result === result);
    await this.context.db.transaction().execute(async (trx) => {
      const mine = (ids: number[]) =>
        trx
          .updateTable('outbox')
          .where('id', 'in', ids)
          .where('claimed_by', '=', senderId)
          .where('state', 'in', ['sending', 'unknown']);
      const sent = byResult('sent');
      if (sent.length > 0)
        await mine(sent.map((outcome) => outcome.id))
          .set(() => ({
            state: 'sent',
            sent_at: at,
            next_attempt_at: null,
            error: null,
            ...this.noMarks(),
          }))
          .execute();
      // The message log learns the same in the same transaction: left, and the provider's id (its one home).
      const logged = sent.filter((outcome) => outcome.token);
      if (logged.length > 0)
        await trx
          .updateTable('sent_messages')
          .set(() => ({
            state: 'sent',
            state_at: at,
            provider_id: caseBy(
              this.context,
              'token',
              logged.map((outcome) => [outcome.token ?? '', outcome.providerId.slice(0, ERROR_LENGTH)]),
            ),
          }))
          .where(
            'token',
            'in',
            logged.map((outcome) => outcome.token ?? ''),
          )
          .where('state', '=', 'sending')
          .execute();
      const temporary = byResult('temporary');
      if (temporary.length > 0)
        await mine(temporary.map((outcome) => outcome.id))
          .set(() => ({
            state: 'failed_temporary',
            next_attempt_at: this.caseById(
              temporary.map((outcome) => [outcome.id, outcome.retryAt ? outcome.retryAt.toISOString() : null]),
              'timestamptz',
            ),
            error: this.caseById(temporary.map((outcome) => [outcome.id, outcome.error.slice(0, ERROR_LENGTH)])),
            failure_kind: this.caseById(temporary.map((outcome) => [outcome.id, outcome.kind])) as never,
            ...this.marks(temporary),
          }))
          .execute();
      const requeue = byResult('requeue');
      if (requeue.length > 0)
        // Not this person's failure: the attempt does not count, and the row waits in the queue.
        await mine(requeue.map((outcome) => outcome.id))
          .set((eb) => ({
            state: 'queued',
            attempts: eb('attempts', '-', 1),
            next_attempt_at: at,
            claimed_by: null,
            error: this.caseById(requeue.map((outcome) => [outcome.id, outcome.error.slice(0, ERROR_LENGTH)])),
            failure_kind: this.caseById(requeue.map((outcome) => [outcome.id, outcome.kind])) as never,
            ...this.marks(requeue),
          }))
          .execute();
      const untried = [...requeue, ...byResult('wait')].flatMap((outcome) => (outcome.token ? [outcome.token] : []));
      if (untried.length > 0)
        await trx.deleteFrom('sent_messages').where('token', 'in', untried).where('state', '=', 'sending').execute();
      // Back in the queue untried, to be claimed once it may go: the attempt does not count.
      for (const why of TEXT_WAIT_REASONS) {
        const waits = byResult('wait').filter((outcome) => outcome.why === why);
        if (waits.length === 0) continue;
        await mine(waits.map((outcome) => outcome.id))
          .set((eb) => ({
            state: 'queued',
            attempts: eb('attempts', '-', 1),
            next_attempt_at: this.caseById(
              waits.map((outcome) => [outcome.id, outcome.until.toISOString()]),
              'timestamptz',
            ),
            claimed_by: null,
            waiting_for: why,
          }))
          .execute();
      }
      for (const result of ['permanent', 'skipped'] as const) {
        const group = byResult(result);
        if (group.length === 0) continue;
        await mine(group.map((outcome) => outcome.id))
          .set(() => ({
            state: result === 'permanent' ? 'failed_permanent' : 'skipped',
            next_attempt_at: null,
            error: this.caseById(group.map((outcome) => [outcome.id, outcome.error.slice(0, ERROR_LENGTH)])),
            failure_kind: result === 'permanent' ? 'recipient' : null,
            ...this.noMarks(),
          }))
          .execute();
      }
    });
  }

  /** No pause mark and not refused: what a row is once its failure is over (sent, queued again, failed for good). */
  private noMarks() {
    return { pause_mark: null, refused_for_our_sending: flag(this.context, false) };
  }

  /** Each failure's pause mark and refused flag, written beside its answer (a new failure clears the old ones). */
  private marks(outcomes: ({ id: number } & FailureMarks)[]) {
    return {
      pause_mark: this.caseById(outcomes.map((outcome) => [outcome.id, outcome.mark ?? null])) as never,
      refused_for_our_sending: this.caseById(
        outcomes.map((outcome) => [outcome.id, flag(this.context, outcome.refused === true)]),
        'boolean',
      ) as never,
    };
  }

  private caseById(pairs: [number, CaseValue][], type: CaseType = 'text') {
    return caseBy(this.context, 'id', pairs, type);
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
