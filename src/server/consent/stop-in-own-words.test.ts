// Issue 54, path 10: a "no" in the person's own words ("Please stop texting me", "Ya no me mande
// mensajes") turns texts off and gets the one confirmation text; every reply no rule acts on is kept
// for the owner's Replies list, never dropped unseen. Through the real app, on both engines.
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { startTwilioStandIn, type TwilioStandIn } from '../test/twilio-stand-in.js';
import { ACCOUNT_SID, AUTH_TOKEN } from '../test/broadcast-setup.js';
import { textIn as signedTextIn } from '../test/text-in.js';
import { messageWordsIn } from '../messaging/message-words.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import type { Db } from '../db/open-database.js';
import type { MessagingConfig } from '../messaging-config.js';
import { SITE } from '../test/site.js';
import { machineClock } from '../test/clock.js';
import { REPLY_KEEP_DAYS } from '../../shared/kept-days.js';

const SECRET_KEY = 'test-secret-key-that-is-long-enough-123';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

let sids = 0;
function textIn(app: FastifyInstance, from: string, body: string, messageSid?: string) {
  sids += 1;
  return signedTextIn(app, {
    from,
    to: '+15550001111',
    body,
    messageSid: messageSid ?? `SM${String(sids).padStart(32, '7')}`,
  });
}

async function start(engine: (typeof storeEngines)[number], keywordReplies?: 'twilio') {
  const twilio: TwilioStandIn = await startTwilioStandIn({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  cleanups.push(() => twilio.stop());
  const messaging: Partial<MessagingConfig> = {
    sms: {
      provider: 'twilio',
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      from: '+15550001111',
      apiBaseUrl: twilio.baseUrl,
      ...(keywordReplies ? { keywordReplies } : {}),
    },
    secretKey: SECRET_KEY,
    emailConfirmation: false,
  };
  const { app, db } = await buildTestApp({ engine, config: { siteUrl: SITE, messaging } });
  await app.ready();
  return { app, db, twilio };
}

async function signUp(app: FastifyInstance, email: string, phone: string, language: 'en' | 'es' = 'en') {
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
      language,
    },
  });
  expect(response.statusCode).toBe(201);
}

const textsOff = async (db: Db, email: string) =>
  (await db.subscribers.subscriberByEmailKey(email))?.smsOptOutAt !== null;

for (const engine of storeEngines)
  describe.skipIf(!engine.available)(suiteName('a "no" in the person\'s own words', engine), () => {
    it('turns texts off for "Please stop texting me" and "Ya no me mande mensajes", with the one confirmation text in their words\' language', async () => {
      const { app, db, twilio } = await start(engine);
      await signUp(app, 'margaret@example.com', '+15551230001');
      await signUp(app, 'luz@example.com', '+15551230002', 'es');
      await twilio.waitFor((sent) => sent.to === '+15551230002', 5000); // the joining text

      expect((await textIn(app, '+15551230001', 'Please stop texting me')).statusCode).toBe(200);
      expect((await textIn(app, '+15551230002', 'Ya no me mande mensajes')).statusCode).toBe(200);

      expect(await textsOff(db, 'margaret@example.com')).toBe(true);
      expect(await textsOff(db, 'luz@example.com')).toBe(true);
      const margaret = await db.subscribers.subscriberByEmailKey('margaret@example.com');
      expect((await db.consentEvents.history(margaret!.id)).at(-1)).toMatchObject({
        kind: 'sms_off',
        source: 'sms_reply',
      });
      await twilio.waitFor((sent) => sent.to === '+15551230001' && sent.body === messageWordsIn.en.sms.stopped, 5000);
      await twilio.waitFor((sent) => sent.to === '+15551230002' && sent.body === messageWordsIn.es.sms.stopped, 5000);
      // Acted on, so not on the Replies list.
      expect(await db.smsReplies.latest(10)).toEqual([]);
    });

    it('with SMS_KEYWORD_REPLIES=twilio still answers a stop in their own words (Twilio reads only its keywords)', async () => {
      const { app, db, twilio } = await start(engine, 'twilio');
      await signUp(app, 'quiet@example.com', '+15551230003');
      await twilio.waitFor((sent) => sent.to === '+15551230003', 5000); // the joining text
      expect((await textIn(app, '+15551230003', "Don't text me again")).statusCode).toBe(200);
      expect(await textsOff(db, 'quiet@example.com')).toBe(true);
      await twilio.waitFor((sent) => sent.to === '+15551230003' && sent.body === messageWordsIn.en.sms.stopped, 5000);
    });

    it('keeps a reply no rule acts on for the Replies list (the number shown by its last four digits), once however often it comes, and erases it with the person', async () => {
      const { app, db } = await start(engine);
      await signUp(app, 'ann@example.com', '+15551234567');
      const question = 'When does the app come out? My grandson wants it too.';
      expect((await textIn(app, '+15551234567', question, 'SM'.padEnd(34, '9'))).statusCode).toBe(200);
      expect((await textIn(app, '+15551234567', question, 'SM'.padEnd(34, '9'))).statusCode).toBe(200);
      // A YES from a number nobody on the list gave: nothing to act on, so kept too.
      expect((await textIn(app, '+15557654321', 'yes')).statusCode).toBe(200);
      expect(await textsOff(db, 'ann@example.com')).toBe(false);
      expect((await db.smsReplies.latest(10)).map(({ phoneEnd, body }) => ({ phoneEnd, body }))).toEqual([
        { phoneEnd: '4321', body: 'yes' },
        { phoneEnd: '4567', body: question },
      ]);

      const cookie = await signInAsOwner(app, db);
      const page = await app.inject({ method: 'GET', url: '/owner/replies', headers: { cookie } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('a phone ending 4567');
      expect(page.body).toContain('When does the app come out? My grandson wants it too.');
      expect(page.body).not.toContain('5551234567');
      expect((await db.owners.auditLog(5)).map((entry) => entry.action)).toContain('read_replies');

      const ann = await db.subscribers.subscriberByEmailKey('ann@example.com');
      const deleted = await app.inject({
        method: 'POST',
        url: `/owner/people/${ann!.id}/delete`,
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
      });
      expect(deleted.statusCode).toBeLessThan(400);
      expect((await db.smsReplies.latest(10)).map(({ phoneEnd }) => phoneEnd)).toEqual(['4321']);
    });

    it('erases a kept reply after the days the privacy notice names, and not before', async () => {
      const { app, db } = await start(engine);
      expect((await textIn(app, '+15557654300', 'Is this the scam app?')).statusCode).toBe(200);
      // The database stamps the reply with the machine's clock: the cut-off is taken around it.
      const dayMs = 86_400_000;
      expect(await db.smsReplies.forgetBefore(new Date(machineClock.ms() - REPLY_KEEP_DAYS * dayMs))).toBe(0);
      expect(await db.smsReplies.latest(10)).toHaveLength(1);
      expect(await db.smsReplies.forgetBefore(new Date(machineClock.ms() + 60_000))).toBe(1);
      expect(await db.smsReplies.latest(10)).toEqual([]);
    });
  });
