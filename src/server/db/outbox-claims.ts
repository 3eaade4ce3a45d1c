// The one claim and the one record of the outbox (issue 54, decision 057): every message the product
// sends, of every kind, is taken by one sender with `claim` and ended with `record`, here and nowhere
// else. What differs between kinds is their lane: a broadcast's rows are claimed per broadcast and
// channel and held while their sender's heartbeat lasts (a dead sender's rows become 'unknown', never
// sent twice: broadcast-senders-repository.ts); every other kind's rows are claimed per kind under a
// lease, and a row whose lease ran out is taken again. Written once with Kysely for SQLite and
// PostgreSQL.
import type { ExpressionBuilder, Transaction } from 'kysely';
import type { Database } from './database.js';
import { OutboxReads } from './outbox-reads.js';
import type { QueuedKind } from './outbox.table.js';
import { TEXT_WAIT_REASONS } from './outbox.table.js';
import { ERROR_LENGTH, type ClaimedMessage, type FailureMarks, type Outcome } from './outbox-rows.js';
import { personChannel, type Channel } from './message-channels.js';
import { markSent } from './sent-messages-repository.js';
import { caseBy, flag, stamp, type CaseType, type CaseValue } from './sql-dialect.js';

/**
 * Which rows a sender takes: a broadcast's on one channel, or one kind's, each claim held for
 * `leaseMs` (then another sender may take it: the one that held it died).
 */
export type Lane = { broadcastId: number; channel: Channel } | { kind: QueuedKind; leaseMs: number };

/** A claimed webhook delivery (issue 56): the outbox row, its endpoint and its event. */
export interface WebhookClaim {
  id: number;
  endpointId: number;
  eventId: number;
  /** Attempts so far, this one included. */
  attempts: number;
}

/** How long a message sent while the person waits may take before a new one is not held up by it. */
export const SEND_NOW_LEASE_MS = 5 * 60_000;

/**
 * Who holds a row sent at once, while the person waits (`begin`): its sender records it under this
 * name.
 */
export const SENT_AT_ONCE = 'sent at once';

/** The states a row is live in: it will be (or is being) tried. */
export const LIVE_STATES = ['queued', 'sending', 'failed_temporary'] as const;

/** The states a held row is in: 'unknown' when its sender was wrongly taken for dead (what it knows beats "unknown"). */
const HELD = ['sending', 'unknown'] as const;

/** A row that went is recorded sent also when a "no" withdrew it while it was going (it did go). */
const WENT_FROM = [...HELD, 'skipped'] as const;

export class OutboxClaims extends OutboxReads {
  /**
   * Takes up to `limit` of the lane's due messages for `holder` alone, oldest due first. On
   * PostgreSQL rows another sender is taking are skipped, not waited for; on SQLite the one
   * statement is atomic. A leased claim moves the row's due time to the lease's end, so one index
   * range finds both the due rows and those whose sender died.
   */
  async claim(lane: Lane, holder: string, limit: number): Promise<ClaimedMessage[]> {
    const rows = await this.claimRows(lane, holder, limit);
    return rows
      .map((row) => ({
        id: Number(row.id),
        kind: row.kind,
        signupId: String(row.signup_id),
        channel: personChannel(row.channel),
        attempts: row.attempts,
        ...(row.pause_mark === 'paused_the_channel' ? { pausedTheChannel: true } : {}),
      }))
      .sort((a, b) => a.id - b.id);
  }

  /** The webhook deliveries due, claimed as `claim` claims a kind's (leased): each names its endpoint and event. */
  async claimWebhooks(holder: string, limit: number, leaseMs: number): Promise<WebhookClaim[]> {
    const rows = await this.claimRows({ kind: 'webhook', leaseMs }, holder, limit);
    return rows
      .map((row) => ({
        id: Number(row.id),
        endpointId: Number(row.webhook_endpoint_id),
        eventId: Number(row.webhook_event_id),
        attempts: row.attempts,
      }))
      .sort((a, b) => a.id - b.id);
  }

  private async claimRows(lane: Lane | { kind: 'webhook'; leaseMs: number }, holder: string, limit: number) {
    const now = this.context.now();
    const at = now.toISOString();
    const leased = 'kind' in lane;
    const due = this.context.db
      .selectFrom('outbox')
      .select('id')
      .where((eb) =>
        'kind' in lane
          ? // `broadcast_id IS NULL`: the term the other kinds' partial index (outbox_kind_due) is made on.
            eb.and([eb('broadcast_id', 'is', null), eb('kind', '=', lane.kind), eb('state', 'in', LIVE_STATES)])
          : eb.and([
              eb('broadcast_id', '=', lane.broadcastId),
              eb('channel', '=', lane.channel),
              eb('state', 'in', ['queued', 'failed_temporary']),
            ]),
      )
      .where('next_attempt_at', '<=', at)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .$if(this.context.dialect.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    return this.context.db
      .updateTable('outbox')
      .set((eb) => ({
        state: 'sending',
        claimed_by: holder,
        claimed_at: at,
        attempts: eb('attempts', '+', 1),
        waiting_for: null,
        ...(leased ? { next_attempt_at: new Date(now.getTime() + lane.leaseMs).toISOString() } : {}),
      }))
      .where('id', 'in', due)
      .returning([
        'id',
        'kind',
        'signup_id',
        'channel',
        'attempts',
        'pause_mark',
        'webhook_endpoint_id',
        'webhook_event_id',
      ])
      .execute();
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
      .values({
        kind,
        ...to,
        channel,
        state: 'sending',
        attempts: 1,
        claimed_by: SENT_AT_ONCE,
        claimed_at: at,
        next_attempt_at: at,
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  /**
   * Records what became of claimed messages, in one transaction with one statement per kind of
   * outcome. Only rows `holder` still holds change: a row withdrawn, or taken by another sender once
   * its lease ran out, keeps what that said (a row that went is recorded sent even if withdrawn
   * meanwhile). A confirmation that went is the person's fact too (confirm_sent_at: what the deletion
   * and the reminder count from), and each message's record in the message log learns it left, with
   * the provider's ids, in the same transaction.
   */
  async record(holder: string, outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const at = stamp(this.context);
    const byResult = <R extends Outcome['result']>(result: R) =>
      outcomes.filter((outcome): outcome is Extract<Outcome, { result: R }> => outcome.result === result);
    await this.context.db.transaction().execute(async (trx) => {
      const mine = (ids: number[], states: readonly string[] = HELD) =>
        trx
          .updateTable('outbox')
          .where('id', 'in', ids)
          .where('claimed_by', '=', holder)
          .where('state', 'in', states as never);
      const sent = byResult('sent');
      if (sent.length > 0) {
        const ids = sent.map((outcome) => outcome.id);
        await this.confirmationsSent(trx, holder, ids, at);
        await mine(ids, WENT_FROM)
          .set(() => ({
            state: 'sent',
            sent_at: at,
            next_attempt_at: null,
            claimed_at: null,
            error: null,
            ...this.noMarks(),
          }))
          .execute();
        const logged = sent.flatMap((outcome) =>
          outcome.token
            ? [
                {
                  token: outcome.token,
                  state: 'sent' as const,
                  providerId: outcome.providerId,
                  messageId: outcome.messageId,
                },
              ]
            : [],
        );
        if (logged.length > 0) await markSent(trx, this.context, logged);
      }
      const temporary = byResult('temporary');
      if (temporary.length > 0)
        await mine(temporary.map((outcome) => outcome.id))
          .set((eb) => ({
            state: 'failed_temporary',
            next_attempt_at: this.caseById(
              temporary.map((outcome) => [outcome.id, outcome.retryAt ? outcome.retryAt.toISOString() : null]),
              'timestamptz',
            ),
            claimed_at: null,
            error: this.caseById(temporary.map((outcome) => [outcome.id, outcome.error.slice(0, ERROR_LENGTH)])),
            failure_kind: this.caseById(temporary.map((outcome) => [outcome.id, outcome.kind])) as never,
            ...this.marks(temporary),
            // Our own trouble, not the person's: the attempt the claim counted is given back.
            attempts: eb
              .case()
              .when('id', 'in', [0, ...temporary.filter((outcome) => outcome.ours).map((outcome) => outcome.id)])
              .then(this.attemptBack(eb))
              .else(eb.ref('attempts'))
              .end(),
          }))
          .execute();
      const requeue = byResult('requeue');
      if (requeue.length > 0)
        // Not this person's failure: the attempt does not count, and the row waits in the queue.
        await mine(requeue.map((outcome) => outcome.id))
          .set((eb) => ({
            state: 'queued',
            attempts: this.attemptBack(eb),
            next_attempt_at: this.caseById(
              requeue.map((outcome) => [outcome.id, outcome.at?.toISOString() ?? at]),
              'timestamptz',
            ),
            claimed_by: null,
            claimed_at: null,
            error: this.caseById(requeue.map((outcome) => [outcome.id, outcome.error.slice(0, ERROR_LENGTH)])),
            failure_kind: this.caseById(requeue.map((outcome) => [outcome.id, outcome.kind])) as never,
            ...this.marks(requeue),
          }))
          .execute();
      // Never left: their records in the message log go.
      const untried = [...requeue, ...byResult('wait')].flatMap((outcome) => (outcome.token ? [outcome.token] : []));
      if (untried.length > 0)
        await trx.deleteFrom('sent_messages').where('token', 'in', untried).where('state', '=', 'sending').execute();
      // Back in the queue untried, to be claimed once it may go: the attempt does not count.
      for (const why of [...TEXT_WAIT_REASONS, null]) {
        const waits = byResult('wait').filter((outcome) => (outcome.why ?? null) === why);
        if (waits.length === 0) continue;
        await mine(waits.map((outcome) => outcome.id))
          .set((eb) => ({
            state: 'queued',
            attempts: this.attemptBack(eb),
            next_attempt_at: this.caseById(
              waits.map((outcome) => [outcome.id, outcome.until.toISOString()]),
              'timestamptz',
            ),
            claimed_by: null,
            claimed_at: null,
            waiting_for: why,
          }))
          .execute();
      }
      // Failed for good or skipped: it ends here, with its reason, never tried again.
      for (const result of ['permanent', 'skipped'] as const) {
        const group = byResult(result);
        if (group.length === 0) continue;
        await mine(group.map((outcome) => outcome.id))
          .set(() => ({
            state: result === 'permanent' ? 'failed_permanent' : 'skipped',
            next_attempt_at: null,
            claimed_at: null,
            error: this.caseById(group.map((outcome) => [outcome.id, outcome.error.slice(0, ERROR_LENGTH)])),
            failure_kind: result === 'permanent' ? 'recipient' : null,
            ...this.noMarks(),
          }))
          .execute();
      }
    });
  }

  /** The people whose confirmation email went in this record: when it went is theirs too. */
  private async confirmationsSent(
    trx: Transaction<Database>,
    holder: string,
    ids: number[],
    at: string,
  ): Promise<void> {
    await trx
      .updateTable('signups')
      .set({ confirm_sent_at: at })
      .where(
        'id',
        'in',
        trx
          .selectFrom('outbox')
          .select('signup_id')
          .where('id', 'in', ids)
          .where('broadcast_id', 'is', null)
          .where('kind', '=', 'confirmation')
          .where('claimed_by', '=', holder)
          .where('state', 'in', WENT_FROM),
      )
      .execute();
  }

  /** The attempt a claim counted, given back (never below none). */
  private attemptBack(eb: ExpressionBuilder<Database, 'outbox'>) {
    return eb
      .case()
      .when('attempts', '>', 0)
      .then(eb('attempts', '-', 1))
      .else(0)
      .end();
  }

  /** No pause mark and not refused: what a row is once its failure is over (sent, queued again, failed for good). */
  protected noMarks() {
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
}
