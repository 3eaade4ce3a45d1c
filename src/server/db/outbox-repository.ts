// Broadcasts and their outbox: written once with Kysely for SQLite and PostgreSQL (decision 023).
// One outbox row per broadcast, person and channel (unique). A sender claims rows by moving them to
// 'sending' under its own id (FOR UPDATE SKIP LOCKED on PostgreSQL, so senders never take the same
// row); a row still 'sending' when its sender died may or may not have gone out: 'unknown'.
import { sql, type Selectable } from 'kysely';
import { iso, isoOrNull, isSignupId, isTrue, type Engine } from './column-types.js';
import type { Time } from './column-types.js';
import type { Database } from './database.js';
import { MESSAGE_STATES, type FailureKind, type MessageState } from './broadcast-messages.table.js';
import { type AudienceConfirmation } from './broadcasts.table.js';
import { type BroadcastChannel } from './message-channels.js';
import { type PauseCause } from './broadcast-pauses.table.js';
import { stamp, flag, type QueryContext } from './sql-dialect.js';

export const BROADCAST_SEGMENTS = ['all', 'beta'] as const;
export type BroadcastSegment = (typeof BROADCAST_SEGMENTS)[number];

/** ready: created, nothing sent yet (or topped up); sending; paused by the owner; finished: nothing left to try. */
export type BroadcastState = 'ready' | 'sending' | 'paused' | 'finished';

/** What a broadcast sends, fixed when it is created: what was previewed is what goes out. */
export interface BroadcastContent {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

export interface Broadcast {
  id: number;
  name: string;
  template: string;
  segment: BroadcastSegment;
  channels: BroadcastChannel[];
  /** Who it takes among the unconfirmed (consent/contact-rule.ts). */
  confirmation: AudienceConfirmation;
  content: BroadcastContent;
  state: BroadcastState;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** The owner resumed past a health pause: its rates no longer pause it. */
  healthAcceptedAt: string | null;
}

/** One person as a broadcast needs them, to choose recipients and to check again before sending. */
export interface Recipient {
  id: string;
  email: string;
  phone: string;
  betaTesting: boolean;
  lastSeenAt: string;
  confirmedAt: string | null;
  /** Asked to confirm (a confirmation is due or was sent): sign-ups from before confirmation was on were never asked. */
  askedToConfirm: boolean;
  emailOptOutAt: string | null;
  smsOptOutAt: string | null;
  leftAt: string | null;
}

export interface ClaimedMessage {
  id: number;
  signupId: string;
  channel: BroadcastChannel;
  /** Attempts so far, this one included. */
  attempts: number;
}

/**
 * What became of one claimed message. temporary: tried again at `retryAt` (null: it gave up, and
 * only the owner's `retry` queues it again); permanent: this person's address, for good; requeue:
 * not the person's failure at all (the sender's, as a wrong password): back in the queue as if
 * never tried; skipped: not sent, and why.
 */
export type Outcome =
  /** token: the message's row in the message log, given its state and provider id in the same write. */
  | { id: number; result: 'sent'; providerId: string; token?: string | undefined }
  | { id: number; result: 'temporary'; error: string; retryAt: Date | null; kind: 'message' | 'unknown' }
  | { id: number; result: 'permanent'; error: string; kind: 'recipient' }
  /** token: the message never left, so its row in the message log goes. */
  | { id: number; result: 'requeue'; error: string; kind: FailureKind | null; token?: string | undefined }
  | { id: number; result: 'skipped'; error: string };

/** A channel of a broadcast that a failure of ours paused, until the owner resumes it. */
export interface ChannelPause {
  channel: BroadcastChannel;
  cause: PauseCause;
  /** In plain words, with what to do. */
  reason: string;
  /** The provider's answer, quoted (addresses removed). */
  answer: string | null;
  pausedAt: string;
}

/** A failed message the owner's `retry` may queue again. */
export interface FailedMessage {
  id: number;
  signupId: string;
  channel: BroadcastChannel;
  state: 'failed_temporary' | 'failed_permanent';
  /** Null before release 7: the kind is then read from `error`. */
  failureKind: FailureKind | null;
  error: string | null;
}

export type StateCounts = Record<MessageState, number> & {
  /** Of failed_temporary: how many will be tried again (the rest gave up after the last attempt). */
  retrying: number;
  total: number;
};

export interface SenderInfo {
  id: string;
  broadcastId: number;
  host: string;
  pid: number;
  startedAt: string;
  heartbeatAt: string;
}

export class SenderBusyError extends Error {
  constructor(readonly other: SenderInfo) {
    super(
      `Another sender is already running (process ${other.pid} on ${other.host}, last seen ${other.heartbeatAt}). ` +
        'SQLite allows one sender at a time: wait for it, pause it, or stop it first.',
    );
    this.name = 'SenderBusyError';
  }
}

const RECIPIENT_COLUMNS = [
  'id',
  'email',
  'phone',
  'beta_testing',
  'last_seen_at',
  'confirmed_at',
  'confirm_requested_at',
  'confirm_sent_at',
  'email_opt_out_at',
  'sms_opt_out_at',
  'left_at',
] as const;

function recipientFrom(row: Pick<Database['signups'], (typeof RECIPIENT_COLUMNS)[number]>): Recipient {
  return {
    id: String(row.id),
    email: row.email,
    phone: row.phone,
    betaTesting: isTrue(row.beta_testing),
    lastSeenAt: iso(row.last_seen_at),
    confirmedAt: isoOrNull(row.confirmed_at),
    askedToConfirm: row.confirm_requested_at !== null || row.confirm_sent_at !== null,
    emailOptOutAt: isoOrNull(row.email_opt_out_at),
    smsOptOutAt: isoOrNull(row.sms_opt_out_at),
    leftAt: isoOrNull(row.left_at),
  };
}

/** Error texts kept on outbox rows are short. */
const ERROR_LENGTH = 300;

export class OutboxRepository {
  constructor(private readonly context: QueryContext) {}

  get engine(): Engine {
    return this.context.dialect.engine;
  }

  private broadcastFrom(row: Selectable<Database['broadcasts']>): Broadcast {
    return {
      id: Number(row.id),
      name: row.name,
      template: row.template,
      segment: row.segment as BroadcastSegment,
      channels: row.channels.split(',').filter(Boolean) as BroadcastChannel[],
      confirmation: row.confirmation as AudienceConfirmation,
      content: JSON.parse(row.content) as BroadcastContent,
      state: row.state as BroadcastState,
      createdAt: iso(row.created_at),
      startedAt: isoOrNull(row.started_at),
      finishedAt: isoOrNull(row.finished_at),
      healthAcceptedAt: isoOrNull(row.health_accepted_at),
    };
  }

  /** Creates the broadcast (no recipients yet: see enqueue); undefined if the name is taken. */
  async create(
    input: Pick<Broadcast, 'name' | 'template' | 'segment' | 'channels' | 'confirmation' | 'content'>,
  ): Promise<Broadcast | undefined> {
    const inserted = await this.context.db
      .insertInto('broadcasts')
      .values({
        name: input.name,
        template: input.template,
        segment: input.segment,
        channels: input.channels.join(','),
        include_unconfirmed: flag(this.context, input.confirmation === 'everyone'),
        confirmation: input.confirmation,
        content: JSON.stringify(input.content),
        state: 'ready',
        created_at: stamp(this.context),
      })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted ? this.get(input.name) : undefined;
  }

  async get(name: string): Promise<Broadcast | undefined> {
    const row = await this.context.db.selectFrom('broadcasts').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? this.broadcastFrom(row) : undefined;
  }

  async list(): Promise<Broadcast[]> {
    const rows = await this.context.db.selectFrom('broadcasts').selectAll().orderBy('id').execute();
    return rows.map((row) => this.broadcastFrom(row));
  }

  async state(broadcastId: number): Promise<BroadcastState | undefined> {
    const row = await this.context.db
      .selectFrom('broadcasts')
      .select('state')
      .where('id', '=', broadcastId)
      .executeTakeFirst();
    return row?.state as BroadcastState | undefined;
  }

  /** Moves the broadcast to `to` if it is in one of `from`; true when it moved. */
  async setState(broadcastId: number, to: BroadcastState, from: BroadcastState[]): Promise<boolean> {
    const at = stamp(this.context);
    const result = await this.context.db
      .updateTable('broadcasts')
      .set({
        state: to,
        // One statement: a refused move stamps nothing. started_at is the first start only.
        ...(to === 'sending' ? { finished_at: null, started_at: sql<string>`coalesce(started_at, ${at})` } : {}),
        ...(to === 'finished' ? { finished_at: at } : {}),
      })
      .where('id', '=', broadcastId)
      .where('state', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A page of sign-ups in id order, after `afterId` (keyset paging keeps memory flat at any list size). */
  async recipientsAfter(afterId: string | null, limit: number): Promise<Recipient[]> {
    const rows = await this.context.db
      .selectFrom('signups')
      .select(RECIPIENT_COLUMNS)
      .$if(afterId !== null, (query) => query.where('id', '>', afterId as string))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(recipientFrom);
  }

  /** These sign-ups as they are now (a deleted one is simply absent). */
  async recipients(ids: string[]): Promise<Map<string, Recipient>> {
    const valid = ids.filter((id) => isSignupId(id));
    if (valid.length === 0) return new Map();
    const rows = await this.context.db
      .selectFrom('signups')
      .select(RECIPIENT_COLUMNS)
      .where('id', 'in', valid)
      .execute();
    return new Map(rows.map((row) => [String(row.id), recipientFrom(row)]));
  }

  /** Adds these people to the outbox; those already in it are left as they are. Returns how many were added. */
  async enqueue(broadcastId: number, rows: { signupId: string; channel: BroadcastChannel }[]): Promise<number> {
    if (rows.length === 0) return 0;
    const at = stamp(this.context);
    const result = await this.context.db
      .insertInto('broadcast_messages')
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
   * Registers a sender. On SQLite only one may run at a time (the unique slot); a sender that died
   * is noticed first (`isDead`), its in-flight rows marked unknown, and its slot freed.
   */
  async registerSender(
    sender: { id: string; broadcastId: number; host: string; pid: number },
    isDead: (other: SenderInfo) => boolean,
  ): Promise<{ unknown: number }> {
    const reaped = await this.reapDeadSenders(isDead);
    const at = stamp(this.context);
    try {
      await this.context.db
        .insertInto('broadcast_senders')
        .values({
          id: sender.id,
          broadcast_id: sender.broadcastId,
          slot: this.context.dialect.engine === 'sqlite' ? 1 : null,
          host: sender.host,
          pid: sender.pid,
          started_at: at,
          heartbeat_at: at,
        })
        .execute();
    } catch (error) {
      const [other] = await this.liveSenders();
      if (this.context.dialect.engine === 'sqlite' && other) throw new SenderBusyError(other);
      throw error;
    }
    return { unknown: reaped };
  }

  async heartbeat(senderId: string): Promise<void> {
    await this.context.db
      .updateTable('broadcast_senders')
      .set({ heartbeat_at: stamp(this.context) })
      .where('id', '=', senderId)
      .execute();
  }

  /**
   * A sender ends. Anything it still holds as 'sending' (only after an error cut its work short)
   * may or may not have left: it becomes 'unknown', like a dead sender's. Returns how many rows.
   */
  async stopSender(senderId: string): Promise<number> {
    return this.stopSenders([senderId]);
  }

  /** Senders that have not stopped (some may have died without saying so), oldest first. */
  async liveSenders(broadcastId?: number): Promise<SenderInfo[]> {
    const rows = await this.context.db
      .selectFrom('broadcast_senders')
      .select(['id', 'broadcast_id', 'host', 'pid', 'started_at', 'heartbeat_at'])
      .where('stopped_at', 'is', null)
      .$if(broadcastId !== undefined, (query) => query.where('broadcast_id', '=', broadcastId as number))
      .orderBy('started_at')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      broadcastId: Number(row.broadcast_id),
      host: row.host,
      pid: row.pid,
      startedAt: iso(row.started_at),
      heartbeatAt: iso(row.heartbeat_at),
    }));
  }

  /**
   * Senders that died without stopping: their rows still 'sending' may or may not have gone out, so
   * they become 'unknown' (never sent again unless the owner says so). Returns how many rows.
   */
  async reapDeadSenders(isDead: (sender: SenderInfo) => boolean): Promise<number> {
    const dead = (await this.liveSenders()).filter(isDead);
    if (dead.length === 0) return 0;
    return this.stopSenders(dead.map((sender) => sender.id));
  }

  /** Marks these senders stopped, and what they still held as 'sending' unknown; returns how many rows. */
  private async stopSenders(ids: string[]): Promise<number> {
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      // Write first: on SQLite the transaction then holds the write lock from its first statement.
      await trx
        .updateTable('broadcast_senders')
        .set({ stopped_at: at, slot: null })
        .where('id', 'in', ids)
        .where('stopped_at', 'is', null)
        .execute();
      const result = await trx
        .updateTable('broadcast_messages')
        .set({ state: 'unknown', next_attempt_at: null, error: 'its sender stopped while sending it' })
        .where('state', '=', 'sending')
        .where('claimed_by', 'in', ids)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    });
  }

  /**
   * Takes up to `limit` messages of this channel that are due, for this sender alone. On PostgreSQL
   * rows another sender is taking are skipped, not waited for; on SQLite the one statement is atomic.
   */
  async claim(
    broadcastId: number,
    channel: BroadcastChannel,
    senderId: string,
    limit: number,
  ): Promise<ClaimedMessage[]> {
    const at = stamp(this.context);
    const due = this.context.db
      .selectFrom('broadcast_messages')
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
      .updateTable('broadcast_messages')
      .set((eb) => ({
        state: 'sending',
        claimed_by: senderId,
        claimed_at: at,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', due)
      .returning(['id', 'signup_id', 'channel', 'attempts'])
      .execute();
    return rows
      .map((row) => ({
        id: Number(row.id),
        signupId: String(row.signup_id),
        channel: row.channel,
        attempts: row.attempts,
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
          .updateTable('broadcast_messages')
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
            provider_id: this.caseBy(
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
          }))
          .execute();
      const untried = requeue.flatMap((outcome) => (outcome.token ? [outcome.token] : []));
      if (untried.length > 0)
        await trx.deleteFrom('sent_messages').where('token', 'in', untried).where('state', '=', 'sending').execute();
      for (const result of ['permanent', 'skipped'] as const) {
        const group = byResult(result);
        if (group.length === 0) continue;
        await mine(group.map((outcome) => outcome.id))
          .set(() => ({
            state: result === 'permanent' ? 'failed_permanent' : 'skipped',
            next_attempt_at: null,
            error: this.caseById(group.map((outcome) => [outcome.id, outcome.error.slice(0, ERROR_LENGTH)])),
            failure_kind: result === 'permanent' ? 'recipient' : null,
          }))
          .execute();
      }
    });
  }

  /** CASE id WHEN … THEN … END: a different value per row in one UPDATE, on both engines. */
  private caseById(pairs: [number, string | null][], type: 'text' | 'timestamptz' = 'text') {
    return this.caseBy('id', pairs, type);
  }

  private caseBy(column: string, pairs: [number | string, string | null][], type: 'text' | 'timestamptz' = 'text') {
    const whens = pairs.map(([key, value]) => sql`WHEN ${key} THEN ${value}`);
    // PostgreSQL types the parameters from the column they are written to only with a cast.
    const cast = this.context.dialect.engine === 'postgres' ? sql.raw(`::${type}`) : sql``;
    return sql<string | null>`(CASE ${sql.ref(column)} ${sql.join(whens, sql` `)} ELSE NULL END)${cast}`;
  }

  /** How many messages are in each state (on one channel, or all). */
  async counts(broadcastId: number, channel?: BroadcastChannel): Promise<StateCounts> {
    const rows = await this.context.db
      .selectFrom('broadcast_messages')
      .select((eb) => [
        'state',
        eb.fn.countAll<string | number>().as('n'),
        eb.fn.count<string | number>('next_attempt_at').as('due'),
      ])
      .where('broadcast_id', '=', broadcastId)
      .$if(channel !== undefined, (query) => query.where('channel', '=', channel as BroadcastChannel))
      .groupBy('state')
      .execute();
    const counts = Object.fromEntries(MESSAGE_STATES.map((state) => [state, 0])) as StateCounts;
    counts.retrying = 0;
    counts.total = 0;
    for (const row of rows) {
      counts[row.state] = Number(row.n);
      counts.total += Number(row.n);
      if (row.state === 'failed_temporary') counts.retrying = Number(row.due);
    }
    return counts;
  }

  /** The earliest time a message of this channel is due again (a retry), if any is waiting. */
  async nextDue(broadcastId: number, channel: BroadcastChannel): Promise<string | undefined> {
    const row = await this.context.db
      .selectFrom('broadcast_messages')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('broadcast_id', '=', broadcastId)
      .where('channel', '=', channel)
      .where('state', 'in', ['queued', 'failed_temporary'])
      .executeTakeFirst();
    return row?.at ? iso(row.at as Time) : undefined;
  }

  /** Messages of this broadcast some sender is sending now. */
  async inFlight(broadcastId: number): Promise<number> {
    const row = await this.context.db
      .selectFrom('broadcast_messages')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('broadcast_id', '=', broadcastId)
      .where('state', '=', 'sending')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Sent since `since` (for the owner's rate figure). */
  async sentSince(broadcastId: number, since: Date): Promise<number> {
    const row = await this.context.db
      .selectFrom('broadcast_messages')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('broadcast_id', '=', broadcastId)
      .where('state', '=', 'sent')
      .where('sent_at', '>=', since.toISOString())
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Pauses a channel of the broadcast because of a failure of ours; the first reason stays until the
   * owner resumes. True when this call paused it (false: it already was).
   */
  async pauseChannel(
    broadcastId: number,
    channel: BroadcastChannel,
    pause: { cause: PauseCause; reason: string; answer?: string | null },
  ): Promise<boolean> {
    const result = await this.context.db
      .insertInto('broadcast_pauses')
      .values({
        broadcast_id: broadcastId,
        channel,
        cause: pause.cause,
        reason: pause.reason.slice(0, 1000),
        answer: pause.answer ? pause.answer.slice(0, ERROR_LENGTH) : null,
        paused_at: stamp(this.context),
      })
      .onConflict((conflict) => conflict.columns(['broadcast_id', 'channel']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** resume --despite-health: the owner goes on knowingly; the rates no longer pause this broadcast. */
  async acceptHealth(broadcastId: number): Promise<void> {
    await this.context.db
      .updateTable('broadcasts')
      .set({ health_accepted_at: stamp(this.context) })
      .where('id', '=', broadcastId)
      .execute();
  }

  /** The broadcast's paused channels and why (several broadcasts at once for the list). */
  async pauses(broadcastIds: number | number[]): Promise<Map<number, ChannelPause[]>> {
    const ids = Array.isArray(broadcastIds) ? broadcastIds : [broadcastIds];
    const found = new Map<number, ChannelPause[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return found;
    const rows = await this.context.db
      .selectFrom('broadcast_pauses')
      .selectAll()
      .where('broadcast_id', 'in', ids)
      .orderBy('paused_at')
      .execute();
    for (const row of rows)
      found.get(Number(row.broadcast_id))?.push({
        channel: row.channel,
        cause: row.cause,
        reason: row.reason,
        answer: row.answer,
        pausedAt: iso(row.paused_at),
      });
    return found;
  }

  /** The paused channels of one broadcast. */
  async channelPauses(broadcastId: number): Promise<ChannelPause[]> {
    return (await this.pauses(broadcastId)).get(broadcastId) ?? [];
  }

  /**
   * The owner resumes: the pauses are lifted, and on each channel that was paused the messages
   * waiting to be tried again are due now, their count of attempts started afresh (the failures were
   * ours, or the provider's outage, not the person's). Returns the pauses lifted.
   */
  async clearPauses(broadcastId: number): Promise<ChannelPause[]> {
    const pauses = await this.channelPauses(broadcastId);
    if (pauses.length === 0) return [];
    const at = stamp(this.context);
    await this.context.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('broadcast_pauses').where('broadcast_id', '=', broadcastId).execute();
      await trx
        .updateTable('broadcast_messages')
        .set({ next_attempt_at: at, attempts: 0 })
        .where('broadcast_id', '=', broadcastId)
        .where(
          'channel',
          'in',
          pauses.map((pause) => pause.channel),
        )
        .where((eb) =>
          eb.or([
            eb('state', '=', 'queued'),
            eb.and([eb('state', '=', 'failed_temporary'), eb('next_attempt_at', 'is not', null)]),
          ]),
        )
        .execute();
    });
    return pauses;
  }

  /** The broadcast's failed messages (the owner's `retry` chooses among them). */
  async failedMessages(broadcastId: number): Promise<FailedMessage[]> {
    const rows = await this.context.db
      .selectFrom('broadcast_messages')
      .select(['id', 'signup_id', 'channel', 'state', 'failure_kind', 'error', 'next_attempt_at'])
      .where('broadcast_id', '=', broadcastId)
      .where((eb) =>
        eb.or([
          eb('state', '=', 'failed_permanent'),
          // Gave up: no next attempt. One still due again is not failed yet.
          eb.and([eb('state', '=', 'failed_temporary'), eb('next_attempt_at', 'is', null)]),
        ]),
      )
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      signupId: String(row.signup_id),
      channel: row.channel,
      state: row.state as FailedMessage['state'],
      failureKind: row.failure_kind,
      error: row.error,
    }));
  }

  /**
   * Failed messages back in the queue, as if never tried (only rows still failed: never one that
   * was sent, skipped or is unknown). Returns how many.
   */
  async requeueFailed(broadcastId: number, ids: number[]): Promise<number> {
    let count = 0;
    const at = stamp(this.context);
    for (let start = 0; start < ids.length; start += 500) {
      const result = await this.context.db
        .updateTable('broadcast_messages')
        .set({ state: 'queued', next_attempt_at: at, attempts: 0, error: null, failure_kind: null, claimed_by: null })
        .where('broadcast_id', '=', broadcastId)
        .where('id', 'in', ids.slice(start, start + 500))
        .where('state', 'in', ['failed_temporary', 'failed_permanent'])
        .executeTakeFirst();
      count += Number(result.numUpdatedRows);
    }
    return count;
  }

  /** When a message of this channel last went out (for "not answered since"). */
  async lastSentAt(broadcastId: number, channel: BroadcastChannel): Promise<string | undefined> {
    const row = await this.context.db
      .selectFrom('broadcast_messages')
      .select((eb) => eb.fn.max('sent_at').as('at'))
      .where('broadcast_id', '=', broadcastId)
      .where('channel', '=', channel)
      .where('state', '=', 'sent')
      .executeTakeFirst();
    return row?.at ? iso(row.at as Time) : undefined;
  }

  /** The owner's "send them anyway": unknown rows go back in the queue. Returns how many. */
  async requeueUnknown(broadcastId: number): Promise<number> {
    const result = await this.context.db
      .updateTable('broadcast_messages')
      .set({ state: 'queued', next_attempt_at: stamp(this.context), error: null })
      .where('broadcast_id', '=', broadcastId)
      .where('state', '=', 'unknown')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
