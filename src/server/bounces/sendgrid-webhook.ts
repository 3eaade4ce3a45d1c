// SendGrid's signed Event Webhook (POST /api/webhooks/sendgrid): bounce, dropped, spamreport,
// delivered and deferred events, a batch of them in each request. Verified before anything else is
// read: the ECDSA (P-256, SHA-256) signature over the timestamp header and the exact body, with the
// verification key SendGrid shows (SENDGRID_WEBHOOK_PUBLIC_KEY); within 15 minutes of now; the same
// signature accepted once. Every email carries our token as a unique argument (X-SMTPAPI), which
// SendGrid hands back on each event; its sg_message_id matches as a last resort.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { withoutAddresses } from '../messaging/log-safe.js';
import { reportedAt, type FeedbackEvent, type FeedbackKind } from './report-event.js';
import { jsonBody, text, type FeedbackWebhook, type WebhookVerdict } from './provider-webhook.js';

export const SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';
const WINDOW_MS = 15 * 60_000;

interface SendgridEvent {
  event?: unknown;
  type?: unknown;
  reason?: unknown;
  status?: unknown;
  response?: unknown;
  timestamp?: unknown;
  sg_event_id?: unknown;
  sg_message_id?: unknown;
  token?: unknown;
}

function kindOf(event: SendgridEvent): FeedbackKind | undefined {
  switch (event.event) {
    case 'bounce':
      // "blocked": the receiving server refused us for now (reputation, content): ours, not the person's.
      return event.type === 'blocked' ? 'filtered' : 'hard_bounce';
    case 'dropped': {
      // SendGrid did not send: only its own lists of bounced and complaining addresses speak of the person.
      const reason = String(event.reason ?? '');
      if (reason === 'Bounced Address' || reason === 'Invalid') return 'hard_bounce';
      if (reason === 'Spam Reporting Address') return 'complaint';
      return undefined;
    }
    case 'spamreport':
      return 'complaint';
    case 'delivered':
      return 'delivered';
    case 'deferred':
      return 'delayed';
    default:
      return undefined; // processed, open, click, unsubscribe, group_*
  }
}

/** SendGrid's message id is its queue id and a filter suffix; the part before the first dot is the message. */
const messageOf = (id: string) => id.split('.')[0]!;

export function createSendgridWebhook({
  publicKey,
  now = () => Date.now(),
}: {
  publicKey: string;
  now?: () => number;
}): FeedbackWebhook {
  const key: KeyObject = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
  return {
    source: 'sendgrid',
    async handle(request): Promise<WebhookVerdict> {
      const signature = request.headers[SIGNATURE_HEADER];
      const timestamp = request.headers[TIMESTAMP_HEADER];
      if (typeof signature !== 'string' || typeof timestamp !== 'string' || !signature || !timestamp)
        return { ok: false, status: 401, reason: 'no SendGrid signature' };
      let valid = false;
      try {
        valid = verify(
          'sha256',
          Buffer.concat([Buffer.from(timestamp, 'utf8'), request.rawBody]),
          key,
          Buffer.from(signature, 'base64'),
        );
      } catch {
        valid = false;
      }
      if (!valid) return { ok: false, status: 401, reason: 'the SendGrid signature does not match' };
      if (!/^\d+$/.test(timestamp) || Math.abs(now() - Number(timestamp) * 1000) > WINDOW_MS)
        return { ok: false, status: 403, reason: 'the signed timestamp is too old or in the future' };
      const at = now();

      const batch = jsonBody(request);
      if (!Array.isArray(batch)) return { ok: false, status: 400, reason: 'not a SendGrid batch' };
      const events: FeedbackEvent[] = [];
      for (const item of batch as SendgridEvent[]) {
        const kind = item && typeof item === 'object' ? kindOf(item) : undefined;
        const eventId = text(item?.sg_event_id);
        if (!kind || !eventId) continue;
        const token = text(item.token);
        const providerId = text(item.sg_message_id);
        const when = Number(item.timestamp);
        const code = text(item.status);
        const detail = text(item.reason) ?? text(item.response);
        events.push({
          source: 'sendgrid',
          eventId,
          kind,
          message: { ...(token ? { token } : {}), ...(providerId ? { providerId: messageOf(providerId) } : {}) },
          occurredAt: reportedAt(when * 1000, at),
          ...(code ? { code } : {}),
          ...(detail ? { detail: withoutAddresses(detail).slice(0, 300) } : {}),
        });
      }
      return { ok: true, events };
    },
    tagHeaders: (token) => ({ 'X-SMTPAPI': JSON.stringify({ unique_args: { token } }) }),
  };
}
