// Every message sent (by its signed token) and every report about one, written once with Kysely for
// SQLite and PostgreSQL (docs/messaging.md, "Hearing back"). A report is stored once per source and
// its own id, whatever the provider redelivers; a message's state only moves forward, whatever order
// the reports arrive in.
import type { Selectable } from 'kysely';
import { iso, type Engine } from './column-types.js';
import type { Database } from './database.js';
import type { MessagePurpose, SentMessageState } from './sent-messages.table.js';
import type { BroadcastChannel } from './message-channels.js';
import { stamp, type QueryContext } from './sql-dialect.js';

/** A message as the reports about it need it. */
export interface SentMessage {
  token: string;
  channel: BroadcastChannel;
  purpose: MessagePurpose;
  signupId: string | null;
  broadcastId: number | null;
  addressHash: string | null;
  messageId: string | null;
  providerId: string | null;
  state: SentMessageState;
  createdAt: string;
}

/** A message about to leave. */
export interface SendingMessage {
  token: string;
  channel: BroadcastChannel;
  purpose: MessagePurpose;
  signupId: string | null;
  broadcastId?: number | null;
  outboxId?: number | null;
  addressHash?: string | null;
  messageId?: string | null;
}

/** A report as stored. */
export interface StoredReport {
  source: string;
  eventId: string;
  kind: string;
  token: string | null;
  code?: string | null;
  detail?: string | null;
  occurredAt: string;
}

/**
 * How far on each state is: a report never moves a message back (Twilio's "sent" arriving after
 * "delivered"), and of two final states the first stays.
 */
export const STATE_RANK: Record<SentMessageState, number> = {
  sending: 0,
  failed: 1,
  sent: 1,
  delivered: 2,
  soft_bounced: 2,
  bounced: 3,
  complained: 3,
  undeliverable: 3,
  stopped: 3,
  filtered: 3,
};

/** Reports and texts kept short. */
const TEXT_LENGTH = 300;
/** Rows per statement in the batch queries (well under either engine's limit on parameters). */
const CHUNK = 200;

/** The states a message may move to `state` from: only forward; and a delivery after a deferral (soft bounce) is a delivery. */
function lowerThan(state: SentMessageState): SentMessageState[] {
  return (Object.keys(STATE_RANK) as SentMessageState[]).filter(
    (each) => STATE_RANK[each] < STATE_RANK[state] || (state === 'delivered' && each === 'soft_bounced'),
  );
}

function sentMessageFrom(row: Selectable<Database['sent_messages']>): SentMessage {
  return {
    token: row.token,
    channel: row.channel,
    purpose: row.purpose,
    signupId: row.signup_id === null ? null : String(row.signup_id),
    broadcastId: row.broadcast_id === null ? null : Number(row.broadcast_id),
    addressHash: row.address_hash,
    messageId: row.message_id,
    providerId: row.provider_id,
    state: row.state,
    createdAt: iso(row.created_at),
  };
}

export class FeedbackRepository {
  constructor(private readonly context: QueryContext) {}

  get engine(): Engine {
    return this.context.dialect.engine;
  }

  /** Records messages just before they leave, so that a report arriving at once finds them. */
  async sending(messages: SendingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const at = stamp(this.context);
    await this.context.db
      .insertInto('sent_messages')
      .values(
        messages.map((message) => ({
          token: message.token,
          channel: message.channel,
          purpose: message.purpose,
          signup_id: message.signupId,
          broadcast_id: message.broadcastId ?? null,
          outbox_id: message.outboxId ?? null,
          address_hash: message.addressHash ?? null,
          message_id: message.messageId ?? null,
          provider_id: null,
          state: 'sending' as const,
          created_at: at,
          state_at: at,
        })),
      )
      .onConflict((conflict) => conflict.column('token').doNothing())
      .execute();
  }

  /** The send's outcome: accepted (with the provider's ids) or refused during the send. */
  async sent(
    token: string,
    outcome: { state: 'sent' | 'failed'; providerId?: string; messageId?: string },
  ): Promise<void> {
    await this.context.db
      .updateTable('sent_messages')
      .set({
        state: outcome.state,
        state_at: stamp(this.context),
        ...(outcome.providerId ? { provider_id: outcome.providerId.slice(0, TEXT_LENGTH) } : {}),
        ...(outcome.messageId ? { message_id: outcome.messageId.slice(0, TEXT_LENGTH) } : {}),
      })
      .where('token', '=', token)
      .where('state', '=', 'sending')
      .execute();
  }

  /** The message a report names: by our token first, else by the provider's id, else by its Message-ID. */
  async find(reference: { token?: string; providerId?: string; messageId?: string }): Promise<SentMessage | undefined> {
    const query = this.context.db.selectFrom('sent_messages').selectAll();
    // A provider's id or a Message-ID names a message only where it names one: a server that answers
    // every message alike ("250 OK") gives an id that must not pick someone at random.
    const rows = reference.token
      ? await query.where('token', '=', reference.token).execute()
      : reference.providerId
        ? await query.where('provider_id', '=', reference.providerId).limit(2).execute()
        : reference.messageId
          ? await query.where('message_id', '=', reference.messageId.replace(/^<|>$/g, '')).limit(2).execute()
          : [];
    const row = rows.length === 1 ? rows[0] : undefined;
    return row ? sentMessageFrom(row) : undefined;
  }

  /** The messages these tokens name, by token (one query per few hundred: a batch of reports). */
  async findByTokens(tokens: string[]): Promise<Map<string, SentMessage>> {
    const found = new Map<string, SentMessage>();
    const unique = [...new Set(tokens)];
    for (let start = 0; start < unique.length; start += CHUNK) {
      const rows = await this.context.db
        .selectFrom('sent_messages')
        .selectAll()
        .where('token', 'in', unique.slice(start, start + CHUNK))
        .execute();
      for (const row of rows) found.set(row.token, sentMessageFrom(row));
    }
    return found;
  }

  /**
   * Stores a batch of reports, each once: for each, in order, true when it is new (false when this
   * source sent it already, before or earlier in the same batch). One statement per few hundred.
   */
  async storeMany(reports: StoredReport[]): Promise<boolean[]> {
    const key = (source: string, eventId: string) => `${source}\u0000${eventId.slice(0, TEXT_LENGTH)}`;
    const inserted = new Set<string>();
    const at = stamp(this.context);
    for (let start = 0; start < reports.length; start += CHUNK) {
      const rows = await this.context.db
        .insertInto('feedback_events')
        .values(reports.slice(start, start + CHUNK).map((report) => this.reportRow(report, at)))
        .onConflict((conflict) => conflict.columns(['source', 'event_id']).doNothing())
        .returning(['source', 'event_id'])
        .execute();
      for (const row of rows) inserted.add(key(row.source, row.event_id));
    }
    // The first of the batch's copies is the one inserted; later copies are redeliveries.
    const seen = new Set<string>();
    return reports.map((report) => {
      const id = key(report.source, report.eventId);
      const fresh = inserted.has(id) && !seen.has(id);
      seen.add(id);
      return fresh;
    });
  }

  /** Moves these messages to `state` where they are not already as far on (advance, for many at once). */
  async advanceMany(tokens: string[], state: SentMessageState): Promise<void> {
    const unique = [...new Set(tokens)];
    for (let start = 0; start < unique.length; start += CHUNK)
      await this.context.db
        .updateTable('sent_messages')
        .set({ state, state_at: stamp(this.context) })
        .where('token', 'in', unique.slice(start, start + CHUNK))
        .where('state', 'in', lowerThan(state))
        .execute();
  }

  private reportRow(report: StoredReport, at: string) {
    return {
      source: report.source,
      event_id: report.eventId.slice(0, TEXT_LENGTH),
      kind: report.kind,
      token: report.token,
      code: report.code?.slice(0, 40) ?? null,
      detail: report.detail?.slice(0, TEXT_LENGTH) ?? null,
      occurred_at: report.occurredAt,
      received_at: at,
    };
  }

  /** The messages sent to a person, newest first (their history, and tests). */
  async messagesTo(signupId: string): Promise<SentMessage[]> {
    const rows = await this.context.db
      .selectFrom('sent_messages')
      .select('token')
      .where('signup_id', '=', signupId)
      .orderBy('created_at', 'desc')
      .execute();
    const found = await Promise.all(rows.map((row) => this.find({ token: row.token })));
    return found.filter((message): message is SentMessage => message !== undefined);
  }

  /** Stores a report once; false when this source already sent this one (a redelivery). */
  async store(report: StoredReport): Promise<boolean> {
    const result = await this.context.db
      .insertInto('feedback_events')
      .values(this.reportRow(report, stamp(this.context)))
      .onConflict((conflict) => conflict.columns(['source', 'event_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Moves a message to `state` unless it is already as far on (reports come in any order). True when it moved. */
  async advance(token: string, state: SentMessageState): Promise<boolean> {
    const result = await this.context.db
      .updateTable('sent_messages')
      .set({ state, state_at: stamp(this.context) })
      .where('token', '=', token)
      .where('state', 'in', lowerThan(state))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The soft-bounce rule's count for one address: the different messages that soft-bounced since
   * `since`, after the address's latest delivery (a delivery resets it).
   */
  async softBounces(addressHash: string, channel: BroadcastChannel, since: string): Promise<number> {
    const rows = await this.context.db
      .selectFrom('feedback_events')
      .innerJoin('sent_messages', 'sent_messages.token', 'feedback_events.token')
      .select(['feedback_events.kind', 'feedback_events.token', 'feedback_events.occurred_at'])
      .where('sent_messages.address_hash', '=', addressHash)
      .where('sent_messages.channel', '=', channel)
      .where('feedback_events.kind', 'in', ['soft_bounce', 'delivered'])
      .where('feedback_events.occurred_at', '>=', since)
      .orderBy('feedback_events.occurred_at')
      .execute();
    const tokens = new Set<string>();
    for (const row of rows) {
      if (row.kind === 'delivered') tokens.clear();
      else if (row.token) tokens.add(row.token);
    }
    return tokens.size;
  }

  /** How a broadcast's channel is faring: what came back about its messages, and who left during it. */
  async health(broadcastId: number, channel: BroadcastChannel, startedAt: string | null): Promise<BroadcastHealth> {
    const rows = await this.context.db
      .selectFrom('sent_messages')
      .select((eb) => ['state', eb.fn.countAll<string | number>().as('n')])
      .where('broadcast_id', '=', broadcastId)
      .where('channel', '=', channel)
      .where('purpose', '=', 'broadcast')
      .groupBy('state')
      .execute();
    const by = new Map(rows.map((row) => [row.state, Number(row.n)]));
    const count = (...states: SentMessageState[]) => states.reduce((sum, state) => sum + (by.get(state) ?? 0), 0);
    const messages = [...by.entries()].filter(([state]) => state !== 'sending').reduce((sum, [, n]) => sum + n, 0);
    let unsubscribed = 0;
    if (startedAt) {
      const row = await this.context.db
        .selectFrom('consent_events')
        .select((eb) => eb.fn.count<string | number>('consent_events.signup_id').distinct().as('n'))
        .where('consent_events.kind', 'in', channel === 'email' ? ['email_off', 'left'] : ['sms_off', 'left'])
        .where('consent_events.source', 'in', ['preferences_page', 'one_click_unsubscribe', 'sms_reply'])
        .where('consent_events.created_at', '>=', startedAt)
        .where((eb) =>
          eb(
            'consent_events.signup_id',
            'in',
            eb
              .selectFrom('broadcast_messages')
              .select('broadcast_messages.signup_id')
              .where('broadcast_messages.broadcast_id', '=', broadcastId)
              .where('broadcast_messages.channel', '=', channel),
          ),
        )
        .executeTakeFirst();
      unsubscribed = Number(row?.n ?? 0);
    }
    const share = (n: number) => (messages === 0 ? 0 : n / messages);
    const hardBounced = count('bounced');
    const complained = count('complained');
    return {
      messages,
      delivered: count('delivered'),
      hardBounced,
      softBounced: count('soft_bounced'),
      complained,
      undeliverable: count('undeliverable', 'stopped'),
      unsubscribed,
      bounceRate: share(hardBounced),
      complaintRate: share(complained),
    };
  }

  /**
   * The list's health for the owner: addresses on the suppression list by reason, and what came
   * back about the email sent since `since` (every kind of message).
   */
  async listHealth(since: string): Promise<ListHealth> {
    const reasons = await this.context.db
      .selectFrom('suppressions')
      .select((eb) => ['reason', eb.fn.count<string | number>('address_hash').distinct().as('n')])
      .groupBy('reason')
      .execute();
    const states = await this.context.db
      .selectFrom('sent_messages')
      .select((eb) => ['state', eb.fn.countAll<string | number>().as('n')])
      .where('channel', '=', 'email')
      .where('created_at', '>=', since)
      .where('state', '!=', 'sending')
      .groupBy('state')
      .execute();
    const by = new Map(states.map((row) => [row.state, Number(row.n)]));
    const messages = [...by.values()].reduce((sum, n) => sum + n, 0);
    const hardBounced = by.get('bounced') ?? 0;
    const complained = by.get('complained') ?? 0;
    return {
      suppressed: Object.fromEntries(reasons.map((row) => [row.reason, Number(row.n)])),
      messages,
      hardBounced,
      complained,
      bounceRate: messages === 0 ? 0 : hardBounced / messages,
      complaintRate: messages === 0 ? 0 : complained / messages,
    };
  }
}

/** A broadcast channel's figures: what came back, and the shares the limits are read against. */
export interface BroadcastHealth {
  /** Messages that left or were refused during the send. */
  messages: number;
  delivered: number;
  hardBounced: number;
  softBounced: number;
  complained: number;
  /** Texts: numbers that cannot get texts, and STOPs the provider told us of. */
  undeliverable: number;
  /** People who turned this channel off, or left, since the broadcast started. */
  unsubscribed: number;
  /** Hard bounces and complaints as shares of `messages` (0 to 1). */
  bounceRate: number;
  complaintRate: number;
}

/** The list's health: the suppression list by reason, and the recent email's bounce and complaint rates. */
export interface ListHealth {
  /** Addresses (their hashes) suppressed, by reason: left, deleted, sms_stop, undeliverable, bounced, complained. */
  suppressed: Partial<Record<string, number>>;
  messages: number;
  hardBounced: number;
  complained: number;
  bounceRate: number;
  complaintRate: number;
}
