// Texts through Twilio's Messages API (fetch, no SDK: decisions/021), the account check, and Twilio's
// webhook signature. Every failure carries the verdict twilio-answers.ts gives Twilio's answer.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TwilioSmsConfig } from '../messaging-config.js';
import { SmsSendError, type InboundRequest, type SmsProvider } from './sms-provider.js';
import { accountStatusVerdict, classifyTwilioAnswer } from './twilio-answers.js';

const SEND_TIMEOUT_MS = 15_000;

/** What the network said when Twilio could not be reached, in a few words. */
function networkTrouble(error: unknown): string {
  if ((error as Error)?.name === 'TimeoutError') return 'timed out';
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (typeof cause?.code === 'string') return cause.code;
  return (error as Error)?.message ?? String(error);
}

/** One request to Twilio's API; Twilio unreachable is an SmsSendError with the verdict for it. */
async function call(url: string, init: RequestInit): Promise<{ response: Response; answer: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
  } catch (error) {
    const trouble = networkTrouble(error);
    throw new SmsSendError(`Twilio could not be reached: ${trouble}`, classifyTwilioAnswer({ networkError: trouble }));
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { response, answer };
}

/** Twilio's refusal as an SmsSendError: its status, its error code and message, and the verdict on them. */
function refusal(response: Response, answer: Record<string, unknown>): SmsSendError {
  const code = typeof answer.code === 'number' ? answer.code : undefined;
  const message = typeof answer.message === 'string' ? answer.message : undefined;
  const detail = `Twilio answered ${response.status}${code ? ` (error ${code})` : ''}: ${message ?? 'no details'}`;
  return new SmsSendError(
    detail,
    classifyTwilioAnswer({
      status: response.status,
      ...(code !== undefined ? { code } : {}),
      ...(message !== undefined ? { message } : {}),
    }),
    code,
  );
}

/**
 * Twilio's X-Twilio-Signature: HMAC-SHA1 with the auth token over the full URL followed by each
 * POST field's name and value, sorted by name, then base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => `${text}${key}${params[key] ?? ''}`, url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

function header(headers: InboundRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function createTwilioSmsProvider(config: TwilioSmsConfig): SmsProvider {
  const account = `${config.apiBaseUrl}/2010-04-01/Accounts/${config.accountSid}.json`;
  const endpoint = `${config.apiBaseUrl}/2010-04-01/Accounts/${config.accountSid}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  return {
    name: 'twilio',
    async send({ to, body, statusCallback }) {
      const form = new URLSearchParams({ To: to, Body: body });
      if (statusCallback) form.set('StatusCallback', statusCallback);
      if (config.messagingServiceSid) form.set('MessagingServiceSid', config.messagingServiceSid);
      else if (config.from) form.set('From', config.from);
      const { response, answer } = await call(endpoint, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      if (response.ok && typeof answer.sid === 'string') return { id: answer.sid };
      throw refusal(response, answer);
    },
    async checkAccount() {
      const { response, answer } = await call(account, { headers: { authorization } });
      if (!response.ok) throw refusal(response, answer);
      const status = typeof answer.status === 'string' ? answer.status : undefined;
      const stopped = accountStatusVerdict(status);
      if (stopped) throw new SmsSendError(`Twilio says the account is ${status}`, stopped);
    },
    verifyInbound({ url, headers, params }) {
      const given = header(headers, 'x-twilio-signature');
      if (!given) return false;
      const expected = Buffer.from(twilioSignature(config.authToken, url, params));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
    parseInbound(params) {
      if (!params.From) return undefined;
      return { from: params.From, body: params.Body ?? '', ...(params.MessageSid ? { id: params.MessageSid } : {}) };
    },
    emptyInboundAnswer: {
      contentType: 'text/xml; charset=utf-8',
      body: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
    },
  };
}
