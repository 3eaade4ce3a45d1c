// Mailgun's webhooks (POST /api/webhooks/mailgun): failed (permanent or temporary), complained and
// delivered events. Verified before anything else is read: HMAC-SHA256 of the timestamp and token
// with MAILGUN_WEBHOOK_SIGNING_KEY, compared in constant time, within 15 minutes of now. Mailgun
// signs neither the body nor the event: each verdict carries its signature token and a hash of the
// body, which the reports' batch remembers in the database (shared by every instance) until it
// expires, in the step that stores the reports; the same request again is a redelivery, the token
// with another body is refused (issue 42). Every email carries our token in
// X-Mailgun-Variables, which Mailgun hands back as the event's user-variables.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { withoutAddresses } from '../messaging/log-safe.js';
import { reportedAt, type FeedbackEvent, type FeedbackKind } from './report-event.js';
import { jsonBody, text, type FeedbackWebhook, type WebhookVerdict } from './provider-webhook.js';

/** How far a signed timestamp may be from now. */
const WINDOW_MS = 15 * 60_000;

interface MailgunBody {
  signature?: { timestamp?: unknown; token?: unknown; signature?: unknown };
  'event-data'?: {
    id?: unknown;
    event?: unknown;
    severity?: unknown;
    timestamp?: unknown;
    message?: { headers?: { 'message-id'?: unknown } };
    'user-variables'?: { token?: unknown };
    'delivery-status'?: { code?: unknown; 'enhanced-code'?: unknown; description?: unknown; message?: unknown };
  };
}

function kindOf(event: string | undefined, severity: string | undefined): FeedbackKind | undefined {
  if (event === 'failed') return severity === 'permanent' ? 'hard_bounce' : 'soft_bounce';
  if (event === 'complained') return 'complaint';
  if (event === 'delivered') return 'delivered';
  return undefined; // opened, clicked, accepted, unsubscribed (ours is the page's): not acted on
}

export function createMailgunWebhook({
  signingKey,
  now = () => Date.now(),
}: {
  signingKey: string;
  now?: () => number;
}): FeedbackWebhook {
  return {
    source: 'mailgun',
    async handle(request): Promise<WebhookVerdict> {
      const body = jsonBody(request) as MailgunBody | undefined;
      if (body === undefined) return { ok: false, status: 401, reason: 'not a signed Mailgun request' };
      const timestamp = text(body?.signature?.timestamp);
      const token = text(body?.signature?.token);
      const signature = text(body?.signature?.signature);
      if (!timestamp || !token || !signature) return { ok: false, status: 401, reason: 'no Mailgun signature' };
      const expected = Buffer.from(
        createHmac('sha256', signingKey)
          .update(timestamp + token)
          .digest('hex'),
      );
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return { ok: false, status: 401, reason: 'the Mailgun signature does not match' };
      if (Math.abs(now() - Number(timestamp) * 1000) > WINDOW_MS)
        return { ok: false, status: 403, reason: 'the signed timestamp is too old or in the future' };
      // Mailgun signs no body: the token is used once, with this body. The reports' batch checks and
      // remembers it in the same step as it stores the reports (a replay with another body is 403).
      const oneUse = {
        source: 'mailgun',
        token,
        bodyHash: createHash('sha256').update(request.rawBody).digest('hex'),
        expiresAt: new Date(Number(timestamp) * 1000 + WINDOW_MS),
      };
      const data = body['event-data'];
      const kind = kindOf(text(data?.event), text(data?.severity));
      const eventId = text(data?.id);
      if (!kind || !eventId) return { ok: true, events: [], signature: oneUse };
      const status = data?.['delivery-status'];
      const code =
        text(status?.['enhanced-code']) ?? (typeof status?.code === 'number' ? String(status.code) : undefined);
      const detail = text(status?.description) ?? text(status?.message);
      const ourToken = text(data?.['user-variables']?.token);
      const messageId = text(data?.message?.headers?.['message-id']);
      const when = Number(data?.timestamp);
      const event: FeedbackEvent = {
        source: 'mailgun',
        eventId,
        kind,
        message: { ...(ourToken ? { token: ourToken } : {}), ...(messageId ? { messageId } : {}) },
        occurredAt: reportedAt(when * 1000, now(), now()),
        ...(code ? { code } : {}),
        ...(detail ? { detail: withoutAddresses(detail).slice(0, 300) } : {}),
      };
      return { ok: true, events: [event], signature: oneUse };
    },
    tagHeaders: (token) => ({ 'X-Mailgun-Variables': JSON.stringify({ token }) }),
  };
}
