// The composition root: the one place that says what the product is made of and builds each part
// once per process, from the settings (docs/architecture.md, "What the server is made of"). The
// server (index.ts), the owner commands that send, the tests' app (buildTestApp), the broadcast tests'
// world and bench:broadcast start here; no part builds another's (BroadcastControl opens its
// providers through openTransports).
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { openDatabase, type Db } from './db/open-database.js';
import { holdDatabaseInUse } from './db/database-in-use.js';
import { checkSecretKey } from './messaging/secret-key-check.js';
import { createMessaging, type Messaging, type MessagingOverrides } from './compose-messaging.js';
import { configuredWebhooks, createFeedbackParts, tagHeadersFor, type FeedbackParts } from './compose-reports.js';
import { BroadcastControl } from './broadcast/broadcast-control.js';
import type { OpenTransports, SenderLogger } from './broadcast/start-rules.js';
import { transportsFrom } from './broadcast/broadcasts.js';
import { createSignInMailer, type SignInMailer } from './owner/sign-in-mailer.js';
import { ChannelRates } from './messaging/channel-rates.js';
import { startSendingThread, type SendingThread } from './sending-thread.js';
import { readyChecks, readyFacts } from './ready/ready-checks.js';
import { consentTextsNow } from './consent/consent-texts.js';
import type { ReadyCheck } from './ready/ready-check.js';

/** Everything the product is made of, each part built once. */
export interface Product {
  config: Config;
  db: Db;
  /** Email and texts: the subscriptions service, the link signer, the message tokens and log, the transports, the queues. */
  messaging: Messaging;
  /** What comes back after a send (the providers' webhooks, Twilio's callbacks, the bounce mailbox); needs SECRET_KEY. */
  feedback?: FeedbackParts | undefined;
  owner: {
    /** The owner's sign-in links by email (SMTP_URL and MAIL_FROM). */
    mailer?: SignInMailer;
    /** Launch day, over the same messaging parts (needs SECRET_KEY). */
    broadcastControl?: (logger?: SenderLogger) => BroadcastControl;
    /** The launch checks now (ready/ready-checks.ts): the dashboard's page and `sudo scamsavvy ready`. */
    readyChecks: () => Promise<ReadyCheck[]>;
  };
}

/** The server's own parts beside the product: shared rate limits, the hold that keeps a restore away, the sending thread. */
export interface ServerProduct extends Product {
  redis?: Redis;
  /** The thread the server's own messages are sent from (sending-thread.ts), with email or texts set up. */
  sendingThread?: SendingThread;
  /** Lets go of the database-in-use hold (the app's close calls it). */
  releaseInUse: () => Promise<void>;
}

/** What tests and the tools may bring instead of a part (still real ones, at the network's edge). */
export interface ComposeOverrides {
  messaging?: MessagingOverrides;
  /**
   * The launch checks a first send waits for. The worlds that test sending bring their own (they are
   * not tests of the sending domain's DNS); ready-checks.test.ts and the refusal's tests use the real ones.
   */
  readiness?: () => Promise<ReadyCheck[]>;
}

/**
 * Messaging over an open database, as every process that sends builds it: the server, and the thread
 * it sends its own messages from (sending-thread.ts).
 */
export function composeMessaging(
  config: Config,
  db: Db,
  overrides: MessagingOverrides = {},
): { messaging: Messaging; webhooks: ReturnType<typeof configuredWebhooks> } {
  const webhooks = configuredWebhooks(config.messaging);
  // One rate per channel, the provider's: the product's own messages keep to it, and to a small share
  // of it while a broadcast is sent on the channel (messaging/channel-rates.ts).
  const rates = new ChannelRates({ email: config.broadcast.emailRate, sms: config.broadcast.smsRate }, (heardSince) =>
    db.broadcastSenders.channelsSending(heardSince),
  );
  const messaging = createMessaging(config.messaging, db, config.siteUrl, {
    tagHeaders: tagHeadersFor(webhooks),
    rates,
    ...overrides,
  });
  return { messaging, webhooks };
}

/** Builds the product over an open database. */
export function compose(config: Config, db: Db, overrides: ComposeOverrides = {}): Product {
  const { messaging, webhooks } = composeMessaging(config, db, overrides.messaging);
  const { subscriptions, tokens } = messaging;
  // Reports pause a broadcast's texts through the broadcast feature's pauses (bounces declares what it needs).
  const feedback = createFeedbackParts(config.messaging, db, subscriptions, {
    pauses: db.broadcastPauses,
    tokens,
    webhooks,
  });
  const { email, secretKey } = config.messaging;
  return {
    config,
    db,
    messaging,
    feedback,
    owner: {
      ...(email ? { mailer: createSignInMailer(email, config.siteUrl, db.outbox) } : {}),
      ...(secretKey
        ? {
            broadcastControl: (logger?: SenderLogger) => broadcastControlOf(config, db, messaging, logger, overrides),
          }
        : {}),
      readyChecks: () => readyChecks(readyFacts(config, db)),
    },
  };
}

/**
 * The broadcast command's and the tests' control: the product's, built over this database (without
 * SECRET_KEY it refuses, saying why).
 */
export function createBroadcastControl(config: Config, db: Db, logger?: SenderLogger): BroadcastControl {
  const { messaging } = compose(config, db);
  return broadcastControlOf(config, db, messaging, logger);
}

function broadcastControlOf(
  config: Config,
  db: Db,
  messaging: Messaging,
  logger?: SenderLogger,
  overrides: Pick<ComposeOverrides, 'readiness'> = {},
): BroadcastControl {
  const { subscriptions, links, log } = messaging;
  const openTransports: OpenTransports = (options) => transportsFrom(config, options);
  const readiness = overrides.readiness ?? (() => readyChecks(readyFacts(config, db)));
  return new BroadcastControl(config, db, { subscriptions, links, log, openTransports, readiness }, logger);
}

/**
 * The server's product: opens the database (migrating it), checks the key belongs to it, holds it in
 * use so no restore runs beneath it, and connects Redis when REDIS_URL is set.
 */
export async function composeServer(config: Config): Promise<ServerProduct> {
  const db = await openDatabase(config.database, { confirmSignups: config.messaging.emailConfirmation });
  // The key and the data belong together: another SECRET_KEY would forget every "no" (decision 041).
  try {
    await checkSecretKey(db.secretKeys, config.messaging);
    // The words each place a choice is made on shows, kept the first time (the proof of consent): a
    // version whose words changed would make the proof misquote what people agreed to.
    const misquoted = await db.consentTexts.keep(consentTextsNow(config.messaging.smsConfirmation));
    if (misquoted.length > 0)
      throw new Error(
        `The consent words of ${misquoted.map((text) => `${text.place} (${text.language}, version ${text.version})`).join(', ')} changed, but their version did not: change SIGNUP_CONSENT_VERSION (src/shared/consent-words.ts) with the words.`,
      );
  } catch (error) {
    await db.close();
    throw error;
  }
  // A restore refuses while this is held (SQLite: the open connections are the lock).
  const releaseInUse = await holdDatabaseInUse(config.database);
  // The server's own messages go from a thread of their own (with email or texts set up), ready
  // before the first sign-up comes.
  const sending = config.messaging.email || config.messaging.sms;
  const sendingThread = sending ? startSendingThread(config) : undefined;
  try {
    await sendingThread?.ready;
  } catch (error) {
    await releaseInUse();
    await db.close();
    throw error;
  }
  const redis = config.rateLimit.redisUrl ? connectRedis(config.rateLimit.redisUrl) : undefined;
  return {
    ...compose(config, db),
    ...(redis ? { redis } : {}),
    releaseInUse,
    ...(sendingThread ? { sendingThread } : {}),
  };
}

/** Fails fast while Redis is away (limits are then skipped), and reconnects by itself. */
function connectRedis(url: string): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
}
