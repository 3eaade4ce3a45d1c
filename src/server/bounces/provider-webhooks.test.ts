// Postmark, SendGrid and Resend through the real app, on every engine: bodies shaped like each
// provider's documented examples, signed (or authorised) with test keys. Valid reports act once
// even when delivered twice; tampered, unsigned, stale, replayed and wrongly authorised ones get
// 401/403 and change nothing; each route is absent (404) while its variable is unset.
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { addPeople, setup } from '../test/broadcast-setup.js';
import { appFor, firstTokens, mayEmail, type BroadcastWorld } from '../test/broadcast-world-app.js';
import { storeEngines } from '../test/store-engines.js';
import { configuredWebhooks, tagHeadersFor } from '../compose-reports.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './sendgrid-webhook.js';
import { machineClock } from '../test/clock.js';

/** A world with three people who each got the launch email, and the app over it. */
async function sentToThree(engineName: 'sqlite' | 'postgres', env: Record<string, string>) {
  const world = await setup(engineName, { env });
  const people = await addPeople(world.store, 3);
  const { broadcast } = await world.broadcasts.create({ name: 'launch', template: 'launch' });
  expect((await world.send(broadcast)).sent).toBe(3);
  const app = await appFor(world);
  onTestFinished(() => app.close());
  return { world, people, app, tokens: await firstTokens(world, people), broadcast };
}

const healthOf = async (world: BroadcastWorld, broadcastId: number) =>
  world.store.messageHealth.health(broadcastId, 'email', (await world.store.broadcasts.get('launch'))!.startedAt);

const POSTMARK = { POSTMARK_WEBHOOK_USER: 'postmark-hook', POSTMARK_WEBHOOK_PASSWORD: 'p'.repeat(24) };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A Postmark bounce record as Postmark documents it (64-bit ID), carrying our token in Metadata. */
function postmarkBounce(token: string, type = 'HardBounce', id = '4323372036854775807') {
  return `{"RecordType":"Bounce","MessageStream":"outbound","ID":${id},"Type":"${type}","TypeCode":1,"Name":"Hard bounce","Tag":"","MessageID":"883953f4-6105-42a2-a16a-77a8eac79483","Metadata":{"token":"${token}"},"ServerID":23,"Description":"The server was unable to deliver your message (ex: unknown user, mailbox not found).","Details":"smtp;550 5.1.1 The email account that you tried to reach does not exist","Email":"person0@example.com","From":"news@scamsavvy.example","BouncedAt":"${machineClock.now().toISOString()}","DumpAvailable":true,"Inactive":true,"CanActivate":true,"Subject":"ScamSavvy is here"}`;
}

const SENDGRID_KEYS = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const SENDGRID_PUBLIC_KEY = SENDGRID_KEYS.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
const OTHER_KEYS = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

/** A SendGrid batch, signed as SendGrid signs it: ECDSA over the timestamp and the body. */
function sendgridRequest(events: unknown[], { at = machineClock.ms(), key = SENDGRID_KEYS.privateKey } = {}) {
  const payload = JSON.stringify(events);
  const timestamp = String(Math.floor(at / 1000));
  const signature = sign('sha256', Buffer.from(timestamp + payload), key).toString('base64');
  return { payload, headers: { [SIGNATURE_HEADER]: signature, [TIMESTAMP_HEADER]: timestamp } };
}

const RESEND_SECRET = `whsec_${Buffer.from('resend-test-secret-0123456789abcdef').toString('base64')}`;
const RESEND_OLD_SECRET = `whsec_${Buffer.from('resend-old-secret-0123456789abcdef').toString('base64')}`;

/** A Resend event as Svix delivers it: svix-id, svix-timestamp, and v1 signatures (several while keys rotate). */
function resendRequest(
  event: unknown,
  { id = `msg_${Math.random().toString(36).slice(2)}`, at = machineClock.ms(), secrets = [RESEND_SECRET] } = {},
) {
  const payload = JSON.stringify(event);
  const timestamp = String(Math.floor(at / 1000));
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${payload}`).digest('base64')}`;
  });
  return {
    payload,
    headers: { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': signatures.join(' ') },
  };
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`Postmark, SendGrid and Resend on ${engine.name}`, () => {
    it('Postmark: basic credentials or nothing; a hard bounce and a complaint act once; a 64-bit ID read as written', async () => {
      const { world, people, app, tokens, broadcast } = await sentToThree(engine.name, POSTMARK);
      expect(tagHeadersFor(configuredWebhooks(world.config.messaging))('t0ken')).toEqual({
        'X-PM-Metadata-token': 't0ken',
      });
      const post = (payload: string, authorization?: string) =>
        app.inject({
          method: 'POST',
          url: '/api/webhooks/postmark',
          headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          payload,
        });
      const good = basic(POSTMARK.POSTMARK_WEBHOOK_USER, POSTMARK.POSTMARK_WEBHOOK_PASSWORD);
      expect((await post(postmarkBounce(tokens[0]!))).statusCode).toBe(401);
      expect((await post(postmarkBounce(tokens[0]!), basic('postmark-hook', 'q'.repeat(24)))).statusCode).toBe(401);
      expect((await post(postmarkBounce(tokens[0]!), 'Bearer x')).statusCode).toBe(401);
      expect(await mayEmail(world, people[0]!)).toBe(true);

      expect((await post(postmarkBounce(tokens[0]!), good)).json()).toMatchObject({ stored: 1 });
      expect((await post(postmarkBounce(tokens[0]!), good)).json()).toMatchObject({ stored: 0, duplicates: 1 });
      expect(await mayEmail(world, people[0]!)).toBe(false);
      // Two bounces whose IDs differ only past 2^53 are two reports, not one.
      expect((await post(postmarkBounce(tokens[2]!, 'SoftBounce', '4323372036854775809'), good)).json()).toMatchObject({
        stored: 1,
      });
      expect((await post(postmarkBounce(tokens[2]!, 'SoftBounce', '4323372036854775808'), good)).json()).toMatchObject({
        stored: 1,
      });
      expect(await mayEmail(world, people[2]!)).toBe(true); // soft: three different sends make a bounce

      const complaint = JSON.stringify({
        RecordType: 'SpamComplaint',
        ID: 42,
        Type: 'SpamComplaint',
        TypeCode: 512,
        MessageID: 'd6f4d3a5-1111-2222-3333-444455556666',
        // A key's capitals are not ours to rely on: a mail library may re-case the header it came in.
        Metadata: { Token: tokens[1] },
        BouncedAt: machineClock.now().toISOString(),
      });
      expect((await post(complaint, good)).json()).toMatchObject({ stored: 1 });
      expect(await mayEmail(world, people[1]!)).toBe(false);
      expect(await healthOf(world, broadcast.id)).toMatchObject({ hardBounced: 1, softBounced: 1, complained: 1 });
    });

    it('SendGrid: the ECDSA signature over timestamp and body; bounce, dropped and spamreport act once each', async () => {
      const { world, people, app, tokens, broadcast } = await sentToThree(engine.name, {
        SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_PUBLIC_KEY,
      });
      expect(tagHeadersFor(configuredWebhooks(world.config.messaging))('t0ken')).toEqual({
        'X-SMTPAPI': '{"unique_args":{"token":"t0ken"}}',
      });
      const post = ({ payload, headers }: { payload: string; headers: Record<string, string> }) =>
        app.inject({
          method: 'POST',
          url: '/api/webhooks/sendgrid',
          headers: { 'content-type': 'application/json', ...headers },
          payload,
        });
      const now = Math.floor(machineClock.ms() / 1000);
      const bounce = {
        email: 'person0@example.com',
        timestamp: now,
        event: 'bounce',
        type: 'bounce',
        status: '5.1.1',
        reason: '550 5.1.1 The email account that you tried to reach does not exist.',
        sg_event_id: 'ZGVsaXZlcmVkLTAtMjQ0NjY3OTAtZTNlMzU4MjAtYzE1Mi0xMWVkLWE3',
        sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0',
        token: tokens[0],
      };
      const spam = {
        email: 'person1@example.com',
        timestamp: now,
        event: 'spamreport',
        sg_event_id: 'c3BhbXJlcG9ydC0x',
        token: tokens[1],
      };
      const dropped = {
        email: 'person2@example.com',
        timestamp: now,
        event: 'dropped',
        reason: 'Bounced Address',
        sg_event_id: 'ZHJvcHBlZC0x',
        token: tokens[2],
      };
      const opened = {
        email: 'person2@example.com',
        timestamp: now,
        event: 'open',
        sg_event_id: 'b3Blbi0x',
        token: tokens[2],
      };

      // Refused, nothing changes: unsigned, another key, tampered, stale.
      const signed = sendgridRequest([bounce]);
      expect((await post({ payload: signed.payload, headers: {} })).statusCode).toBe(401);
      expect((await post(sendgridRequest([bounce], { key: OTHER_KEYS.privateKey }))).statusCode).toBe(401);
      expect((await post({ ...signed, payload: JSON.stringify([{ ...bounce, token: tokens[1] }]) })).statusCode).toBe(
        401,
      );
      expect((await post(sendgridRequest([bounce], { at: machineClock.ms() - 3_600_000 }))).statusCode).toBe(403);
      expect(await mayEmail(world, people[0]!)).toBe(true);

      expect((await post(signed)).json()).toMatchObject({ stored: 1 });
      // The same signed request again (a replay): its report is stored already, so it changes nothing.
      expect((await post(signed)).json()).toMatchObject({ stored: 0, duplicates: 1 });
      // SendGrid's redelivery (signed afresh) with the rest of the batch: the bounce once, the others acted on.
      expect((await post(sendgridRequest([bounce, spam, dropped, opened]))).json()).toMatchObject({
        stored: 2,
        duplicates: 1,
      });
      expect(await mayEmail(world, people[0]!)).toBe(false);
      expect(await mayEmail(world, people[1]!)).toBe(false);
      expect(await mayEmail(world, people[2]!)).toBe(false);
      expect(await healthOf(world, broadcast.id)).toMatchObject({ hardBounced: 2, complained: 1 });
    });

    it('Resend: Svix signatures (several while keys rotate), 5 minutes, each id once; bounced and complained act', async () => {
      const { world, people, app, broadcast } = await sentToThree(engine.name, {
        RESEND_WEBHOOK_SECRET: RESEND_SECRET,
      });
      // Resend matches by its email id, which we recorded from its SMTP answer when the message left.
      const sent = await Promise.all(people.map((person) => world.store.sentMessages.messagesTo(person.id)));
      const emailIds = sent.map((messages) => messages[0]!.providerId!);
      expect(new Set(emailIds).size).toBe(3);
      expect(emailIds.every((id) => /^[0-9A-F]{16}$/.test(id))).toBe(true);
      const post = ({ payload, headers }: { payload: string; headers: Record<string, string> }) =>
        app.inject({
          method: 'POST',
          url: '/api/webhooks/resend',
          headers: { 'content-type': 'application/json', ...headers },
          payload,
        });
      const bounced = {
        type: 'email.bounced',
        created_at: machineClock.now().toISOString(),
        data: {
          created_at: machineClock.now().toISOString(),
          email_id: emailIds[0],
          from: 'ScamSavvy <news@scamsavvy.example>',
          to: ['person0@example.com'],
          subject: 'ScamSavvy is here',
          bounce: { message: 'The recipient does not exist.', subType: 'General', type: 'Permanent' },
        },
      };
      const signed = resendRequest(bounced, { id: 'msg_bounce_1', secrets: [RESEND_OLD_SECRET, RESEND_SECRET] });
      expect((await post({ payload: signed.payload, headers: {} })).statusCode).toBe(401);
      expect((await post(resendRequest(bounced, { secrets: [RESEND_OLD_SECRET] }))).statusCode).toBe(401);
      expect(
        (
          await post({
            ...signed,
            payload: JSON.stringify({ ...bounced, data: { ...bounced.data, email_id: emailIds[1] } }),
          })
        ).statusCode,
      ).toBe(401);
      expect((await post(resendRequest(bounced, { at: machineClock.ms() - 600_000 }))).statusCode).toBe(403);
      expect(await mayEmail(world, people[0]!)).toBe(true);

      // A Temporary bounce (a full mailbox) is a soft bounce: the address is not suppressed for it.
      const temporary = {
        ...bounced,
        data: {
          ...bounced.data,
          email_id: emailIds[2],
          bounce: { message: 'Mailbox full', subType: 'General', type: 'Temporary' },
        },
      };
      expect((await post(resendRequest(temporary))).json()).toMatchObject({ stored: 1 });
      expect(await mayEmail(world, people[2]!)).toBe(true);
      // A Permanent bounce whose answer is DMARC (our DNS, 5.7.26) is read again by the one judge:
      // a soft bounce, never the person's suppression.
      const dmarc = {
        ...bounced,
        data: {
          ...bounced.data,
          email_id: emailIds[2],
          bounce: {
            message:
              "550 5.7.26 Unauthenticated email from scamsavvy.example is not accepted due to domain's DMARC policy.",
            subType: 'General',
            type: 'Permanent',
          },
        },
      };
      expect((await post(resendRequest(dmarc))).json()).toMatchObject({ stored: 1 });
      expect(await mayEmail(world, people[2]!)).toBe(true);

      expect((await post(signed)).json()).toMatchObject({ stored: 1 });
      expect((await post(signed)).json()).toMatchObject({ stored: 0, duplicates: 1 }); // Svix's retry: same id
      expect(await mayEmail(world, people[0]!)).toBe(false);
      const complained = {
        type: 'email.complained',
        created_at: machineClock.now().toISOString(),
        data: { email_id: emailIds[1], to: ['person1@example.com'], subject: 'ScamSavvy is here' },
      };
      expect((await post(resendRequest(complained))).json()).toMatchObject({ stored: 1 });
      expect(await mayEmail(world, people[1]!)).toBe(false);
      expect(await mayEmail(world, people[2]!)).toBe(true);
      expect(await healthOf(world, broadcast.id)).toMatchObject({ hardBounced: 1, softBounced: 1, complained: 1 });
    });

    it('each route is absent while its variables are unset', async () => {
      const world = await setup(engine.name);
      const app = await appFor(world);
      onTestFinished(() => app.close());
      for (const provider of ['postmark', 'sendgrid', 'resend'])
        expect((await app.inject({ method: 'POST', url: `/api/webhooks/${provider}`, payload: '[]' })).statusCode).toBe(
          404,
        );
    });
  });
}
