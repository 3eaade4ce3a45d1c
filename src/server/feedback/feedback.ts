// What comes back after a send, acted on in one place (docs/messaging.md, "Hearing back"): each
// report is matched to one message by our signed token (or the provider's id for the message we
// recorded), stored once, and then: a hard bounce suppresses that email; a complaint stops all email
// to the person; three soft bounces on different sends within 30 days, with no delivery between,
// count as a bounce; a text's STOP (21610) is their STOP; an unknown number or a landline (30005,
// 30006) marks the number undeliverable; carriers filtering us (30007) pause the broadcast's texts,
// the owner's problem, not the person's. A report we cannot match to a message of ours changes
// nothing: it is kept, for the owner, never matched by a bare address.
import type { MessageTokens } from '../consent/message-tokens.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import type { FeedbackRepository, SentMessage } from '../db/feedback-repository.js';
import type { ConsentRepository } from '../db/consent-repository.js';
import type { OutboxRepository } from '../db/outbox-repository.js';
import type { ConsentKind, SuppressionReason } from '../db/consent.table.js';
import type { SentMessageState } from '../db/feedback.table.js';
import type { FeedbackEvent, FeedbackKind } from './feedback-event.js';

/** Soft bounces on different sends, within this window and with no delivery between, make a bounce. */
export const SOFT_BOUNCES_TO_SUPPRESS = 3;
export const SOFT_BOUNCE_WINDOW_MS = 30 * 86_400_000;

/** What a report does to the message's state. */
const STATE_OF: Partial<Record<FeedbackKind, SentMessageState>> = {
  sent: 'sent',
  delivered: 'delivered',
  hard_bounce: 'bounced',
  soft_bounce: 'soft_bounced',
  complaint: 'complained',
  undeliverable: 'undeliverable',
  stop: 'stopped',
  filtered: 'filtered',
};

export interface FeedbackOutcome {
  /** Stored and acted on. */
  stored: number;
  /** Already stored (the provider sent it again). */
  duplicates: number;
  /** Kept, but about no message of ours (an unsigned or forged token, an id we never sent). */
  unmatched: number;
}

/** Where the reports' effects are written: the consent log, the suppression list, a broadcast's pauses. */
export interface FeedbackOptions {
  store: FeedbackRepository;
  consent: ConsentRepository;
  /** For a STOP: every form of the number, as a STOP text does it. */
  subscriptions: Subscriptions;
  outbox: OutboxRepository;
  tokens: MessageTokens;
  now?: () => Date;
}

export class Feedback {
  private readonly now: () => Date;

  constructor(private readonly options: FeedbackOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Stores these reports once each and acts on the new ones. */
  async receive(events: FeedbackEvent[]): Promise<FeedbackOutcome> {
    const outcome: FeedbackOutcome = { stored: 0, duplicates: 0, unmatched: 0 };
    for (const event of events) {
      const message = await this.match(event);
      const fresh = await this.options.store.store({
        source: event.source,
        eventId: event.eventId,
        kind: event.kind,
        token: message?.token ?? null,
        code: event.code ?? null,
        detail: event.detail ?? null,
        occurredAt: validTime(event.occurredAt) ?? this.now().toISOString(),
      });
      if (!fresh) outcome.duplicates += 1;
      else if (!message) outcome.unmatched += 1;
      else {
        outcome.stored += 1;
        await this.act(event, message);
      }
    }
    return outcome;
  }

  /** The message a report is about: by a token only we could have issued, else by the provider's ids. */
  private async match(event: FeedbackEvent): Promise<SentMessage | undefined> {
    const { token, providerId, messageId } = event.message;
    const { store, tokens } = this.options;
    if (token) {
      // A token that is not ours is a forgery or a mistake: never fall back to anything else.
      if (!tokens.verify(token)) return undefined;
      return store.find({ token: token.toLowerCase() });
    }
    if (providerId) return store.find({ providerId });
    if (messageId) return store.find({ messageId });
    return undefined;
  }

  private async act(event: FeedbackEvent, message: SentMessage): Promise<void> {
    const state = STATE_OF[event.kind];
    if (state) await this.options.store.advance(message.token, state);
    switch (event.kind) {
      case 'hard_bounce':
        return this.suppress(message, 'bounced', 'email_bounced');
      case 'complaint':
        return this.suppress(message, 'complained', 'email_complained');
      case 'soft_bounce': {
        if (!message.addressHash) return;
        const since = new Date(this.now().getTime() - SOFT_BOUNCE_WINDOW_MS).toISOString();
        const count = await this.options.store.softBounces(message.addressHash, message.channel, since);
        if (count >= SOFT_BOUNCES_TO_SUPPRESS)
          await this.suppress(
            message,
            message.channel === 'email' ? 'bounced' : 'undeliverable',
            message.channel === 'email' ? 'email_bounced' : 'sms_undeliverable',
          );
        return;
      }
      case 'undeliverable':
        return this.suppress(
          message,
          'undeliverable',
          message.channel === 'email' ? 'email_undeliverable' : 'sms_undeliverable',
        );
      case 'stop':
        if (message.channel === 'sms') await this.stop(message);
        return;
      case 'filtered':
        // Carriers filter our texts: ours to fix, never the person's. A broadcast's texts pause. (An
        // email refused or filed as spam by one receiving server is recorded and shown, not acted on.)
        if (message.broadcastId !== null && message.channel === 'sms')
          await this.options.outbox.pauseChannel(message.broadcastId, 'sms', {
            cause: 'sender',
            reason:
              'Carriers are filtering our texts (Twilio 30007): register the number for A2P 10DLC or use a verified toll-free number in the Twilio console, then resume.',
            answer: event.detail ?? event.code ?? null,
          });
        return;
      default:
        return; // delivered, delayed, sent, queued: recorded
    }
  }

  /** The address the message went to, suppressed for this reason; the person's history says why. */
  private async suppress(message: SentMessage, reason: SuppressionReason, event: ConsentKind): Promise<void> {
    if (!message.addressHash) return;
    await this.options.consent.suppressByReport(
      message.signupId,
      {
        kind: message.channel === 'email' ? 'email' : 'phone',
        hash: message.addressHash,
        reason,
        source: 'provider_report',
      },
      event,
    );
  }

  /** The number replied STOP to our sender: their STOP, for everyone who gave it. */
  private async stop(message: SentMessage): Promise<void> {
    if (!message.addressHash) return;
    const person = message.signupId ? await this.options.consent.subscriber(message.signupId) : undefined;
    const suppression = {
      kind: 'phone' as const,
      hash: message.addressHash,
      reason: 'sms_stop' as const,
      source: 'provider_report' as const,
    };
    if (person) await this.options.subscriptions.stopTexts(person.phone, 'provider_report');
    else await this.options.consent.suppressByReport(null, suppression, 'sms_off');
  }
}

function validTime(text: string): string | undefined {
  const at = Date.parse(text);
  return Number.isFinite(at) ? new Date(at).toISOString() : undefined;
}
