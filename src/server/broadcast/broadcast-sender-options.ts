// What a broadcast's sender is given and what it reports back: its options (rates, tries, the
// give-up time, the health limits), its report, and the limits of its pause rules (decision 027).
import { hostname } from 'node:os';
import type { Subscriptions } from '../consent/subscriptions.js';
import type { MessageHealthRepository } from '../db/message-health-repository.js';
import type { ChannelPause } from '../db/broadcast-pauses-repository.js';
import type { BroadcastDb } from '../db/open-database.js';
import type { Channel } from '../db/message-channels.js';
import type { EmailSender } from '../messaging/email-sender.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import type { MessageLog } from '../messaging/message-log.js';
import type { SmsProvider } from '../messaging/sms-provider.js';
import type { Audience } from './eligibility.js';
import { SENDER_STALE_MS } from './broadcast-rules.js';
import type { TextTiming } from '../messaging/text-hours.js';

export interface BroadcastSenderOptions {
  store: BroadcastDb;
  subscriptions: Subscriptions;
  links: LinkSigner;
  siteUrl: string;
  /** MAIL_FROM, and the list's id and name for the list headers. */
  mailFrom?: string;
  listId: string;
  listName: string;
  email?: EmailSender;
  sms?: SmsProvider;
  /** Records each message with its token, for what comes back (unset: nothing is recorded). */
  log?: MessageLog;
  /** What came back about the messages: the broadcast pauses itself when the rates would hurt the domain. */
  health?: { store: Pick<MessageHealthRepository, 'health'>; maxBounceRate: number; maxComplaintRate: number };
  /** Messages per second on each channel, for all of this broadcast's senders together. */
  rates: Record<Channel, number>;
  /** Tries per message while the channel otherwise gets through: one person's server down for long. */
  maxAttempts: number;
  /**
   * A channel that has failed "for now" this long with nothing getting through pauses, with the
   * reason, instead of giving anyone up (BROADCAST_GIVE_UP_AFTER_SECONDS).
   */
  giveUpMs?: number;
  /** The clock a channel's outage is measured on, in ms (the give-up rule; a test drives its own). */
  now?: () => number;
  /** Whether the audience must have confirmed (as when the broadcast was created). */
  audience: Audience;
  retryBaseMs?: number;
  maxRetryMs?: number;
  heartbeatMs?: number;
  /** A sender not heard from for this long is taken for dead (on another machine; on this one, its process is checked). */
  staleMs?: number;
  senderId?: string;
  host?: string;
  pid?: number;
  random?: () => number;
  /** Most messages claimed at once per channel (also the most that can be "unknown" if this sender is killed). */
  maxBatch?: number;
  /** Tries at writing a batch's outcomes before the sender gives up (8: about 30 s of database outage). */
  recordAttempts?: number;
  /**
   * When a text may reach its person (messaging/text-hours.ts): a text outside the hours at their
   * location, or over their state's 24-hour cap, waits in the queue; unset, texts go at once.
   */
  textTiming?: TextTiming;
}

export interface SenderReport {
  /**
   * finished: nothing left to send; paused: the owner paused it, or a failure of ours paused its
   * channels (`pauses` says why); stopped: asked to stop (Ctrl-C); waiting: others still send;
   * texts-wait: all that is left is texts held for daytime (or a cap), which go by themselves.
   */
  ended: 'finished' | 'paused' | 'stopped' | 'waiting' | 'texts-wait';
  /** Texts held until they may reach their person, and when the first may go (ISO). */
  waitingTexts: { count: number; next: string | undefined };
  /** The channels a failure of ours paused, and why, when it ended. */
  pauses: ChannelPause[];
  sent: number;
  failedTemporary: number;
  failedPermanent: number;
  skipped: number;
  /** Rows of senders found dead, marked unknown by this one. */
  markedUnknown: number;
  latency: { p50: number; p99: number; count: number };
}

/** The health rule reads the rates only after this many messages: fewer say little. */
export const HEALTH_MINIMUM = 1_000;

/** The options with every default filled in, as a sender runs with them. */
export type SenderSettings = Required<
  Omit<
    BroadcastSenderOptions,
    'mailFrom' | 'email' | 'sms' | 'log' | 'health' | 'senderId' | 'host' | 'pid' | 'textTiming'
  >
> &
  BroadcastSenderOptions & { host: string; pid: number };

export function withDefaults(options: BroadcastSenderOptions): SenderSettings {
  return {
    retryBaseMs: 30_000,
    maxRetryMs: 60 * 60_000,
    giveUpMs: 30 * 60_000,
    now: Date.now,
    heartbeatMs: 2_000,
    staleMs: SENDER_STALE_MS,
    random: Math.random,
    maxBatch: 200,
    recordAttempts: 8,
    host: hostname(),
    pid: process.pid,
    ...options,
  };
}

/** A sender's report before it has done anything. */
export const emptyReport = (): SenderReport => ({
  ended: 'stopped',
  pauses: [],
  sent: 0,
  failedTemporary: 0,
  failedPermanent: 0,
  skipped: 0,
  markedUnknown: 0,
  latency: { p50: 0, p99: 0, count: 0 },
  waitingTexts: { count: 0, next: undefined },
});
