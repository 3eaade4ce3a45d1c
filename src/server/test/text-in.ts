// Test helper: a text arriving from a phone, as Twilio posts it to /api/sms/inbound, signed with
// the account's token (or another, to prove a forgery is refused).
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { twilioSignature } from '../messaging/twilio-sms-provider.js';
import { ACCOUNT_SID, AUTH_TOKEN } from './broadcast-setup.js';
import { SITE } from './site.js';

export interface TextIn {
  from: string;
  to: string;
  body: string;
  messageSid: string;
  /** The token it is signed with (the account's unless a test forges one). */
  token?: string;
}

export function textIn(
  app: FastifyInstance,
  { from, to, body, messageSid, token = AUTH_TOKEN }: TextIn,
): Promise<LightMyRequestResponse> {
  const params = { MessageSid: messageSid, AccountSid: ACCOUNT_SID, From: from, To: to, Body: body };
  return app.inject({
    method: 'POST',
    url: '/api/sms/inbound',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(token, `${SITE}/api/sms/inbound`, params),
    },
    payload: new URLSearchParams(params).toString(),
  });
}
