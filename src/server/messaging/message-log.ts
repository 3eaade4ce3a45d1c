// Every message we send, recorded with its signed token just before it leaves (so a report that
// comes back at once finds it) and its provider's ids once it has: what comes back later (a
// bounce, a complaint, a delivery receipt) is matched to this one message and one person
// (docs/messaging.md, "Hearing back"). Each email carries the token in a header (and, with
// BOUNCE_ADDRESS, in its envelope sender), a Feedback-ID for Gmail's Postmaster Tools, and the
// headers that make the providers in use hand the token back; each text, a status-callback URL.
import type { FeedbackConfig } from '../messaging-config.js';
import type { Channel } from '../db/message-channels.js';
import type { FeedbackEventsRepository } from '../db/feedback-events-repository.js';
import type { SendingMessage, SentMessagesRepository } from '../db/sent-messages-repository.js';
import type { FailureVerdict } from './send-failure.js';
import { verpAddress, type MessageTokens } from './message-tokens.js';

/** The header every email carries its token in. */
export const TOKEN_HEADER = 'X-ScamSavvy-Token';

/** What a message about to leave carries. */
export interface OutgoingMessage {
  token: string;
  /** For an email: the token, Feedback-ID and the providers' tag headers. */
  headers: Record<string, string>;
  /** For an email with BOUNCE_ADDRESS: bounces+<token>@… (VERP). */
  envelopeFrom?: string;
  /** For a text: where Twilio reports what became of it. */
  statusCallback: string;
}

/** What the log writes: the messages, and the refusals heard during a send (as reports). */
export interface MessageLogStore {
  sentMessages: Pick<SentMessagesRepository, 'sending' | 'sent' | 'sentMany' | 'advance'>;
  feedbackEvents: Pick<FeedbackEventsRepository, 'store'>;
}

export interface MessageLogOptions {
  store: MessageLogStore;
  tokens: MessageTokens;
  siteUrl: string;
  feedback?: FeedbackConfig;
  /** The headers that make the providers' webhooks hand our token back (composed by server/compose-reports.ts). */
  tagHeaders?: (token: string) => Record<string, string>;
}

/** Gmail's Feedback-ID: campaign, kind, and our sender id last (no colons inside the parts). */
export function feedbackId(campaign: string, kind: string): string {
  const clean = (part: string) => part.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 60);
  return `${clean(campaign)}:${clean(kind)}:scamsavvy`;
}

type Beginning = Omit<SendingMessage, 'token'> & { feedbackId: string };
type SentIds = { providerId?: string | undefined; messageId?: string | undefined };

export class MessageLog {
  /**
   * The messages one sender (or several) began, and the sends that ended, in this turn of the event
   * loop: each kind written in one statement at the turn's end, not one each. A sender's three sends
   * at a time cost the database two writes, not six (the sending thread's time went to waiting for
   * SQLite's write lock between them).
   */
  private beginning: {
    message: Beginning;
    resolve: (outgoing: OutgoingMessage) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private ended: { token: string; ids: SentIds; resolve: () => void }[] = [];

  constructor(private readonly options: MessageLogOptions) {}

  /** Records a message about to leave and says what it carries (written with the others begun this turn). */
  begin(message: Beginning): Promise<OutgoingMessage> {
    return new Promise((resolve, reject) => {
      if (this.beginning.length === 0) setImmediate(() => void this.beginAll());
      this.beginning.push({ message, resolve, reject });
    });
  }

  private async beginAll(): Promise<void> {
    const batch = this.beginning.splice(0);
    try {
      const outgoing = await this.beginMany(batch.map(({ message }) => message));
      batch.forEach(({ resolve }, index) => resolve(outgoing[index]!));
    } catch (error) {
      // Not one of them may wait for ever: each send fails as it would have alone.
      for (const { reject } of batch) reject(error);
    }
  }

  /**
   * Records a batch of messages about to leave, in one write, and says what each carries (in the
   * same order). A message that then does not leave (its channel paused) is dropped from the log
   * when the sender records its outcome.
   */
  async beginMany(messages: (Omit<SendingMessage, 'token'> & { feedbackId: string })[]): Promise<OutgoingMessage[]> {
    const { store, tokens, siteUrl, feedback, tagHeaders } = this.options;
    const issued = messages.map(({ feedbackId: campaign, ...recorded }) => ({
      campaign,
      recorded,
      token: tokens.issue(),
    }));
    // Best effort: a database blip must never stop a message, nor make one go twice. Without its
    // record, a report about it matches nothing (kept as unmatched, acted on never).
    await store.sentMessages
      .sending(issued.map(({ recorded, token }) => ({ ...recorded, token })))
      .catch(() => undefined);
    const bounceAddress = feedback?.bounceAddress;
    return issued.map(({ campaign, token }) => ({
      token,
      headers: { [TOKEN_HEADER]: token, 'Feedback-ID': campaign, ...(tagHeaders?.(token) ?? {}) },
      ...(bounceAddress ? { envelopeFrom: verpAddress(bounceAddress, token) } : {}),
      statusCallback: `${siteUrl}/api/sms/status?t=${token}`,
    }));
  }

  /** It left: the provider took it (written with the others that left this turn). */
  sent(token: string, ids: SentIds): Promise<void> {
    return new Promise((resolve) => {
      if (this.ended.length === 0) setImmediate(() => void this.sentAll());
      this.ended.push({ token, ids, resolve });
    });
  }

  private async sentAll(): Promise<void> {
    const batch = this.ended.splice(0);
    // They have left: a failure to note their ids must not look like a failed send (that would send them again).
    await this.options.store.sentMessages
      .sentMany(batch.map(({ token, ids }) => ({ token, state: 'sent' as const, ...ids })))
      .catch(() => undefined);
    for (const { resolve } of batch) resolve();
  }

  /**
   * It was refused during the send. The recipient kind (the server refused the address at RCPT or
   * DATA) is a bounce at once: stored as a report from the SMTP session (or the text provider), so it
   * counts in the broadcast's health like any later bounce.
   */
  async refused(token: string, channel: Channel, verdict: FailureVerdict, answer: string): Promise<void> {
    // Best effort, as sent(): the outcome the sender records is what must not be lost.
    await this.recordRefusal(token, channel, verdict, answer).catch(() => undefined);
  }

  private async recordRefusal(token: string, channel: Channel, verdict: FailureVerdict, answer: string): Promise<void> {
    const { store } = this.options;
    await store.sentMessages.sent(token, { state: 'failed' });
    if (verdict.kind !== 'recipient') return;
    const kind = channel === 'email' ? 'hard_bounce' : verdict.stop ? 'stop' : 'undeliverable';
    await store.feedbackEvents.store({
      source: channel === 'email' ? 'smtp' : 'twilio',
      eventId: `${token}:refused`,
      kind,
      token,
      code: answer.match(/\b[245]\.\d{1,3}\.\d{1,3}\b/)?.[0] ?? answer.match(/\b\d{3,5}\b/)?.[0] ?? null,
      detail: answer,
      occurredAt: new Date().toISOString(),
    });
    await store.sentMessages.advance(
      token,
      kind === 'hard_bounce' ? 'bounced' : kind === 'stop' ? 'stopped' : 'undeliverable',
    );
  }
}
