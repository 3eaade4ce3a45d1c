// Texts through Twilio's Messages API (fetch, no SDK: decisions/021), and Twilio's webhook signature.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SmsConfig } from '../config.js';
import { SmsSendError, type InboundRequest, type SmsProvider } from './sms-provider.js';

const SEND_TIMEOUT_MS = 15_000;

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

export function createTwilioSmsProvider(config: SmsConfig): SmsProvider {
  const endpoint = `${config.apiBaseUrl}/2010-04-01/Accounts/${config.accountSid}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  return {
    name: 'twilio',
    async send({ to, body }) {
      const form = new URLSearchParams({ To: to, Body: body });
      if (config.messagingServiceSid) form.set('MessagingServiceSid', config.messagingServiceSid);
      else if (config.from) form.set('From', config.from);
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
      } catch (error) {
        throw new SmsSendError(`Twilio could not be reached: ${(error as Error).message}`, false);
      }
      const answer = (await response.json().catch(() => ({}))) as { sid?: string; code?: number; message?: string };
      if (response.ok && answer.sid) return { id: answer.sid };
      const detail = `Twilio answered ${response.status}${answer.code ? ` (error ${answer.code})` : ''}: ${answer.message ?? 'no details'}`;
      // 429 and 5xx pass; other 4xx (an invalid or opted-out number, bad credentials) will not.
      const temporary = response.status === 429 || response.status >= 500;
      if (response.status === 401 || response.status === 403)
        throw new SmsSendError(`${detail}. Check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN.`, true, answer.code);
      throw new SmsSendError(detail, !temporary, answer.code);
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
      return { from: params.From, body: params.Body ?? '' };
    },
    emptyInboundAnswer: {
      contentType: 'text/xml; charset=utf-8',
      body: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
    },
  };
}
