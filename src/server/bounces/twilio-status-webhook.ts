// Twilio's status callbacks (POST /api/sms/status): what became of each text. Verified like the
// inbound webhook (X-Twilio-Signature over the full URL, query included, and the form fields)
// before anything is read. Our token rides in the URL (?t=…), which the signature covers.
import { timingSafeEqual } from 'node:crypto';
import { classifyTwilioAnswer } from '../messaging/twilio-answers.js';
import { twilioSignature } from '../messaging/twilio-sms-provider.js';
import type { FeedbackEvent, FeedbackKind } from './report-event.js';
import type { FeedbackWebhook, WebhookRequest, WebhookVerdict } from './provider-webhook.js';

/**
 * A text that did not arrive, read by the one judge of Twilio's answers (twilio-answers.ts) as it
 * reads them during the send: ours ("filtered": the broadcast's texts pause with the rule's reason,
 * nothing counts against the person), the person's (their STOP, or a number that cannot get texts),
 * or the message's for now (a soft bounce). A code no rule names is a soft bounce: never the
 * person's for good.
 */
function failedKind(errorCode: string | undefined): FeedbackKind {
  const code = Number(errorCode);
  if (!errorCode || !Number.isInteger(code)) return 'soft_bounce';
  const verdict = classifyTwilioAnswer({ code });
  if (verdict.kind === 'sender') return 'filtered';
  if (verdict.kind === 'recipient') return verdict.stop ? 'stop' : 'undeliverable';
  return 'soft_bounce';
}

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
      return failedKind(errorCode);
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
