// The message log: every message sent, by its signed token, recorded just before it leaves and moved
// on by what comes back (docs/messaging.md, "Hearing back"). A message's state only moves forward,
// whatever order the reports arrive in. Written once with Kysely for SQLite and PostgreSQL.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { iso } from './column-types.js';
import type { Database } from './database.js';
import type { MessagePurpose, SentMessageState } from './sent-messages.table.js';
import type { Channel } from './message-channels.js';
import { CHUNK, stamp, TEXT_LENGTH, type QueryContext } from './sql-dialect.js';

/** A message as the reports about it need it. */
export interface SentMessage {
  token: string;
  channel: Channel;
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
  channel: Channel;
  purpose: MessagePurpose;
  signupId: string | null;
  broadcastId?: number | null;
  outboxId?: number | null;
  addressHash?: string | null;
  messageId?: string | null;
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

export class SentMessagesRepository {
  constructor(private readonly context: QueryContext) {}

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
  sent(token: string, outcome: { state: 'sent' | 'failed'; providerId?: string; messageId?: string }): Promise<void> {
    return this.sentMany([{ token, ...outcome }]);
  }

  /**
   * Many sends' outcomes, one statement per state (the messages a sender sent at once): each message's
   * state, and the provider's ids where the send gave them (kept as they were where it did not).
   */
  sentMany(outcomes: SendOutcomeIds[]): Promise<void> {
    return markSent(this.context.db, this.context, outcomes);
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

  /** The messages sent to a person, newest first (their history, and tests). */
  /**
   * Which of these address hashes a message of these broadcasts on this channel went to (sending, or
   * anything after it but a refusal): the address it went to then, whatever the record holds now.
   */
  async addressesSent(broadcastIds: number[], channel: Channel, hashes: string[]): Promise<string[]> {
    if (broadcastIds.length === 0 || hashes.length === 0) return [];
    const rows = await this.context.db
      .selectFrom('sent_messages')
      .select('address_hash')
      .distinct()
      .where('broadcast_id', 'in', broadcastIds)
      .where('channel', '=', channel)
      .where('address_hash', 'in', [...new Set(hashes)])
      .where('state', '!=', 'failed')
      .execute();
    return rows.flatMap((row) => (row.address_hash === null ? [] : [row.address_hash]));
  }

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

  /**
   * A broadcast's messages a report said never arrived (bounced, or the address cannot be reached):
   * their outbox rows, for `retry` once the owner has lifted a suppression that was our fault.
   */
  async reportedGone(broadcastId: number): Promise<{ outboxId: number; signupId: string; channel: Channel }[]> {
    const rows = await this.context.db
      .selectFrom('sent_messages')
      .select(['outbox_id', 'signup_id', 'channel'])
      .where('broadcast_id', '=', broadcastId)
      .where('purpose', '=', 'broadcast')
      .where('state', 'in', ['bounced', 'undeliverable'])
      .where('outbox_id', 'is not', null)
      .where('signup_id', 'is not', null)
      .execute();
    return rows.map((row) => ({
      outboxId: Number(row.outbox_id),
      signupId: String(row.signup_id),
      channel: row.channel,
    }));
  }
}

/** A send's outcome as the message log keeps it: its state, and the provider's ids where it gave them. */
export interface SendOutcomeIds {
  token: string;
  state: 'sent' | 'failed';
  providerId?: string | undefined;
  messageId?: string | undefined;
}

/**
 * Writes sends' outcomes into the message log, one statement per state: in the caller's transaction
 * where it has one (the outbox's record of what became of the same messages, one write for both).
 */
export async function markSent(
  db: Kysely<Database> | Transaction<Database>,
  context: Pick<QueryContext, 'dialect' | 'now'>,
  outcomes: SendOutcomeIds[],
): Promise<void> {
  const at = stamp(context);
  // PostgreSQL types a CASE's parameters from the column only with a cast.
  const cast = context.dialect.engine === 'postgres' ? sql.raw('::text') : sql``;
  const given = (column: 'provider_id' | 'message_id', pairs: [string, string][]) =>
    pairs.length === 0
      ? sql<string | null>`${sql.ref(column)}`
      : sql<string | null>`(CASE token ${sql.join(
          pairs.map(([token, value]) => sql`WHEN ${token} THEN ${value.slice(0, TEXT_LENGTH)}${cast}`),
          sql` `,
        )} ELSE ${sql.ref(column)} END)`;
  for (const state of ['sent', 'failed'] as const) {
    const these = outcomes.filter((outcome) => outcome.state === state);
    for (let start = 0; start < these.length; start += CHUNK) {
      const chunk = these.slice(start, start + CHUNK);
      const ids = (key: 'providerId' | 'messageId') =>
        chunk.flatMap((outcome): [string, string][] => {
          const value = key === 'messageId' ? outcome.messageId?.replace(/^<|>$/g, '') : outcome.providerId;
          return value ? [[outcome.token, value]] : [];
        });
      await db
        .updateTable('sent_messages')
        .set({
          state,
          state_at: at,
          provider_id: given('provider_id', ids('providerId')),
          message_id: given('message_id', ids('messageId')),
        })
        .where(
          'token',
          'in',
          chunk.map((outcome) => outcome.token),
        )
        .where('state', '=', 'sending')
        .execute();
    }
  }
}
