// One rate per channel (issue 54): the most messages a second the provider takes from us
// (BROADCAST_EMAIL_RATE, BROADCAST_SMS_RATE), kept by every message on that channel, not only by a
// broadcast. A rush of sign-ups sends its confirmation emails and joining texts no faster than the
// provider allows (Amazon SES answers "Maximum sending rate exceeded" above it; Twilio queues, then
// refuses with 30001). While a broadcast is sent on a channel, its senders take all of the rate but
// OWN_SHARE, and the product's own messages (confirmations, reminders, joining texts) keep that share,
// so the launch never crowds out someone signing up that minute, and the two together never exceed it.
import { CHANNELS, type Channel } from '../db/message-channels.js';
import type { EmailSender } from './email-sender.js';
import { RateLimiter } from './send-rate.js';
import type { SmsProvider } from './sms-provider.js';

/** The share of a channel's rate the product's own messages keep while a broadcast is sent on it. */
export const OWN_SHARE = 0.1;

/** How long a broadcast sender may go unheard before the own messages take the whole rate back. */
const HEARD_WITHIN_MS = 15_000;
/** How often the channels being broadcast on are looked up again (each is one small query). */
const LOOK_EVERY_MS = 5_000;

/** The channels a broadcast is being sent on now (db/broadcast-senders-repository.ts channelsSending). */
export type ChannelsSending = (heardSince: Date) => Promise<Set<Channel>>;

/**
 * The rates every sender of the product's own messages in this process takes its turn from: one
 * limiter per channel, shared by all of them, at the channel's rate, or at OWN_SHARE of it while a
 * broadcast is sent on it. (Each server keeps to it on its own: see docs/launch-day.md for several.)
 */
export class ChannelRates {
  private readonly limiters: Record<Channel, RateLimiter>;
  private lookedAt = -Infinity;
  private looking: Promise<void> | undefined;

  constructor(
    private readonly rates: Record<Channel, number>,
    private readonly channelsSending?: ChannelsSending,
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.limiters = { email: new RateLimiter(rates.email), sms: new RateLimiter(rates.sms) };
  }

  /** Resolves when one more message may go on `channel`. */
  async take(channel: Channel): Promise<void> {
    await this.lookAgain();
    await this.limiters[channel].take();
  }

  /** This channel's rate for the own messages now, a second. */
  perSecond(channel: Channel): number {
    return this.limiters[channel].perSecond;
  }

  /** Looks up which channels a broadcast takes, at most every LOOK_EVERY_MS; a failed look keeps the rates as they were. */
  private lookAgain(): Promise<void> {
    if (!this.channelsSending || this.clock() - this.lookedAt < LOOK_EVERY_MS) return Promise.resolve();
    this.looking ??= this.channelsSending(new Date(this.clock() - HEARD_WITHIN_MS))
      .then((sending) => {
        for (const channel of CHANNELS)
          this.limiters[channel].setRate(this.rates[channel] * (sending.has(channel) ? OWN_SHARE : 1));
      })
      .catch(() => undefined)
      .finally(() => {
        this.lookedAt = this.clock();
        this.looking = undefined;
      });
    return this.looking;
  }
}

/** An email transport whose every message first takes its turn at the channel's rate. */
export function ratedEmail(email: EmailSender, rates: Pick<ChannelRates, 'take'>): EmailSender {
  return {
    send: async (message) => {
      await rates.take('email');
      return email.send(message);
    },
    sendRaw: async (message) => {
      await rates.take('email');
      return email.sendRaw(message);
    },
    verify: () => email.verify(),
    close: () => email.close(),
  };
}

/** A text provider's send that first takes its turn at the channel's rate. */
export function ratedTexts(
  sms: Pick<SmsProvider, 'send'>,
  rates: Pick<ChannelRates, 'take'>,
): Pick<SmsProvider, 'send'> {
  return {
    send: async (text) => {
      await rates.take('sms');
      return sms.send(text);
    },
  };
}
