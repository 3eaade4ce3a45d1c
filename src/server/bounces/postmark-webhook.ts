// Postmark's webhooks (POST /api/webhooks/postmark): bounces, spam complaints and deliveries. The
// webhook URL carries HTTP basic credentials (POSTMARK_WEBHOOK_USER and POSTMARK_WEBHOOK_PASSWORD),
// checked in constant time before a word of the body is read; a request without them is refused
// (fail closed). Every email carries our token as Postmark metadata (X-PM-Metadata-token), which
// Postmark hands back in each record's Metadata; Postmark's MessageID matches as a last resort.
import { createHash, timingSafeEqual } from 'node:crypto';
import { withoutAddresses } from '../messaging/log-safe.js';
import { reportedAt, type FeedbackEvent, type FeedbackKind } from './report-event.js';
import { jsonBody, text, type FeedbackWebhook, type WebhookVerdict } from './provider-webhook.js';

interface PostmarkRecord {
  RecordType?: unknown;
  Type?: unknown;
  TypeCode?: unknown;
  MessageID?: unknown;
  Metadata?: Record<string, unknown>;
  Description?: unknown;
  Details?: unknown;
  BouncedAt?: unknown;
  DeliveredAt?: unknown;
}

/** Postmark's bounce types, by what they mean for the person (anything else is not acted on). */
const BOUNCE_KINDS: Record<string, FeedbackKind> = {
  HardBounce: 'hard_bounce',
  BadEmailAddress: 'hard_bounce',
  SoftBounce: 'soft_bounce',
  Transient: 'soft_bounce',
  DnsError: 'soft_bounce',
  SpamComplaint: 'complaint',
  // The receiving side refused our message or filed it as spam: ours to fix, never the person's.
  Blocked: 'filtered',
  SpamNotification: 'filtered',
};

function kindOf(record: PostmarkRecord): FeedbackKind | undefined {
  switch (record.RecordType) {
    case 'Bounce':
      return BOUNCE_KINDS[String(record.Type)];
    case 'SpamComplaint':
      return 'complaint';
    case 'Delivery':
      return 'delivered';
    default:
      return undefined; // Open, Click, SubscriptionChange (ours is the preferences page)
  }
}

/** A fixed-length digest, so the comparison takes the same time whatever was sent. */
const digest = (value: string) => createHash('sha256').update(value).digest();

/** Our token in a record's Metadata, its key matched without case ("token", "Token" …). */
function metadataToken(metadata: unknown): unknown {
  if (!metadata || typeof metadata !== 'object') return undefined;
  const key = Object.keys(metadata).find((name) => name.toLowerCase() === 'token');
  return key === undefined ? undefined : (metadata as Record<string, unknown>)[key];
}

export function createPostmarkWebhook({ user, password }: { user: string; password: string }): FeedbackWebhook {
  const expected = digest(`${user}:${password}`);
  return {
    source: 'postmark',
    async handle(request): Promise<WebhookVerdict> {
      const header = request.headers.authorization ?? '';
      const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
      if (!match) return { ok: false, status: 401, reason: 'no credentials' };
      const given = digest(Buffer.from(match[1]!, 'base64').toString('utf8'));
      if (!timingSafeEqual(given, expected)) return { ok: false, status: 401, reason: 'wrong credentials' };
      const record = jsonBody(request) as PostmarkRecord | undefined;
      if (record === undefined) return { ok: false, status: 400, reason: 'not a Postmark record' };
      const kind = record && typeof record === 'object' ? kindOf(record) : undefined;
      const postmarkId = text(record?.MessageID);
      if (!kind || !postmarkId) return { ok: true, events: [] };
      // A bounce's ID is a 64-bit number (JSON.parse would round it): read as written.
      const recordId = /"ID"\s*:\s*"?(\d+)/.exec(request.rawBody.toString('utf8'))?.[1];
      const token = text(metadataToken(record.Metadata));
      const at = Date.parse(String(record.BouncedAt ?? record.DeliveredAt));
      const code = text(record.Type) ?? (typeof record.TypeCode === 'number' ? String(record.TypeCode) : undefined);
      const detail = text(record.Details) ?? text(record.Description);
      const event: FeedbackEvent = {
        source: 'postmark',
        eventId: `${String(record.RecordType)}:${recordId ?? postmarkId}`,
        kind,
        message: { ...(token ? { token } : {}), providerId: postmarkId },
        occurredAt: reportedAt(at, Date.now()),
        ...(code && kind !== 'delivered' ? { code } : {}),
        ...(detail ? { detail: withoutAddresses(detail).slice(0, 300) } : {}),
      };
      return { ok: true, events: [event] };
    },
    tagHeaders: (token) => ({ 'X-PM-Metadata-token': token }),
  };
}
