// The outbox as the owner's figures and the senders' rules read it: counts, what waits and when,
// which numbers had a broadcast's text, why messages were skipped, which failed. Read-only; the
// writes (enqueue, claim, record, requeue) are OutboxRepository's, which extends this.
import type { NotNull } from 'kysely';
import { iso, isoOrNull, type Engine, type Time } from './column-types.js';
import { MESSAGE_STATES } from './outbox.table.js';
import type { FailedMessage, PersonMessage, StateCounts } from './outbox-rows.js';
import { personChannel, type Channel } from './message-channels.js';
import { stamp, type QueryContext } from './sql-dialect.js';

export class OutboxReads {
  constructor(protected readonly context: QueryContext) {}

  get engine(): Engine {
    return this.context.dialect.engine;
  }

  /**
   * Every message to this person, of every kind, newest first (at most `limit`): the one outbox as the
   * owner's page for them shows it. Two reads, each on an index: the product's own kinds by person
   * (outbox_person), a broadcast's by broadcast and person (its unique index).
   */
  async messagesOf(signupId: string, limit = 50): Promise<PersonMessage[]> {
    const { db } = this.context;
    const columns = [
      'outbox.id',
      'outbox.kind',
      'outbox.channel',
      'outbox.state',
      'outbox.attempts',
      'outbox.sent_at',
      'outbox.next_attempt_at',
      'outbox.error',
    ] as const;
    const [own, broadcasts] = await Promise.all([
      db
        .selectFrom('outbox')
        .select(columns)
        .where('outbox.broadcast_id', 'is', null)
        .where('outbox.signup_id', '=', signupId)
        .orderBy('outbox.id', 'desc')
        .limit(limit)
        .execute(),
      db
        .selectFrom('outbox')
        .innerJoin('broadcasts', 'broadcasts.id', 'outbox.broadcast_id')
        .select([...columns, 'broadcasts.name as broadcast'])
        .where('outbox.broadcast_id', 'in', db.selectFrom('broadcasts').select('id'))
        .where('outbox.signup_id', '=', signupId)
        .orderBy('outbox.id', 'desc')
        .limit(limit)
        .execute(),
    ]);
    return [...own.map((row) => ({ ...row, broadcast: null })), ...broadcasts]
      .map((row) => ({
        id: Number(row.id),
        kind: row.kind,
        broadcast: row.broadcast,
        channel: personChannel(row.channel),
        state: row.state,
        attempts: row.attempts,
        sentAt: isoOrNull(row.sent_at),
        nextAttemptAt: isoOrNull(row.next_attempt_at),
        error: row.error,
      }))
      .sort((a, b) => b.id - a.id)
      .slice(0, limit);
  }

  /** How many messages are in each state (on one channel, or all). */
  async counts(broadcastId: number, channel?: Channel): Promise<StateCounts> {
    const rows = await this.context.db
      .selectFrom('outbox')
      .select((eb) => [
        'state',
        eb.fn.countAll<string | number>().as('n'),
        eb.fn.count<string | number>('next_attempt_at').as('due'),
      ])
      .where('broadcast_id', '=', broadcastId)
      .$if(channel !== undefined, (query) => query.where('channel', '=', channel as Channel))
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

  /**
   * The earliest time a message of this channel is due again (a retry), if any is waiting. Texts held
   * for daytime or a cap are not counted: they go by themselves (the waiting-texts job), not while a
   * sender waits hours for them.
   */
  async nextDue(broadcastId: number, channel: Channel): Promise<string | undefined> {
    const row = await this.context.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('broadcast_id', '=', broadcastId)
      .where('channel', '=', channel)
      .where('state', 'in', ['queued', 'failed_temporary'])
      .where('waiting_for', 'is', null)
      .executeTakeFirst();
    return row?.at ? iso(row.at as Time) : undefined;
  }

  /**
   * When texts went to this number (any of the forms it may be stored in) since `since`, oldest first:
   * the joining text and every broadcast's text, for a state's cap of texts in 24 hours.
   */
  async textsSentTo(forms: string[], since: Date): Promise<Date[]> {
    if (forms.length === 0) return [];
    const after = since.toISOString();
    const [broadcast, joining] = await Promise.all([
      this.context.db
        .selectFrom('outbox')
        .innerJoin('signups', 'signups.id', 'outbox.signup_id')
        .select('outbox.sent_at as at')
        .where('signups.phone', 'in', forms)
        // The joining text's own time is the person's (below): its row is not counted twice.
        .where('outbox.kind', '=', 'broadcast')
        .where('outbox.channel', '=', 'sms')
        .where('outbox.sent_at', '>=', after)
        .execute(),
      this.context.db
        .selectFrom('signups')
        .select('joining_text_sent_at as at')
        .where('phone', 'in', forms)
        .where('joining_text_sent_at', '>=', after)
        .execute(),
    ]);
    return [...broadcast, ...joining]
      .flatMap((row) => (row.at ? [new Date(iso(row.at as Time))] : []))
      .sort((a, b) => a.getTime() - b.getTime());
  }

  /**
   * Which of these numbers (as stored) this broadcast's text went to, or is going to, through a
   * sign-up other than the messages `excluding`: one text per number per broadcast (issue 54).
   */
  async numbersGiven(broadcastId: number, forms: string[], excluding: number[]): Promise<string[]> {
    if (forms.length === 0) return [];
    const rows = await this.context.db
      .selectFrom('outbox')
      .innerJoin('signups', 'signups.id', 'outbox.signup_id')
      .select('signups.phone')
      .where('outbox.broadcast_id', '=', broadcastId)
      .where('outbox.channel', '=', 'sms')
      .where('outbox.state', 'in', ['sending', 'sent', 'unknown'])
      .where('signups.phone', 'in', [...new Set(forms)])
      .$if(excluding.length > 0, (query) => query.where('outbox.id', 'not in', excluding))
      .execute();
    return rows.map((row) => row.phone);
  }

  /**
   * Which of these people an email of these broadcasts (the earlier ones with this one's template)
   * went to, or is going to: each person gets the launch email once, ever (issue 54).
   */
  async peopleEmailed(broadcastIds: number[], signupIds: string[]): Promise<string[]> {
    if (signupIds.length === 0 || broadcastIds.length === 0) return [];
    const rows = await this.context.db
      .selectFrom('outbox')
      .select('signup_id')
      .where('broadcast_id', 'in', broadcastIds)
      .where('signup_id', 'in', [...new Set(signupIds)])
      .where('channel', '=', 'email')
      .where('state', 'in', ['sending', 'sent', 'unknown'])
      .$narrowType<{ signup_id: NotNull }>() // a broadcast's rows always name their person
      .execute();
    return rows.map((row) => row.signup_id);
  }

  /** Texts held until they may reach the person, and when the first of them may go. */
  async waitingTexts(broadcastId: number): Promise<{ count: number; next: string | undefined; due: number }> {
    const at = stamp(this.context);
    const row = await this.context.db
      .selectFrom('outbox')
      .select((eb) => [
        eb.fn.countAll<string | number>().as('n'),
        eb.fn.min('next_attempt_at').as('next'),
        eb.fn.sum<string | number | null>(eb.case().when('next_attempt_at', '<=', at).then(1).else(0).end()).as('due'),
      ])
      .where('broadcast_id', '=', broadcastId)
      .where('state', '=', 'queued')
      .where('waiting_for', 'is not', null)
      .executeTakeFirst();
    return {
      count: Number(row?.n ?? 0),
      next: row?.next ? iso(row.next as Time) : undefined,
      due: Number(row?.due ?? 0),
    };
  }

  /** Messages of this broadcast some sender is sending now. */
  async inFlight(broadcastId: number): Promise<number> {
    const row = await this.context.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('broadcast_id', '=', broadcastId)
      .where('state', '=', 'sending')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Sent since `since` (for the owner's rate figure). */
  async sentSince(broadcastId: number, since: Date): Promise<number> {
    const row = await this.context.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('broadcast_id', '=', broadcastId)
      .where('state', '=', 'sent')
      .where('sent_at', '>=', since.toISOString())
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Why the broadcast's messages were not sent (skipped), each reason with how many, most first. */
  async skippedReasons(broadcastId: number): Promise<{ channel: Channel; reason: string; count: number }[]> {
    const rows = await this.context.db
      .selectFrom('outbox')
      .select((eb) => ['channel', 'error', eb.fn.countAll<number | string>().as('n')])
      .where('broadcast_id', '=', broadcastId)
      .where('state', '=', 'skipped')
      .groupBy(['channel', 'error'])
      .execute();
    return rows
      .map((row) => ({ channel: personChannel(row.channel), reason: row.error ?? '', count: Number(row.n) }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  }

  /** The broadcast's failed messages (the owner's `retry` chooses among them). */
  async failedMessages(broadcastId: number): Promise<FailedMessage[]> {
    const rows = await this.context.db
      .selectFrom('outbox')
      .select(['id', 'signup_id', 'channel', 'state', 'failure_kind', 'error', 'pause_mark'])
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
      channel: personChannel(row.channel),
      state: row.state as FailedMessage['state'],
      failureKind: row.failure_kind,
      error: row.error,
      held: row.pause_mark === 'held',
    }));
  }

  /** When a message of this channel last went out (for "not answered since"). */
  async lastSentAt(broadcastId: number, channel: Channel): Promise<string | undefined> {
    const row = await this.context.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.max('sent_at').as('at'))
      .where('broadcast_id', '=', broadcastId)
      .where('channel', '=', channel)
      .where('state', '=', 'sent')
      .executeTakeFirst();
    return row?.at ? iso(row.at as Time) : undefined;
  }
}
