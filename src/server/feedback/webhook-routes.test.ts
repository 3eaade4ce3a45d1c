// Twilio's status callbacks through the real app, on every engine: texts sent by a broadcast carry
// their token in the callback URL; signed callbacks act once, in any order; a forged one gets 401
// and changes nothing; without texts set up the route is not there.
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { twilioSignature } from '../consent/twilio-sms-provider.js';
import { addPeople, AUTH_TOKEN, setup } from '../test/broadcast-setup.js';
import { storeEngines } from '../test/store-engines.js';
import { testConfig } from '../test/test-config.js';
import { createFeedbackParts } from './feedback-setup.js';

const SITE = 'https://scamsavvy.example';

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
      const { store, broadcasts, send, twilio, config } = await setup(engine.name, { texts: true });
      const people = await addPeople(store, 3);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch', channels: ['sms'] });
      expect((await send(broadcast)).sent).toBe(3);
      const app = await createApp({
        config: testConfig({ siteUrl: SITE }),
        db: store,
        serveSite: false,
        logger: false,
        feedback: createFeedbackParts(config.messaging, store, broadcasts.subscriptions),
      });
      const texts = new Map(twilio!.sent().map((text) => [text.to, text]));
      const [landline, stopper, fine] = people.map((person) => texts.get(person.phone)!);
      for (const text of [landline, stopper, fine])
        expect(text?.statusCallback).toMatch(/^https:\/\/scamsavvy\.example\/api\/sms\/status\?t=[a-z2-7]{32}$/);
      const personOf = async (index: number) => (await store.consent.subscriber(people[index]!.id))!;

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
      expect((await store.feedback.find({ token }))?.state).toBe('delivered');
      expect(
        await store.feedback.health(broadcast.id, 'sms', (await store.outbox.get('launch'))!.startedAt),
      ).toMatchObject({
        messages: 3,
        delivered: 1,
        undeliverable: 2,
      });
      await app.close();
    });

    it('the route is not there while texts are not set up', async () => {
      const { store, broadcasts, config } = await setup(engine.name);
      const app = await createApp({
        config: testConfig({ siteUrl: SITE }),
        db: store,
        serveSite: false,
        logger: false,
        feedback: createFeedbackParts(config.messaging, store, broadcasts.subscriptions),
      });
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
