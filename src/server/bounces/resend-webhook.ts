// Resend's webhooks, sent through Svix (POST /api/webhooks/resend): bounced, complained, delivered
// and delayed. Verified before anything else is believed, with Svix's own Standard Webhooks
// library: the HMAC over the message id, timestamp and exact body with RESEND_WEBHOOK_SECRET, any
// of the signatures given (several during a key rotation), within 5 minutes of now; each Svix
// message id acted on once. Resend hands back the email's id, recorded from its SMTP answer when
// the message left, and the email's tags; our token is matched from a tag or header when present.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { withoutAddresses } from '../messaging/log-safe.js';
import { TOKEN_HEADER } from '../messaging/message-log.js';
import { reportedAt, type FeedbackEvent, type FeedbackKind } from './report-event.js';
import { text, type FeedbackWebhook, type WebhookVerdict } from './provider-webhook.js';

/** Svix's tolerance, which its library applies too: a timestamp further than this from now is refused. */
const TOLERANCE_MS = 5 * 60_000;

interface ResendEvent {
  type?: unknown;
  created_at?: unknown;
  data?: {
    email_id?: unknown;
    created_at?: unknown;
    bounce?: { type?: unknown; subType?: unknown; message?: unknown };
    tags?: unknown;
    headers?: unknown;
  };
}

function kindOf(event: ResendEvent): FeedbackKind | undefined {
  switch (event.type) {
    case 'email.bounced':
      // Only a bounce Resend calls Permanent is the person's for good; any other type (Temporary,
      // Transient, Undetermined, none) only counts toward three soft bounces.
      return String(event.data?.bounce?.type ?? '').toLowerCase() === 'permanent' ? 'hard_bounce' : 'soft_bounce';
    case 'email.complained':
      return 'complaint';
    case 'email.delivered':
      return 'delivered';
    case 'email.delivery_delayed':
      return 'delayed';
    default:
      return undefined; // sent, opened, clicked, received …
  }
}

/** Our token from the event's tags ({token: …} or [{name, value}]) or the headers it lists. */
function tokenOf(data: ResendEvent['data']): string | undefined {
  const { tags, headers } = data ?? {};
  if (Array.isArray(tags)) {
    const tag = (tags as Array<{ name?: unknown; value?: unknown }>).find((each) => each?.name === 'token');
    if (text(tag?.value)) return String(tag!.value);
  } else if (tags && typeof tags === 'object' && text((tags as { token?: unknown }).token))
    return String((tags as { token?: unknown }).token);
  if (Array.isArray(headers)) {
    const header = (headers as Array<{ name?: unknown; value?: unknown }>).find(
      (each) => typeof each?.name === 'string' && each.name.toLowerCase() === TOKEN_HEADER.toLowerCase(),
    );
    return text(header?.value);
  }
  return undefined;
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function createResendWebhook({
  secret,
  now = () => Date.now(),
}: {
  secret: string;
  now?: () => number;
}): FeedbackWebhook {
  const svix = new Webhook(secret);
  return {
    source: 'resend',
    async handle(request): Promise<WebhookVerdict> {
      const id = header(request.headers['svix-id']);
      const timestamp = header(request.headers['svix-timestamp']);
      const signature = header(request.headers['svix-signature']);
      if (!id || !timestamp || !signature) return { ok: false, status: 401, reason: 'no Svix signature' };
      // Stale or early first (403), so that the library's refusal below means a signature that does not match.
      if (!/^\d+$/.test(timestamp) || Math.abs(now() - Number(timestamp) * 1000) > TOLERANCE_MS)
        return { ok: false, status: 403, reason: 'the signed timestamp is too old or in the future' };
      let event: ResendEvent;
      try {
        event = svix.verify(request.rawBody, {
          'webhook-id': id,
          'webhook-timestamp': timestamp,
          'webhook-signature': signature,
        }) as ResendEvent;
      } catch (error) {
        if (error instanceof WebhookVerificationError)
          return { ok: false, status: 401, reason: 'the Svix signature does not match' };
        if (error instanceof SyntaxError) return { ok: false, status: 400, reason: 'signed, but not JSON' };
        throw error;
      }
      const kind = event && typeof event === 'object' ? kindOf(event) : undefined;
      const emailId = text(event?.data?.email_id);
      if (!kind || !emailId) return { ok: true, events: [] };
      const token = tokenOf(event.data);
      const bounce = event.data?.bounce;
      const code = text(bounce?.subType) ?? text(bounce?.type);
      const detail = text(bounce?.message);
      const at = Date.parse(String(event.created_at ?? event.data?.created_at));
      const feedback: FeedbackEvent = {
        source: 'resend',
        eventId: id,
        kind,
        message: { ...(token ? { token } : {}), providerId: emailId },
        occurredAt: reportedAt(at, now(), now()),
        ...(code ? { code } : {}),
        ...(detail ? { detail: withoutAddresses(detail).slice(0, 300) } : {}),
      };
      return { ok: true, events: [feedback] };
    },
  };
}
