// POST /api/webhooks/{ses,postmark,mailgun,sendgrid,resend} and POST /api/sms/status: what the
// providers report after a send. Each route exists only while its provider's variables are set
// (otherwise the API's 404); each verifies the request before reading it (the body is kept as the
// exact bytes the signature covers), stores each report once, and answers 2xx as soon as it is
// stored. A bad or missing signature gets 401 or 403 and changes nothing (docs/messaging.md).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Feedback } from './act-on-reports.js';
import type { FeedbackWebhook } from './provider-webhook.js';

export interface WebhookRouteOptions {
  feedback: Feedback;
  /** The providers whose variables are set, each at /api/webhooks/<source>. */
  webhooks: FeedbackWebhook[];
  /** Twilio's status callbacks, at /api/sms/status (while texts are set up). */
  smsStatus?: FeedbackWebhook | undefined;
  /** The address the providers call, as they sign it: SITE_URL plus the path. */
  siteUrl: string;
  /** Confirms an Amazon SNS subscription (a GET of its SubscribeURL, already checked to be SNS's own). */
  confirmSubscription?: (url: string) => Promise<void>;
  /** Run before each report is read: the per-address limit (request-rate-limits.ts, WEBHOOK_RATE_LIMIT_PER_MINUTE). */
  limits?: preHandlerAsyncHookHandler[];
}

export const SMS_STATUS_PATH = '/api/sms/status';

/** The largest report a provider sends at once (SendGrid batches up to a few hundred events). */
const BODY_LIMIT = 1024 * 1024;

async function getUrl(url: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`the subscription URL answered ${response.status}`);
}

export const webhookRoutes: FastifyPluginAsync<WebhookRouteOptions> = async (app, options) => {
  const { feedback, webhooks, smsStatus, siteUrl, confirmSubscription = getUrl, limits = [] } = options;
  // In this scope only: every body as its exact bytes, whatever its type, for the signatures.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

  const handler = (hook: FeedbackWebhook) => async (request: FastifyRequest, reply: FastifyReply) => {
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const verdict = await hook.handle({ rawBody, headers: request.headers, url: `${siteUrl}${request.url}` });
    if (!verdict.ok) {
      request.log.warn(
        { source: hook.source, status: verdict.status, reason: verdict.reason },
        'a webhook was refused',
      );
      return reply.code(verdict.status).send({ error: verdict.reason });
    }
    if (verdict.confirmSubscriptionUrl) {
      await confirmSubscription(verdict.confirmSubscriptionUrl);
      request.log.info({ source: hook.source }, 'confirmed the SNS subscription');
    }
    const outcome = await feedback.receive(verdict.events, verdict.signature);
    if (outcome.replayed) {
      request.log.warn({ source: hook.source, status: 403 }, 'a webhook was refused: its signature was used before');
      return reply.code(403).send({ error: 'this signature was used already, with another report' });
    }
    if (outcome.unmatched > 0)
      request.log.info(
        { source: hook.source, unmatched: outcome.unmatched },
        'reports about no message of ours were kept, not acted on',
      );
    return reply.code(200).send({ ok: true, ...outcome });
  };

  for (const hook of webhooks) app.post(`/api/webhooks/${hook.source}`, { preHandler: limits }, handler(hook));
  if (smsStatus) app.post(SMS_STATUS_PATH, { preHandler: limits }, handler(smsStatus));
};
