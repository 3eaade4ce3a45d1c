// What strangers send, made up by the thousand (issue 42): the real bounces of sisimai's corpus cut,
// repeated, scrambled and given forged tokens, through the reader; and the providers' documented
// payloads with their values swapped for the worst (huge numbers, wrong types, long strings, nothing),
// signed as each provider signs, through every webhook (Mailgun, Postmark, SendGrid, Resend, SES
// through SNS with the certificate at a stand-in for SNS's edge, Twilio's status callback). Nothing throws,
// nothing is acted on without a token of ours, and every time a report gives could be stored.
// A fixed seed: the same messages every run, so a failure can be read again.
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createMessageTokens } from '../messaging/message-tokens.js';
import { twilioSignature } from '../messaging/twilio-sms-provider.js';
import { startSnsStandIn, SNS_REGION, type SnsStandIn } from '../test/sns-stand-in.js';
import { createMailgunWebhook } from './mailgun-webhook.js';
import { parseDeliveryReport } from './parse-mail-report.js';
import { createPostmarkWebhook } from './postmark-webhook.js';
import type { FeedbackWebhook, WebhookRequest } from './provider-webhook.js';
import { createResendWebhook } from './resend-webhook.js';
import { createSendgridWebhook, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './sendgrid-webhook.js';
import { createSesWebhook } from './ses-webhook.js';
import { createTwilioStatusWebhook } from './twilio-status-webhook.js';
import { report, REPORT_BOUNCE_ADDRESS } from './test-fixtures/reports.js';
import { machineClock } from '../test/clock.js';

const tokens = createMessageTokens('a fuzzing secret that is at least 32 characters long');
const CORPUS = join(import.meta.dirname, 'test-fixtures', 'sisimai');

/** mulberry32: small, seeded, the same numbers every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOISE = [
  '\n',
  '\r\n',
  '-',
  '@',
  '<',
  '>',
  ':',
  ' ',
  '\t',
  '=',
  '"',
  '--boundary',
  'Content-Type: ',
  '\u00e9',
  '\0',
];

/** One mutation of a message: cut, a slice repeated, bytes scrambled, or a forged token added. */
function mutate(text: string, next: () => number): string {
  const at = Math.floor(next() * text.length);
  switch (Math.floor(next() * 5)) {
    case 0:
      return text.slice(0, at);
    case 1: {
      const slice = text.slice(at, at + 1 + Math.floor(next() * 200));
      return text.slice(0, at) + slice.repeat(1 + Math.floor(next() * 50)) + text.slice(at);
    }
    case 2: {
      let out = text;
      for (let count = 0; count < 20; count += 1) {
        const where = Math.floor(next() * out.length);
        out = out.slice(0, where) + NOISE[Math.floor(next() * NOISE.length)]! + out.slice(where + 1);
      }
      return out;
    }
    case 3:
      return text.replace(/\r?\n\r?\n/, `\nX-ScamSavvy-Token: ${'0123456789abcdef'.repeat(2)}\n\n`);
    default:
      return text.replace(/^(Date|Last-Attempt-Date|Arrival-Date): .*$/gim, '$1: +012345-01-01T00:00:00Z');
  }
}

describe('fuzzing what comes to the bounce address', () => {
  it(
    'thousands of mutated real bounces: none throws, none is acted on without a token of ours',
    { timeout: 180_000 },
    async () => {
      const next = random(42);
      const files = readdirSync(CORPUS).filter((file) => file.endsWith('.eml'));
      const originals = files.map((file) => readFileSync(join(CORPUS, file), 'latin1'));
      let read = 0;
      for (let round = 0; round < 4; round += 1)
        for (const original of originals) {
          const raw = mutate(mutate(original, next), next);
          const { events } = await parseDeliveryReport(Buffer.from(raw, 'latin1'), {
            bounceAddress: REPORT_BOUNCE_ADDRESS,
            tokens,
          });
          // No token we signed is in any of them: nothing may come of it.
          expect(events).toEqual([]);
          read += 1;
        }
      // With a real token, the mutations still never throw, and every event names that token and a storable time.
      const token = tokens.issue();
      for (let count = 0; count < 200; count += 1) {
        const raw = mutate(report('postfix-user-unknown', { token }), next);
        const { events } = await parseDeliveryReport(raw, { bounceAddress: REPORT_BOUNCE_ADDRESS, tokens });
        for (const event of events) {
          expect(event.message.token).toBe(token);
          expect(Number.isFinite(Date.parse(event.occurredAt))).toBe(true);
        }
        read += 1;
      }
      expect(read).toBeGreaterThanOrEqual(2_500);
    },
  );
});

/** The worst a JSON value can be swapped for. */
function worst(next: () => number): unknown {
  const choices: unknown[] = [
    1e300,
    -1,
    0,
    1e15,
    Number.MAX_SAFE_INTEGER,
    '',
    'x'.repeat(10_000),
    '+012345-01-01T00:00:00Z',
    null,
    true,
    [],
    [[[]]],
    {},
    { token: 'a'.repeat(32) },
    '<script>',
    '\u0000',
  ];
  return choices[Math.floor(next() * choices.length)];
}

/** The payload with some of its values, at any depth, swapped for the worst, and some keys dropped. */
function mutateJson(value: unknown, next: () => number): unknown {
  if (Array.isArray(value)) return value.map((each) => mutateJson(each, next));
  if (value === null || typeof value !== 'object') return next() < 0.3 ? worst(next) : value;
  const out: Record<string, unknown> = {};
  for (const [key, each] of Object.entries(value)) {
    if (next() < 0.1) continue;
    out[key] = mutateJson(each, next);
  }
  return out;
}

const SENDGRID_KEYS = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const SES_TOPIC = `arn:aws:sns:${SNS_REGION}:123456789012:ses-feedback`;
const TWILIO_TOKEN = 'twilio-fuzz-auth-token-0123456789';
const RESEND_SECRET = `whsec_${Buffer.from('resend-fuzz-secret-0123456789abcdef').toString('base64')}`;

/** A webhook, a documented payload of its provider, and how that provider sends (and signs) a payload. */
interface Fuzzed {
  hook: FeedbackWebhook;
  payload: unknown;
  request: (payload: unknown) => WebhookRequest;
}

/** A JSON body for the providers that post JSON. */
const json = (sendBody: (body: string) => WebhookRequest) => (payload: unknown) => sendBody(JSON.stringify(payload));

/** Each webhook that can be signed here, with a documented payload and how to sign it. */
function webhooks(sns: SnsStandIn): Fuzzed[] {
  const mailgunKey = 'key-fuzz-0123456789abcdef0123456789';
  let mailgunToken = 0;
  return [
    {
      hook: createMailgunWebhook({ signingKey: mailgunKey }),
      payload: {
        id: 'G9Bn5sl1TC6nu79C8C0bwg',
        event: 'failed',
        severity: 'permanent',
        timestamp: machineClock.ms() / 1000,
        'user-variables': { token: tokens.issue() },
        'delivery-status': { code: 550, 'enhanced-code': '5.1.1', description: 'No such user' },
        message: { headers: { 'message-id': 'x@scamsavvy.example' } },
      },
      request: json((body) => {
        const timestamp = String(Math.floor(machineClock.ms() / 1000));
        const token = `fuzz${(mailgunToken += 1)}${'x'.repeat(40)}`;
        const signature = createHmac('sha256', mailgunKey)
          .update(timestamp + token)
          .digest('hex');
        return {
          rawBody: Buffer.from(`{"signature":${JSON.stringify({ timestamp, token, signature })},"event-data":${body}}`),
          headers: {},
          url: 'https://scamsavvy.example/api/webhooks/mailgun',
        };
      }),
    },
    {
      hook: createPostmarkWebhook({ user: 'fuzz', password: 'p'.repeat(24) }),
      payload: {
        RecordType: 'Bounce',
        ID: 4323372036854775,
        Type: 'HardBounce',
        MessageID: '883953f4-6105-42a2-a16a-77a8eac79483',
        Metadata: { token: tokens.issue() },
        Details: 'smtp;550 5.1.1 The email account that you tried to reach does not exist',
        BouncedAt: machineClock.now().toISOString(),
      },
      request: json((body) => ({
        rawBody: Buffer.from(body),
        headers: { authorization: `Basic ${Buffer.from(`fuzz:${'p'.repeat(24)}`).toString('base64')}` },
        url: 'https://scamsavvy.example/api/webhooks/postmark',
      })),
    },
    {
      hook: createSendgridWebhook({
        publicKey: SENDGRID_KEYS.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
      }),
      payload: [
        {
          email: 'person@example.com',
          timestamp: Math.floor(machineClock.ms() / 1000),
          event: 'bounce',
          type: 'bounce',
          sg_event_id: 'fuzz-event',
          sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0',
          token: tokens.issue(),
          status: '5.1.1',
          reason: '550 5.1.1 no such user',
        },
      ],
      request: json((body) => {
        const timestamp = String(Math.floor(machineClock.ms() / 1000));
        const signature = sign('sha256', Buffer.from(timestamp + body), SENDGRID_KEYS.privateKey).toString('base64');
        return {
          rawBody: Buffer.from(body),
          headers: { [SIGNATURE_HEADER]: signature, [TIMESTAMP_HEADER]: timestamp },
          url: 'https://scamsavvy.example/api/webhooks/sendgrid',
        };
      }),
    },
    {
      hook: createResendWebhook({ secret: RESEND_SECRET }),
      payload: {
        type: 'email.bounced',
        created_at: machineClock.now().toISOString(),
        data: {
          email_id: '56761188-7520-42d8-8898-ff6fc54ce618',
          tags: { token: tokens.issue() },
          bounce: { type: 'Permanent', subType: 'General', message: 'No such user' },
        },
      },
      request: json((body) => {
        const id = `msg_${Math.random().toString(36).slice(2)}`;
        const timestamp = String(Math.floor(machineClock.ms() / 1000));
        const key = Buffer.from(RESEND_SECRET.slice('whsec_'.length), 'base64');
        const signature = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
        return {
          rawBody: Buffer.from(body),
          headers: { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': signature },
          url: 'https://scamsavvy.example/api/webhooks/resend',
        };
      }),
    },
    {
      // SES through SNS: the report (SNS's Message) made up, the envelope signed as SNS signs it, the
      // certificate fetched from the stand-in at SNS's edge.
      hook: createSesWebhook({ topicArns: [SES_TOPIC], snsBaseUrl: sns.baseUrl }),
      payload: {
        eventType: 'Bounce',
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: [{ emailAddress: 'person@example.com', status: '5.1.1', diagnosticCode: 'smtp; 550' }],
          timestamp: machineClock.now().toISOString(),
          feedbackId: '0100018b-bounce',
        },
        complaint: {
          complainedRecipients: [{ emailAddress: 'person@example.com' }],
          timestamp: '2026-11-01T00:00:00Z',
        },
        mail: {
          timestamp: machineClock.now().toISOString(),
          messageId: '0100018b-ses-message-id',
          destination: ['person@example.com'],
          tags: { token: [tokens.issue()] },
          headers: [{ name: 'X-ScamSavvy-Token', value: tokens.issue() }],
        },
      },
      request: (payload) => ({
        rawBody: Buffer.from(JSON.stringify(sns.notification(SES_TOPIC, payload))),
        headers: { 'x-amz-sns-message-type': 'Notification' },
        url: 'https://scamsavvy.example/api/webhooks/ses',
      }),
    },
    {
      // Twilio's status callback: form fields, any of them made up, signed over the URL (our token in it) and the fields.
      hook: createTwilioStatusWebhook({ authToken: TWILIO_TOKEN }),
      payload: {
        MessageSid: 'SM0123456789abcdef0123456789abcdef',
        MessageStatus: 'undelivered',
        ErrorCode: '30003',
        AccountSid: 'AC0123456789abcdef0123456789abcdef',
        From: '+15550001111',
        To: '+15551234567',
      },
      request: (payload) => {
        const url = `https://scamsavvy.example/api/sms/status?t=${tokens.issue()}`;
        const fields = Object.fromEntries(
          Object.entries(payload && typeof payload === 'object' ? payload : {}).map(([name, value]) => [
            name,
            typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
          ]),
        );
        return {
          rawBody: Buffer.from(new URLSearchParams(fields).toString()),
          headers: { 'x-twilio-signature': twilioSignature(TWILIO_TOKEN, url, fields) },
          url,
        };
      },
    },
  ];
}

describe('fuzzing the providers’ webhooks, signed', () => {
  it(
    'answers a verdict for any payload, never a throw, and every time it gives could be stored',
    { timeout: 120_000 },
    async () => {
      const next = random(7);
      const sns = await startSnsStandIn();
      onTestFinished(() => sns.stop());
      for (const { hook, payload, request } of webhooks(sns)) {
        let reports = 0;
        for (let count = 0; count < 300; count += 1) {
          const verdict = await hook.handle(request(mutateJson(payload, next)));
          expect([true, false], hook.source).toContain(verdict.ok);
          if (!verdict.ok) continue;
          for (const event of verdict.events) {
            const at = Date.parse(event.occurredAt);
            expect(Number.isFinite(at), `${hook.source}: ${event.occurredAt}`).toBe(true);
            expect(at).toBeGreaterThanOrEqual(Date.UTC(2000, 0, 1));
            reports += 1;
          }
        }
        // Signed right: the mutations reach the reading, which makes reports of many of them.
        expect(reports, hook.source).toBeGreaterThan(30);
      }
    },
  );
});
