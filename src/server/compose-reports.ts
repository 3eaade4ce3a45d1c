// The composition root's feedback (with compose.ts, which calls it): what comes back after a send,
// put together from the configuration (for the server and the broadcast command alike): the one place reports are acted on, the webhooks whose variables are
// set, Twilio's status callbacks while texts are set up, and the headers that make the providers
// hand each message's token back (docs/messaging.md, "Hearing back").
import type { FastifyBaseLogger } from 'fastify';
import type { MessagingConfig } from './messaging-config.js';
import { createMessageTokens, type MessageTokens } from './messaging/message-tokens.js';
import type { Subscriptions } from './consent/subscriptions.js';
import type { Db } from './db/open-database.js';
import { createBounceMailbox, type BounceMailbox } from './bounces/bounce-mailbox.js';
import { Feedback } from './bounces/act-on-reports.js';
import { feedbackStores, type BroadcastPauser } from './bounces/feedback-options.js';
import { createMailgunWebhook } from './bounces/mailgun-webhook.js';
import { createReportReader } from './bounces/report-reader.js';
import { createPostmarkWebhook } from './bounces/postmark-webhook.js';
import { createResendWebhook } from './bounces/resend-webhook.js';
import { createSendgridWebhook } from './bounces/sendgrid-webhook.js';
import { createSesWebhook } from './bounces/ses-webhook.js';
import { createTwilioStatusWebhook } from './bounces/twilio-status-webhook.js';
import type { FeedbackWebhook } from './bounces/provider-webhook.js';

export interface FeedbackParts {
  feedback: Feedback;
  /** Each at /api/webhooks/<source>, only those whose variables are set. */
  webhooks: FeedbackWebhook[];
  /** Twilio's status callbacks at /api/sms/status, while texts are set up. */
  smsStatus?: FeedbackWebhook;
  /** The providers' tag headers for a message's token, added to every email. */
  tagHeaders: (token: string) => Record<string, string>;
  /** With BOUNCE_ADDRESS and BOUNCE_IMAP_URL: the bounce mailbox, read while the server runs. */
  bounceMailbox?: (logger: FastifyBaseLogger) => BounceMailbox;
}

/** The webhooks the configuration turns on (each provider's file beside this one). */
export function configuredWebhooks(config: Pick<MessagingConfig, 'feedback'>): FeedbackWebhook[] {
  const { feedback } = config;
  const webhooks: FeedbackWebhook[] = [];
  if (feedback?.ses) webhooks.push(createSesWebhook(feedback.ses));
  if (feedback?.postmark) webhooks.push(createPostmarkWebhook(feedback.postmark));
  if (feedback?.mailgun) webhooks.push(createMailgunWebhook({ signingKey: feedback.mailgun.signingKey }));
  if (feedback?.sendgrid) webhooks.push(createSendgridWebhook(feedback.sendgrid));
  if (feedback?.resend) webhooks.push(createResendWebhook(feedback.resend));
  return webhooks;
}

/** The headers every email carries so that the providers in use hand its token back. */
export function tagHeadersFor(webhooks: FeedbackWebhook[]): (token: string) => Record<string, string> {
  return (token) =>
    Object.assign({}, ...webhooks.map((hook) => hook.tagHeaders?.(token) ?? {})) as Record<string, string>;
}

/** Everything feedback needs, or undefined without SECRET_KEY (no token can be signed or checked). */
export function createFeedbackParts(
  config: MessagingConfig,
  db: Pick<
    Db,
    'sentMessages' | 'feedbackEvents' | 'subscribers' | 'optOuts' | 'ping' | 'webhookSignatures' | 'reportsTransaction'
  >,
  subscriptions: Subscriptions,
  /**
   * pauses: the broadcast feature's, for texts a carrier filters; tokens and webhooks: the process's
   * own, when the composition root built them already (never built twice there).
   */
  built: { pauses: BroadcastPauser; tokens?: MessageTokens | undefined; webhooks?: FeedbackWebhook[] },
): FeedbackParts | undefined {
  const { secretKey } = config;
  if (!secretKey) return undefined;
  const webhooks = built.webhooks ?? configuredWebhooks(config);
  const tokens = built.tokens ?? createMessageTokens(secretKey, config.previousSecretKey);
  const feedback = new Feedback({
    ...feedbackStores(db),
    subscriptions,
    pauses: built.pauses,
    tokens,
    signatures: db.webhookSignatures,
    // A batch's writes in one transaction: one commit a batch (docs/performance.md, bench:feedback).
    transaction: (work) =>
      db.reportsTransaction((stores) =>
        work({
          sentMessages: stores.sentMessages,
          feedbackEvents: stores.feedbackEvents,
          signatures: stores.webhookSignatures,
        }),
      ),
  });
  const { bounceAddress, bounceImapUrl, bounceMaxBytes } = config.feedback ?? {};
  return {
    feedback,
    webhooks,
    ...(bounceAddress && bounceImapUrl
      ? {
          bounceMailbox: (logger: FastifyBaseLogger) =>
            createBounceMailbox({
              url: bounceImapUrl,
              bounceAddress,
              tokens,
              onEvents: (events) => feedback.receive(events),
              logger,
              // Read in a worker thread with a time limit: no message holds up the site.
              reader: createReportReader({
                bounceAddress,
                secretKey,
                ...(config.previousSecretKey ? { previousSecretKey: config.previousSecretKey } : {}),
              }),
              ...(bounceMaxBytes ? { maxBytes: bounceMaxBytes } : {}),
              storageUp: () =>
                db.ping().then(
                  () => true,
                  () => false,
                ),
            }),
        }
      : {}),
    ...(config.sms?.provider === 'twilio'
      ? { smsStatus: createTwilioStatusWebhook({ authToken: config.sms.authToken }) }
      : {}),
    tagHeaders: tagHeadersFor(webhooks),
  };
}
