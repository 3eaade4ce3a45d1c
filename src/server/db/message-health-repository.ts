// How the messages are faring, for the pause rules and the owner: what came back about a
// broadcast's channel, and the list's health (the suppression list by reason, recent bounce and
// complaint rates). Reads the message log, the consent log and the suppressions; writes nothing.
import { liveRows } from './suppressions-repository.js';
import type { SentMessageState } from './sent-messages.table.js';
import type { Channel } from './message-channels.js';
import type { QueryContext } from './sql-dialect.js';

/** States of a message no provider took: still leaving, or refused during the send for a reason not the person's. */
const NOT_TAKEN: SentMessageState[] = ['sending', 'failed'];

export class MessageHealthRepository {
  constructor(private readonly context: QueryContext) {}

  /** How a broadcast's channel is faring: what came back about its messages, and who left during it. */
  async health(broadcastId: number, channel: Channel, startedAt: string | null): Promise<BroadcastHealth> {
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
    // Over the messages the provider took: one refused during the send for a fault of ours (an
    // outage, our sign-in) never arrived anywhere, and must not dilute the rates.
    const messages = [...by.entries()]
      .filter(([state]) => !NOT_TAKEN.includes(state))
      .reduce((sum, [, n]) => sum + n, 0);
    let unsubscribed = 0;
    if (startedAt) {
      const row = await this.context.db
        .selectFrom('consent_events')
        .select((eb) => eb.fn.count<string | number>('consent_events.signup_id').distinct().as('n'))
        .where('consent_events.kind', 'in', channel === 'email' ? ['email_off', 'left'] : ['sms_off', 'left'])
        .where('consent_events.source', 'in', [
          'preferences_page',
          'one_click_unsubscribe',
          'sms_reply',
          'provider_report',
        ])
        .where('consent_events.created_at', '>=', startedAt)
        .where((eb) =>
          eb(
            'consent_events.signup_id',
            'in',
            eb
              .selectFrom('outbox')
              .select('outbox.signup_id')
              .where('outbox.broadcast_id', '=', broadcastId)
              .where('outbox.channel', '=', channel),
          ),
        )
        .executeTakeFirst();
      unsubscribed = Number(row?.n ?? 0);
    }
    const authFailures = await this.authFailures({ broadcastId, channel });
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
      authFailures,
    };
  }

  /**
   * Reports that our email failed a receiving server's SPF, DKIM or DMARC check (RFC 6591), about
   * the messages `which` picks, by the check and our domain it named: the earliest warning that
   * launch mail will be refused.
   */
  private async authFailures({
    broadcastId,
    channel,
    since,
  }: {
    broadcastId?: number;
    channel: Channel;
    since?: string;
  }): Promise<AuthFailure[]> {
    const rows = await this.context.db
      .selectFrom('feedback_events')
      .innerJoin('sent_messages', 'sent_messages.token', 'feedback_events.token')
      .select((eb) => [
        'feedback_events.code as mechanism',
        'feedback_events.detail as domain',
        eb.fn.countAll<string | number>().as('n'),
      ])
      .where('feedback_events.kind', '=', 'auth_failure')
      .where('sent_messages.channel', '=', channel)
      .$if(broadcastId !== undefined, (query) => query.where('sent_messages.broadcast_id', '=', broadcastId!))
      .$if(since !== undefined, (query) => query.where('sent_messages.created_at', '>=', since!))
      .groupBy(['feedback_events.code', 'feedback_events.detail'])
      .orderBy('n', 'desc')
      .execute();
    return rows.map((row) => ({
      mechanism: row.mechanism ?? 'unknown',
      domain: row.domain ?? '',
      reports: Number(row.n),
    }));
  }

  /**
   * The list's health for the owner: addresses on the suppression list by reason, and what came
   * back about the email sent since `since` (every kind of message).
   */
  async listHealth(since: string): Promise<ListHealth> {
    const reasons = await liveRows(this.context.db)
      .select((eb) => ['s.reason as reason', eb.fn.count<string | number>('s.address_hash').distinct().as('n')])
      .groupBy('s.reason')
      .execute();
    const states = await this.context.db
      .selectFrom('sent_messages')
      .select((eb) => ['state', eb.fn.countAll<string | number>().as('n')])
      .where('channel', '=', 'email')
      .where('created_at', '>=', since)
      .where('state', 'not in', NOT_TAKEN)
      .groupBy('state')
      .execute();
    const by = new Map(states.map((row) => [row.state, Number(row.n)]));
    const messages = [...by.values()].reduce((sum, n) => sum + n, 0);
    const authFailures = await this.authFailures({ channel: 'email', since });
    const hardBounced = by.get('bounced') ?? 0;
    const complained = by.get('complained') ?? 0;
    return {
      suppressed: Object.fromEntries(reasons.map((row) => [row.reason, Number(row.n)])),
      messages,
      hardBounced,
      complained,
      bounceRate: messages === 0 ? 0 : hardBounced / messages,
      complaintRate: messages === 0 ? 0 : complained / messages,
      authFailures,
    };
  }
}

/** Reports that our email failed a check, by the check (dkim, spf, dmarc) and the domain named. */
export interface AuthFailure {
  mechanism: string;
  domain: string;
  reports: number;
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
  /** Receiving servers' reports that our email failed SPF, DKIM or DMARC (never the person's fault). */
  authFailures: AuthFailure[];
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
  authFailures: AuthFailure[];
}
