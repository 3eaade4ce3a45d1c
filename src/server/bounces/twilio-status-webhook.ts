// Twilio's status callbacks (POST /api/sms/status): what became of each text. Verified like the
// inbound webhook (X-Twilio-Signature over the full URL, query included, and the form fields)
// before anything is read. Our token rides in the URL (?t=…), which the signature covers.
import { timingSafeEqual } from 'node:crypto';
import { twilioSignature } from '../messaging/twilio-sms-provider.js';
import type { FeedbackEvent, FeedbackKind } from './report-event.js';
import type { FeedbackWebhook, WebhookRequest, WebhookVerdict } from './provider-webhook.js';

/** Error codes of a text that did not arrive, and what each means (docs/messaging.md, "Texts"). */
const ERROR_KINDS: Record<string, FeedbackKind> = {
  '21610': 'stop',
  '30003': 'soft_bounce',
  '30005': 'undeliverable',
  '30006': 'undeliverable',
  '30007': 'filtered',
  '30034': 'filtered',
};

/** What a MessageStatus means; undelivered and failed are read by their error code. */
function kindOf(status: string, errorCode: string | undefined): FeedbackKind | undefined {
  switch (status) {
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'sent':
      return 'sent';
    case 'queued':
    case 'accepted':
    case 'sending':
    case 'scheduled':
      return 'queued';
    case 'undelivered':
    case 'failed':
      // An error we do not name is "not delivered for now": never the person's for good.
      return (errorCode ? ERROR_KINDS[errorCode] : undefined) ?? 'soft_bounce';
    default:
      return undefined;
  }
}

function header(request: WebhookRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function createTwilioStatusWebhook({ authToken }: { authToken: string }): FeedbackWebhook {
  return {
    source: 'twilio',
    async handle(request): Promise<WebhookVerdict> {
      const given = header(request, 'x-twilio-signature');
      if (!given) return { ok: false, status: 401, reason: 'no Twilio signature' };
      const params = Object.fromEntries(new URLSearchParams(request.rawBody.toString('utf8')));
      const expected = Buffer.from(twilioSignature(authToken, request.url, params));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
        return { ok: false, status: 401, reason: 'the Twilio signature does not match' };
      const sid = params.MessageSid ?? params.SmsSid;
      const status = params.MessageStatus ?? params.SmsStatus;
      if (!sid || !status) return { ok: false, status: 400, reason: 'not a status callback' };
      const kind = kindOf(status, params.ErrorCode || undefined);
      if (!kind) return { ok: true, events: [] };
      const token = new URL(request.url).searchParams.get('t') ?? undefined;
      const event: FeedbackEvent = {
        source: 'twilio',
        // A status reported twice is one report; statuses out of order are each their own.
        eventId: `${sid}:${status}`,
        kind,
        message: { providerId: sid, ...(token ? { token } : {}) },
        occurredAt: new Date().toISOString(),
        ...(params.ErrorCode ? { code: params.ErrorCode } : {}),
        ...(params.ErrorCode ? { detail: `Twilio ${status}, error ${params.ErrorCode}` } : {}),
      };
      return { ok: true, events: [event] };
    },
  };
}
