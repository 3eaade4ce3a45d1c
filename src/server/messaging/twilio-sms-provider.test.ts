import { afterEach, describe, expect, it } from 'vitest';
import type { TwilioSmsConfig } from '../messaging-config.js';
import { startTwilioStandIn, type TwilioStandIn } from '../test/twilio-stand-in.js';
import { SendFailure } from './send-failure.js';
import { SmsSendError } from './sms-provider.js';
import { createTwilioSmsProvider, twilioSignature } from './twilio-sms-provider.js';

const accountSid = `AC${'1'.repeat(32)}`;
const authToken = 'c'.repeat(32);
let standIn: TwilioStandIn | undefined;
afterEach(async () => standIn?.stop());

async function provider(overrides: Partial<TwilioSmsConfig> = {}) {
  standIn = await startTwilioStandIn({ accountSid, authToken });
  const config: TwilioSmsConfig = {
    provider: 'twilio',
    accountSid,
    authToken,
    from: '+15550001111',
    apiBaseUrl: standIn.baseUrl,
    ...overrides,
  };
  return { sms: createTwilioSmsProvider(config), standIn };
}

describe('Twilio: sending', () => {
  it('posts To, Body, From and the status callback with the account credentials, and returns the message sid', async () => {
    const { sms, standIn } = await provider();
    const callback = 'https://scamsavvy.example/api/sms/status?t=abc';
    const sent = await sms.send({ to: '+15551234567', body: 'Hello', statusCallback: callback });
    expect(sent.id).toMatch(/^SM[0-9a-f]{32}$/);
    expect(standIn.sent()).toEqual([
      {
        to: '+15551234567',
        body: 'Hello',
        from: '+15550001111',
        statusCallback: callback,
        sid: sent.id,
        at: expect.any(Number),
      },
    ]);
  });

  it('sends through a Messaging Service when one is configured', async () => {
    const { sms, standIn } = await provider({ from: undefined, messagingServiceSid: `MG${'2'.repeat(32)}` });
    await sms.send({ to: '+15551234567', body: 'Hello' });
    expect(standIn.sent()[0]).toEqual({
      to: '+15551234567',
      body: 'Hello',
      messagingServiceSid: `MG${'2'.repeat(32)}`,
      sid: expect.stringMatching(/^SM/),
      at: expect.any(Number),
    });
  });

  it('calls 429 and 5xx the message’s trouble, for now, and an invalid number the recipient’s', async () => {
    const { sms, standIn } = await provider();
    standIn.failNext(429, 20429, 'Too Many Requests');
    await expect(sms.send({ to: '+15551234567', body: 'x' })).rejects.toMatchObject({
      kind: 'message',
      permanent: false,
      code: 20429,
    });
    standIn.failNext(503, 20500, 'Service unavailable');
    await expect(sms.send({ to: '+15551234567', body: 'x' })).rejects.toMatchObject({ kind: 'message' });
    standIn.failNext(400, 21211, "The 'To' number is not a valid phone number.");
    const invalid = await sms.send({ to: '+1555', body: 'x' }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(SmsSendError);
    expect(invalid).toBeInstanceOf(SendFailure);
    expect(invalid).toMatchObject({ kind: 'recipient', permanent: true, code: 21211 });
    expect((invalid as SmsSendError).verdict.reason).toBe('Twilio says this is not a valid phone number (21211).');
  });

  it('calls 21610 for one number the recipient’s, with their STOP, and still texts the others', async () => {
    const { sms, standIn } = await provider();
    standIn.failFor('+15550009999', 400, 21610, 'Attempt to send to unsubscribed recipient');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const stopped = await sms.send({ to: '+15550009999', body: 'x' }).catch((error: unknown) => error);
      expect(stopped).toMatchObject({ kind: 'recipient', code: 21610, verdict: { stop: true } });
    }
    await sms.send({ to: '+15551234567', body: 'Hello' });
    expect(standIn.sent().map((text) => text.to)).toEqual(['+15551234567']);
  });

  it('calls wrong credentials ours, saying which variables to check', async () => {
    const { standIn } = await provider();
    const wrongToken = createTwilioSmsProvider({
      provider: 'twilio',
      accountSid,
      authToken: 'd'.repeat(32),
      from: '+15550001111',
      apiBaseUrl: standIn.baseUrl,
    });
    const refused = (await wrongToken
      .send({ to: '+15551234567', body: 'x' })
      .catch((error: unknown) => error)) as SmsSendError;
    expect(refused).toMatchObject({ kind: 'sender', permanent: false, code: 20003 });
    expect(refused.verdict.reason).toBe(
      'Twilio refused our credentials: check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN, then resume.',
    );
    expect(standIn.sent()).toHaveLength(0);
  });

  it('calls an unreachable API the message’s trouble, for now', async () => {
    const { standIn: gone } = await provider();
    await gone.stop();
    const sms = createTwilioSmsProvider({
      provider: 'twilio',
      accountSid,
      authToken,
      from: '+15550001111',
      apiBaseUrl: gone.baseUrl,
    });
    await expect(sms.send({ to: '+15551234567', body: 'x' })).rejects.toMatchObject({
      kind: 'message',
      permanent: false,
      verdict: { reason: 'Twilio could not be reached (connection refused): we will keep trying.' },
    });
    await expect(sms.checkAccount()).rejects.toMatchObject({ kind: 'message' });
    standIn = undefined;
  });
});

describe('Twilio: checking the account', () => {
  it('passes for an active account, sending nothing', async () => {
    const { sms, standIn } = await provider();
    await expect(sms.checkAccount()).resolves.toBeUndefined();
    expect(standIn.sent()).toHaveLength(0);
  });

  it('calls a suspended or closed account ours, and says so', async () => {
    const { sms, standIn } = await provider();
    standIn.setAccountStatus('suspended');
    const suspended = (await sms.checkAccount().catch((error: unknown) => error)) as SmsSendError;
    expect(suspended).toBeInstanceOf(SmsSendError);
    expect(suspended.verdict).toMatchObject({
      kind: 'sender',
      reason: expect.stringMatching(/^The Twilio account is suspended/),
    });
    standIn.setAccountStatus('closed');
    await expect(sms.checkAccount()).rejects.toMatchObject({
      kind: 'sender',
      verdict: { reason: expect.stringMatching(/closed/) },
    });
  });

  it('calls refused credentials ours while Twilio refuses them, and passes once it stops', async () => {
    const { sms, standIn } = await provider();
    standIn.refuseAuth(true);
    await expect(sms.checkAccount()).rejects.toMatchObject({ kind: 'sender', code: 20003 });
    await expect(sms.send({ to: '+15551234567', body: 'x' })).rejects.toMatchObject({ kind: 'sender', code: 20003 });
    standIn.refuseAuth(false);
    await expect(sms.checkAccount()).resolves.toBeUndefined();
  });

  it('calls a wrong account SID ours', async () => {
    const { standIn } = await provider();
    const otherAccount = createTwilioSmsProvider({
      provider: 'twilio',
      accountSid: `AC${'9'.repeat(32)}`,
      authToken,
      from: '+15550001111',
      apiBaseUrl: standIn.baseUrl,
    });
    await expect(otherAccount.checkAccount()).rejects.toMatchObject({ kind: 'sender' });
  });
});

describe("Twilio: the webhook's signature", () => {
  const url = 'https://scamsavvy.example/api/sms/inbound';
  const params = { From: '+15551234567', Body: 'STOP', To: '+15550001111', MessageSid: `SM${'3'.repeat(32)}` };

  it("matches Twilio's documented construction: URL, then each field name and value sorted by name, HMAC-SHA1, base64", async () => {
    const { createHmac } = await import('node:crypto');
    const data = `${url}Body${params.Body}From${params.From}MessageSid${params.MessageSid}To${params.To}`;
    expect(twilioSignature(authToken, url, params)).toBe(createHmac('sha1', authToken).update(data).digest('base64'));
  });

  it('accepts a signed request and refuses a tampered field, another URL, a missing header or another token', async () => {
    const { sms } = await provider();
    const headers = { 'x-twilio-signature': twilioSignature(authToken, url, params) };
    expect(sms.verifyInbound({ url, headers, params })).toBe(true);
    expect(sms.verifyInbound({ url, headers, params: { ...params, Body: 'START' } })).toBe(false);
    expect(sms.verifyInbound({ url: `${url}?x=1`, headers, params })).toBe(false);
    expect(sms.verifyInbound({ url, headers: {}, params })).toBe(false);
    const other = { 'x-twilio-signature': twilioSignature('e'.repeat(32), url, params) };
    expect(sms.verifyInbound({ url, headers: other, params })).toBe(false);
  });

  it('reads the sender and the text', async () => {
    const { sms } = await provider();
    expect(sms.parseInbound(params)).toEqual({ from: '+15551234567', body: 'STOP', id: `SM${'3'.repeat(32)}` });
    expect(sms.parseInbound({ Body: 'STOP' })).toBeUndefined();
  });
});
