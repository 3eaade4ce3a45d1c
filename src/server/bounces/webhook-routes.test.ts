// Twilio's status callbacks through the real app, on every engine: texts sent by a broadcast carry
// their token in the callback URL; signed callbacks act once, in any order; a forged one gets 401
// and changes nothing; without texts set up the route is not there.
import { createHmac } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { twilioSignature } from '../messaging/twilio-sms-provider.js';
import { addPeople, AUTH_TOKEN, setup } from '../test/broadcast-setup.js';
import { startCountingSmtpSink } from '../test/smtp-sink.js';
import { storeEngines } from '../test/store-engines.js';
import { appFor } from '../test/broadcast-world-app.js';
import { SITE } from '../test/site.js';
import { buildTestApp } from '../test/build-test-app.js';
import { configuredWebhooks, tagHeadersFor } from '../compose-reports.js';
import { machineClock } from '../test/clock.js';

/** A status callback as Twilio posts it: form fields, signed over the full URL. */
function callback(url: string, fields: Record<string, string>, token = AUTH_TOKEN) {
  return {
    method: 'POST' as const,
    url: url.slice(SITE.length),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(token, url, fields),
    },
    payload: new URLSearchParams(fields).toString(),
  };
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`Twilio status callbacks on ${engine.name}`, () => {
    it('a landline, a STOP and a delivery (reported out of order and twice) each act once; a forged one changes nothing', async () => {
      const world = await setup(engine.name, { texts: true });
      const { store, broadcasts, send, twilio } = world;
      const people = await addPeople(store, 3);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch', channels: ['sms'] });
      expect((await send(broadcast)).sent).toBe(3);
      const app = await appFor(world);
      const texts = new Map(twilio!.sent().map((text) => [text.to, text]));
      const [landline, stopper, fine] = people.map((person) => texts.get(person.phone)!);
      for (const text of [landline, stopper, fine])
        expect(text?.statusCallback).toMatch(/^https:\/\/scamsavvy\.example\/api\/sms\/status\?t=[a-z2-7]{32}$/);
      const personOf = async (index: number) => (await store.subscribers.subscriber(people[index]!.id))!;

      // A forged signature (another auth token): refused, nothing changes.
      const forged = await app.inject(
        callback(
          landline!.statusCallback!,
          { MessageSid: landline!.sid!, MessageStatus: 'undelivered', ErrorCode: '30006' },
          'x'.repeat(32),
        ),
      );
      expect(forged.statusCode).toBe(401);
      expect(await broadcasts.subscriptions.mayContact(await personOf(0), 'sms')).toBe(true);

      const undelivered = callback(landline!.statusCallback!, {
        MessageSid: landline!.sid!,
        MessageStatus: 'undelivered',
        ErrorCode: '30006',
      });
      expect((await app.inject(undelivered)).json()).toMatchObject({ stored: 1, duplicates: 0 });
      expect((await app.inject(undelivered)).json()).toMatchObject({ stored: 0, duplicates: 1 });
      expect(await broadcasts.subscriptions.mayContact(await personOf(0), 'sms')).toBe(false);
      expect(await broadcasts.subscriptions.mayContact(await personOf(0), 'email')).toBe(true);

      await app.inject(
        callback(stopper!.statusCallback!, { MessageSid: stopper!.sid!, MessageStatus: 'failed', ErrorCode: '21610' }),
      );
      expect((await personOf(1)).smsOptOutAt).not.toBeNull();

      // Delivered arrives before sent: it stays delivered.
      for (const status of ['delivered', 'sent'])
        expect(
          (await app.inject(callback(fine!.statusCallback!, { MessageSid: fine!.sid!, MessageStatus: status })))
            .statusCode,
        ).toBe(200);
      const token = new URL(fine!.statusCallback!).searchParams.get('t')!;
      expect((await store.sentMessages.find({ token }))?.state).toBe('delivered');
      expect(
        await store.messageHealth.health(broadcast.id, 'sms', (await store.broadcasts.get('launch'))!.startedAt),
      ).toMatchObject({
        messages: 3,
        delivered: 1,
        undeliverable: 2,
      });
      await app.close();
    });

    it('our account’s problems (30001, 30002, 30010, 30032, 30034) never count against the person: the texts pause with that code’s own reason', async () => {
      const world = await setup(engine.name, { texts: true });
      const { store, broadcasts, send, twilio } = world;
      const people = await addPeople(store, 5);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch', channels: ['sms'] });
      expect((await send(broadcast)).sent).toBe(5);
      const app = await appFor(world);
      const texts = new Map(twilio!.sent().map((text) => [text.to, text]));
      for (const [index, code] of ['30034', '30001', '30002', '30010', '30032'].entries()) {
        const text = texts.get(people[index]!.phone)!;
        const fields = { MessageSid: text.sid!, MessageStatus: 'undelivered', ErrorCode: code };
        expect((await app.inject(callback(text.statusCallback!, fields))).json()).toMatchObject({ stored: 1 });
        const token = new URL(text.statusCallback!).searchParams.get('t')!;
        expect((await store.sentMessages.find({ token }))?.state).toBe('filtered');
      }
      // Nobody's number is marked, and nothing counts as the person's bounce.
      for (const person of people)
        expect(await broadcasts.subscriptions.mayContact((await store.subscribers.subscriber(person.id))!, 'sms')).toBe(
          true,
        );
      const startedAt = (await store.broadcasts.get('launch'))!.startedAt;
      expect(await store.messageHealth.health(broadcast.id, 'sms', startedAt)).toMatchObject({
        softBounced: 0,
        undeliverable: 0,
      });
      // The first pauses the texts, with its own reason: 30034's words, not 30007's.
      expect(await store.broadcastPauses.channelPauses(broadcast.id)).toEqual([
        expect.objectContaining({
          channel: 'sms',
          cause: 'sender',
          reason: expect.stringMatching(/not registered \(Twilio 30034\)/),
          answer: 'Twilio undelivered, error 30034',
        }),
      ]);
      await app.close();
    });

    it('the route is not there while texts are not set up', async () => {
      const world = await setup(engine.name);
      const app = await appFor(world);
      const response = await app.inject({
        method: 'POST',
        url: '/api/sms/status',
        payload: 'MessageSid=SM1&MessageStatus=delivered',
      });
      expect(response.statusCode).toBe(404);
      await app.close();
    });
  });
}

const SIGNING_KEY = 'key-0123456789abcdef0123456789abcdef';

/** A Mailgun webhook body as Mailgun documents it, signed with SIGNING_KEY (or another key). */
function mailgunBody(
  eventData: Record<string, unknown>,
  { key = SIGNING_KEY, at = machineClock.ms(), token = `${Math.random().toString(36).slice(2)}${'x'.repeat(30)}` } = {},
) {
  const timestamp = String(Math.floor(at / 1000));
  const signature = createHmac('sha256', key)
    .update(timestamp + token)
    .digest('hex');
  return JSON.stringify({ signature: { timestamp, token, signature }, 'event-data': eventData });
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`Mailgun's webhook on ${engine.name}`, () => {
    it('hands our token back: a permanent failure suppresses, a complaint stops email, each once; forged, stale and replayed ones change nothing', async () => {
      const counting = await startCountingSmtpSink();
      onTestFinished(() => counting.stop());
      const world = await setup(engine.name, { smtp: counting, env: { MAILGUN_WEBHOOK_SIGNING_KEY: SIGNING_KEY } });
      const { store, broadcasts, send, config } = world;
      // Every email carries the token where Mailgun hands it back.
      expect(tagHeadersFor(configuredWebhooks(config.messaging))('t0ken')).toEqual({
        'X-Mailgun-Variables': '{"token":"t0ken"}',
      });
      const people = await addPeople(store, 3);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      expect((await send(broadcast)).sent).toBe(3);
      const app = await appFor(world);
      const tokens = (await Promise.all(people.map((person) => store.sentMessages.messagesTo(person.id)))).map(
        (messages) => messages[0]!.token,
      );
      const post = (payload: string) =>
        app.inject({
          method: 'POST',
          url: '/api/webhooks/mailgun',
          headers: { 'content-type': 'application/json' },
          payload,
        });
      const may = async (index: number) =>
        broadcasts.subscriptions.mayContact((await store.subscribers.subscriber(people[index]!.id))!, 'email');
      const failed = {
        id: 'event-failed-1',
        event: 'failed',
        severity: 'permanent',
        timestamp: machineClock.ms() / 1000,
        recipient: people[0]!.email,
        'user-variables': { token: tokens[0] },
        'delivery-status': { code: 550, 'enhanced-code': '5.1.1', description: `No such user ${people[0]!.email}` },
        message: { headers: { 'message-id': 'x@scamsavvy.example' } },
      };

      // Forged (another key), stale (an hour old), unsigned: refused, nothing changes.
      expect((await post(mailgunBody(failed, { key: 'key-someone-else-000000000000' }))).statusCode).toBe(401);
      expect((await post(mailgunBody(failed, { at: machineClock.ms() - 3_600_000 }))).statusCode).toBe(403);
      expect((await post(JSON.stringify({ 'event-data': failed }))).statusCode).toBe(401);
      // A token someone wrote into a report themselves (not one we signed): nothing.
      expect(
        (
          await post(mailgunBody({ ...failed, id: 'event-forged', 'user-variables': { token: 'a'.repeat(32) } }))
        ).json(),
      ).toMatchObject({ unmatched: 1 });
      expect(await may(0)).toBe(true);

      const signed = mailgunBody(failed);
      expect((await post(signed)).json()).toMatchObject({ stored: 1 });
      // The same signed request again (a replay) and Mailgun's own redelivery (newly signed): stored once.
      expect((await post(signed)).json()).toMatchObject({ stored: 0, duplicates: 1 });
      expect((await post(mailgunBody(failed))).json()).toMatchObject({ stored: 0, duplicates: 1 });
      expect(await may(0)).toBe(false);
      // Mailgun signs only its timestamp and token: that signature with another report (a complaint
      // about someone else) is a replay, refused, and nobody is touched.
      const complaintWithSignatureOf = (earlier: string, id: string) => {
        const used = (JSON.parse(earlier) as { signature: { token: string; timestamp: string } }).signature;
        const complaint = {
          id,
          event: 'complained',
          timestamp: machineClock.ms() / 1000,
          'user-variables': { token: tokens[2] },
        };
        return post(mailgunBody(complaint, { token: used.token, at: Number(used.timestamp) * 1000 }));
      };
      const replayed = await complaintWithSignatureOf(signed, 'event-replayed');
      expect(replayed.statusCode).toBe(403);
      // A report with no token of ours, naming a Message-ID worked out from the counted ids: nothing.
      const counted = await post(
        mailgunBody({
          id: 'event-counted',
          event: 'complained',
          timestamp: machineClock.ms() / 1000,
          message: { headers: { 'message-id': `broadcast-${broadcast.id}.message-3@scamsavvy.example` } },
        }),
      );
      expect(counted.json()).toMatchObject({ stored: 0, unmatched: 1 });
      expect(replayed.json()).toEqual({ error: 'this signature was used already, with another report' });
      // A signature first used on an event we do not act on ("opened") is remembered all the same:
      // its token with a complaint is refused too.
      const opened = mailgunBody({ id: 'event-opened', event: 'opened', timestamp: machineClock.ms() / 1000 });
      expect((await post(opened)).statusCode).toBe(200);
      const complaintOnOpened = await complaintWithSignatureOf(opened, 'event-on-opened');
      expect(complaintOnOpened.statusCode).toBe(403);
      expect(await may(2)).toBe(true);
      const history = await store.consentEvents.history(people[0]!.id);
      expect(history.map((event) => event.kind)).toContain('email_bounced');

      await post(
        mailgunBody({
          id: 'event-complaint-1',
          event: 'complained',
          timestamp: machineClock.ms() / 1000,
          'user-variables': { token: tokens[1] },
        }),
      );
      expect(await may(1)).toBe(false);
      expect(await may(2)).toBe(true);
      // A time no database can hold (a timestamp in the year 31 million) is taken as the time we
      // received the report: stored, never a 500, and on PostgreSQL nothing else in the batch is lost.
      const far = await post(
        mailgunBody({
          id: 'event-delivered-far',
          event: 'delivered',
          timestamp: 1e15,
          'user-variables': { token: tokens[2] },
        }),
      );
      expect(far.statusCode).toBe(200);
      expect(far.json()).toMatchObject({ stored: 1 });
      await app.close();
    });

    it('answers 429 past WEBHOOK_RATE_LIMIT_PER_MINUTE from one address, before reading anything; the provider sends again later', async () => {
      const world = await setup(engine.name, { env: { MAILGUN_WEBHOOK_SIGNING_KEY: SIGNING_KEY } });
      const { app } = await buildTestApp({
        existing: { db: world.store, database: world.database, product: world.product },
        config: {
          siteUrl: SITE,
          rateLimit: { perMinute: 0, perHour: 0, redisUrl: undefined, eventsPerMinute: 0, webhooksPerMinute: 3 },
        },
      });
      const post = () =>
        app.inject({
          method: 'POST',
          url: '/api/webhooks/mailgun',
          headers: { 'content-type': 'application/json' },
          payload: mailgunBody({ id: `e-${Math.random()}`, event: 'delivered', timestamp: machineClock.ms() / 1000 }),
        });
      for (let count = 0; count < 3; count += 1) expect((await post()).statusCode).toBe(200);
      const limited = await post();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
      await app.close();
    });

    it('is not there while MAILGUN_WEBHOOK_SIGNING_KEY is unset', async () => {
      const world = await setup(engine.name);
      const app = await appFor(world);
      expect((await app.inject({ method: 'POST', url: '/api/webhooks/mailgun', payload: '{}' })).statusCode).toBe(404);
      await app.close();
    });
  });
}
