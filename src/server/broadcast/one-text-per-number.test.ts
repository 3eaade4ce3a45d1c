// Issue 54, path 9: nobody can make us text any number anywhere, nor one number many times. Texts go
// only to countries SMS_COUNTRIES names (default: SMS_DEFAULT_COUNTRY's); a number many sign-ups gave
// gets one joining text, and one launch text per broadcast. On both engines, through the real senders.
import { describe, expect, it } from 'vitest';
import { setup } from '../test/broadcast-setup.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { buildTestApp } from '../test/build-test-app.js';
import { messageWords } from '../messaging/message-words.js';
import { SITE } from '../test/site.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { TEXT_HOURS_WORDS } from './send-gate.js';

const SHARED = '+15551110001';
const ALONE = '+15551110002';
const ABROAD = '+447400123456'; // a mobile number in the United Kingdom

for (const engine of storeEngines)
  describe.skipIf(!engine.available)(suiteName('one text per number, only where we text', engine), () => {
    it('sends the launch text once to a number three sign-ups gave, and none abroad, saying why', async () => {
      const base = await setup(engine.name, { texts: true });
      const { store } = base;
      const add = (email: string, phone: string) =>
        store.signups.add({ name: 'Rosa Díaz', phone, email, betaTesting: false, consentVersion: '2026-11-23' });
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await add(email, SHARED);
      await add('d@example.com', ALONE);
      await add('e@example.com', ABROAD);
      for (const email of ['a', 'b', 'c', 'd', 'e'].map((name) => `${name}@example.com`)) {
        const person = await store.subscribers.subscriberByEmailKey(email);
        await store.subscribers.confirm(person!.id);
      }
      await store.optOuts.confirmTexts([SHARED, ALONE, ABROAD], 'sms_reply');

      const { broadcast } = await base.broadcasts.create({ name: 'launch', template: 'launch', channels: ['sms'] });
      await base.send(broadcast);
      const launchTexts = base.twilio!.sent().filter((text) => text.body !== messageWords.sms.joining.reply);
      expect(launchTexts.map((text) => text.to).sort()).toEqual([SHARED, ALONE].sort());
      // The owner sees why each was not sent.
      expect(await store.outbox.skippedReasons(broadcast.id)).toEqual([
        {
          channel: 'sms',
          reason: TEXT_HOURS_WORDS.sameNumber,
          count: 2,
        },
        { channel: 'sms', reason: 'not sent: the number is in GB, which SMS_COUNTRIES does not name', count: 1 },
      ]);
      const { app } = await buildTestApp({
        existing: { db: store, database: base.database, product: base.product },
        config: { siteUrl: SITE },
      });
      const cookie = await signInAsOwner(app, store);
      const page = await app.inject({ url: '/owner/broadcasts/launch', headers: { cookie } });
      expect(page.body).toContain('Not sent, and why');
      expect(page.body).toContain('not sent: the number is in GB, which SMS_COUNTRIES does not name');
    });

    it('"2 texts max" and "never send twice": a second launch broadcast sends nobody the launch again, by email or text; the beta one still goes once', async () => {
      const base = await setup(engine.name, { texts: true });
      const { store } = base;
      for (const [email, phone] of [
        ['a@example.com', SHARED],
        ['b@example.com', SHARED],
        ['d@example.com', ALONE],
      ] as const) {
        await store.signups.add({ name: 'Rosa Díaz', phone, email, betaTesting: true, consentVersion: '2026-11-23' });
        await store.subscribers.confirm((await store.subscribers.subscriberByEmailKey(email))!.id);
      }
      await store.optOuts.confirmTexts([SHARED, ALONE], 'sms_reply');
      const launchTexts = () => base.twilio!.sent().filter((text) => text.body !== messageWords.sms.joining.reply);
      const emailsTo = (email: string) => base.sink.countsByAddress().get(email) ?? 0;

      const { broadcast: first } = await base.broadcasts.create({ name: 'launch', template: 'launch' });
      await base.send(first);
      expect(
        launchTexts()
          .map((text) => text.to)
          .sort(),
      ).toEqual([SHARED, ALONE].sort());
      expect(['a', 'b', 'd'].map((name) => emailsTo(`${name}@example.com`))).toEqual([1, 1, 1]);

      // The owner makes the launch again: every message of it is skipped, and says why.
      const { broadcast: again } = await base.broadcasts.create({ name: 'launch-again', template: 'launch' });
      await base.send(again);
      expect(launchTexts()).toHaveLength(2);
      expect(['a', 'b', 'd'].map((name) => emailsTo(`${name}@example.com`))).toEqual([1, 1, 1]);
      expect(await store.outbox.skippedReasons(again.id)).toEqual(
        expect.arrayContaining([
          { channel: 'email', reason: TEXT_HOURS_WORDS.emailedBefore, count: 3 },
          { channel: 'sms', reason: TEXT_HOURS_WORDS.sameNumber, count: 3 },
        ]),
      );

      // The beta news is another kind: it goes once to each, so a number has two texts at most.
      const { broadcast: beta } = await base.broadcasts.create({ name: 'beta', template: 'beta' });
      await base.send(beta);
      const perNumber = new Map<string, number>();
      for (const text of launchTexts()) perNumber.set(text.to, (perNumber.get(text.to) ?? 0) + 1);
      expect(Object.fromEntries(perNumber)).toEqual({ [SHARED]: 2, [ALONE]: 2 });
      expect(['a', 'b', 'd'].map((name) => emailsTo(`${name}@example.com`))).toEqual([2, 2, 2]);
    });

    it('with SMS_COUNTRIES=US,GB texts the number in the United Kingdom too', async () => {
      // 14:00 UTC: daytime in London too.
      const base = await setup(engine.name, {
        texts: true,
        env: { SMS_COUNTRIES: 'US,GB', TEST_TEXT_CLOCK: '2026-06-10T14:00:00Z' },
      });
      const { store } = base;
      await store.signups.add({
        name: 'Ann Lee',
        phone: ABROAD,
        email: 'ann@example.com',
        betaTesting: false,
        consentVersion: '2026-11-23',
      });
      await store.subscribers.confirm((await store.subscribers.subscriberByEmailKey('ann@example.com'))!.id);
      await store.optOuts.confirmTexts([ABROAD], 'sms_reply');
      const { broadcast } = await base.broadcasts.create({ name: 'launch', template: 'launch', channels: ['sms'] });
      await base.send(broadcast);
      expect(base.twilio!.sent().map((text) => text.to)).toContain(ABROAD);
    });

    it('sends one joining text to a number however many sign-ups typed it, and none to a number abroad', async () => {
      const base = await setup(engine.name, { texts: true });
      const { app } = await buildTestApp({
        existing: { db: base.store, database: base.database },
        config: { siteUrl: SITE, messaging: base.config.messaging },
        overrides: { messaging: { everyMs: { 'joining-texts': 50 } } },
      });
      await app.ready();
      const signUp = async (email: string, phone: string) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/signups',
          payload: {
            name: 'Rosa Díaz',
            phone,
            email,
            betaTesting: false,
            openedForMs: 5000,
            consentVersion: '2026-11-23',
          },
        });
        expect(response.statusCode).toBe(201);
      };
      await signUp('first@example.com', SHARED);
      await base.twilio!.waitFor((text) => text.to === SHARED, 5000);
      // Strangers type the same number with addresses of their own, and a number abroad.
      for (const email of ['x@example.com', 'y@example.com', 'z@example.com']) await signUp(email, SHARED);
      await signUp('abroad@example.com', ABROAD);
      await signUp('last@example.com', ALONE);
      await base.twilio!.waitFor((text) => text.to === ALONE, 5000);
      // Every sign-up's turn has come (the last one's text went): the shared number had one, abroad none.
      expect(base.twilio!.sent().map((text) => text.to)).toEqual([SHARED, ALONE]);
    });
  });
