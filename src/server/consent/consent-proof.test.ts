// The proof of consent (issue 56) through the real app, on both engines: a person who signed up on
// the Spanish page, answered "Sí" to the joining text and later texted "please stop texting me" has
// all three in their proof, each with the words shown or received; after their deletion the proof
// by their address still says what they agreed to and when they said no. The dashboard serves it.
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { startTwilioStandIn } from '../test/twilio-stand-in.js';
import { ACCOUNT_SID, AUTH_TOKEN } from '../test/broadcast-setup.js';
import { textIn } from '../test/text-in.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { SITE } from '../test/site.js';
import { SIGNUP_CONSENT_VERSION, signupConsentWords } from '../../shared/consent-words.js';
import { messageWordsIn } from '../messaging/message-words.js';
import { consentProof, proofText } from './consent-proof.js';
import { consentTextsNow } from './consent-texts.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const PHONE = '+12125550142';

async function start(engine: (typeof storeEngines)[number]) {
  const twilio = await startTwilioStandIn({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  cleanups.push(() => twilio.stop());
  const built = await buildTestApp({
    engine,
    config: {
      siteUrl: SITE,
      messaging: {
        sms: {
          provider: 'twilio',
          accountSid: ACCOUNT_SID,
          authToken: AUTH_TOKEN,
          from: '+15550001111',
          apiBaseUrl: twilio.baseUrl,
        },
        secretKey: 'test-secret-key-that-is-long-enough-123',
        emailConfirmation: false,
      },
    },
  });
  await built.app.ready();
  // What the server keeps at start (compose.ts composeServer).
  expect(await built.db.consentTexts.keep(consentTextsNow('reply'))).toEqual([]);
  return built;
}

let sid = 0;
const text = (app: FastifyInstance, body: string) =>
  textIn(app, { from: PHONE, to: '+15550001111', body, messageSid: `SM${String((sid += 1)).padStart(32, '4')}` });

for (const engine of storeEngines)
  describe.skipIf(!engine.available)(suiteName('the proof of consent', engine), () => {
    it('lists the sign-up, the YES and the STOP with their words, and keeps them after a deletion', async () => {
      const { app, db, product } = await start(engine);
      const signedUp = await app.inject({
        method: 'POST',
        url: '/api/signups',
        payload: {
          name: 'Rosa Díaz',
          phone: PHONE,
          email: 'rosa@example.com',
          betaTesting: false,
          openedForMs: 5000,
          consentVersion: SIGNUP_CONSENT_VERSION,
          language: 'es',
        },
      });
      expect(signedUp.statusCode).toBe(201);
      expect((await text(app, 'Sí')).statusCode).toBe(200);
      expect((await text(app, 'please stop texting me')).statusCode).toBe(200);
      const { subscriptions } = product.messaging;

      const [proof] = await consentProof(db, subscriptions, { phone: '(212) 555-0142' });
      const form = signupConsentWords.es;
      expect(proof?.person).toMatchObject({ name: 'Rosa Díaz', email: 'rosa@example.com', language: 'es' });
      expect(proof?.lines.map((line) => [line.kind, line.source, line.wordsShown, line.wordsReceived])).toEqual([
        ['signed_up', 'signup_form', `${form.consentDetails}\n${form.consent}`, null],
        ['sms_confirmed', 'sms_reply', messageWordsIn.es.sms.joining.reply, 'Sí'],
        ['sms_off', 'sms_reply', null, 'please stop texting me'],
      ]);
      const words = proofText([proof!], PHONE);
      expect(words).toContain(`consent version ${SIGNUP_CONSENT_VERSION}`);
      expect(words).toContain('Words received: “Sí”');
      expect(words).toContain('Words received: “please stop texting me”');

      // The dashboard's person page gives the same proof, as text and JSON.
      const cookie = await signInAsOwner(app, db);
      const rosa = (await db.subscribers.subscriberByEmailKey('rosa@example.com'))!;
      const page = await app.inject({ method: 'GET', url: `/owner/people/${rosa.id}`, headers: { cookie } });
      expect(page.body).toContain(`/owner/people/${rosa.id}/proof.txt`);
      const served = await app.inject({
        method: 'GET',
        url: `/owner/people/${rosa.id}/proof.json`,
        headers: { cookie },
      });
      expect(served.headers['cache-control']).toBe('no-store');
      expect(served.json()).toEqual(JSON.parse(JSON.stringify([proof])));
      expect(
        (await app.inject({ method: 'GET', url: `/owner/people/${rosa.id}/proof.txt`, headers: { cookie } })).body,
      ).toBe(proofText([proof!], 'rosa@example.com'));

      // Deleted: nothing of them on record, and the proof by their address still holds.
      expect(await subscriptions.remove(rosa.id, 'owner')).toBeDefined();
      expect(await db.subscribers.subscriberByEmailKey('rosa@example.com')).toBeUndefined();
      const [kept] = await consentProof(db, subscriptions, { email: 'Rosa@Example.com' });
      expect(kept?.person).toBeNull();
      expect(kept?.lines.map((line) => [line.kind, line.wordsShown !== null, line.wordsReceived])).toEqual([
        ['signed_up', true, null],
        ['sms_confirmed', true, 'Sí'],
        ['sms_off', false, 'please stop texting me'],
        ['no:deleted', false, null],
      ]);
      expect(JSON.stringify(kept)).not.toContain('Rosa Díaz');
      expect(JSON.stringify(kept)).not.toContain('212');
      const [byPhone] = await consentProof(db, subscriptions, { phone: PHONE });
      expect(byPhone?.lines.map((line) => line.kind)).toEqual([
        'signed_up',
        'sms_confirmed',
        'sms_off',
        'no:sms_stop',
        'no:deleted',
      ]);
      expect(await consentProof(db, subscriptions, { email: 'nobody@example.com' })).toEqual([]);
    });
  });
