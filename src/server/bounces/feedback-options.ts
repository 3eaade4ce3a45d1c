// What acting on reports is given and answers (act-on-reports.ts): the stores it writes, the
// broadcast pauses it may set (declared here, handed over by compose.ts), and a request's outcome.
import type { MessageTokens } from '../messaging/message-tokens.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import type { FeedbackEventsRepository } from '../db/feedback-events-repository.js';
import type { SentMessagesRepository } from '../db/sent-messages-repository.js';
import type { OptOutsRepository } from '../db/opt-outs-repository.js';
import type { SubscribersRepository } from '../db/subscribers-repository.js';
import type { PauseCause } from '../db/broadcast-pauses.table.js';
import type { WebhookSignaturesRepository } from '../db/webhook-signatures-repository.js';

export interface FeedbackOutcome {
  /** Stored and acted on. */
  stored: number;
  /** Already stored (the provider sent it again). */
  duplicates: number;
  /** Kept, but about no message of ours (an unsigned or forged token, an id we never sent). */
  unmatched: number;
  /** The request's signature token was used before with another body: nothing of it was read. */
  replayed?: true;
}

/**
 * What acting on reports needs of the broadcast feature, which owns the pauses: a broadcast's texts
 * paused for a failure of ours (compose.ts hands it the broadcasts' pauses; bounces never reads them).
 */
export interface BroadcastPauser {
  pauseChannel(
    broadcastId: number,
    channel: 'sms',
    pause: { cause: PauseCause; reason: string; answer?: string | null },
  ): Promise<unknown>;
}

/** Where the reports are stored and their effects written: the message log, the consent log, the suppression list, a broadcast's pauses. */
export interface FeedbackOptions {
  sentMessages: Pick<SentMessagesRepository, 'find' | 'findByTokens' | 'advance' | 'advanceMany'>;
  feedbackEvents: Pick<FeedbackEventsRepository, 'storeMany' | 'softBounces' | 'acted' | 'waitingToAct'>;
  subscribers: Pick<SubscribersRepository, 'subscriber'>;
  optOuts: Pick<OptOutsRepository, 'suppressByReport'>;
  /** For a STOP: every form of the number, as a STOP text does it. */
  subscriptions: Subscriptions;
  pauses: BroadcastPauser;
  tokens: MessageTokens;
  /** Where signature tokens that do not cover the body are remembered (Mailgun's): needed to receive them. */
  signatures?: Pick<WebhookSignaturesRepository, 'useMany'>;
  /**
   * Runs a batch's checks and writes (the signatures, the progress moves, the store) as one
   * transaction on stores bound to it: one commit a batch (Db.reportsTransaction). Without it, each
   * write is its own, on the stores above.
   */
  transaction?: <T>(work: (stores: BatchStores) => Promise<T>) => Promise<T>;
  now?: () => Date;
}

/** The four stores a Feedback reads and writes, as one database holds them. */
export function feedbackStores(
  db: Pick<FeedbackOptions, 'sentMessages' | 'feedbackEvents' | 'subscribers' | 'optOuts'>,
): Pick<FeedbackOptions, 'sentMessages' | 'feedbackEvents' | 'subscribers' | 'optOuts'> {
  return {
    sentMessages: db.sentMessages,
    feedbackEvents: db.feedbackEvents,
    subscribers: db.subscribers,
    optOuts: db.optOuts,
  };
}

/** What a batch is stored with, in one transaction where the database offers it. */
export interface BatchStores {
  sentMessages: Pick<SentMessagesRepository, 'find' | 'findByTokens' | 'advanceMany'>;
  feedbackEvents: Pick<FeedbackEventsRepository, 'storeMany'>;
  signatures?: Pick<WebhookSignaturesRepository, 'useMany'>;
}
