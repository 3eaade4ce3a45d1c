// A "yes" to texts is proven (decision 041): a number that joins gets one joining text at once; the
// launch broadcast takes it only after its YES (SMS_CONFIRMATION=reply), or once that text went
// (notice); --include-unconfirmed is the owner's explicit choice; YES, Y, SÍ and START count as yes;
// a text replayed with the same provider id is acted on once. Over the real app and a real broadcast,
// a stand-in for Twilio's API at the network's edge, on every engine the store suite runs on.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createBroadcastControl } from '../compose.js';
import { messageWords, messageWordsIn } from '../messaging/message-words.js';
import { ACCOUNT_SID, AUTH_TOKEN, configFor } from '../test/broadcast-setup.js';
import { textIn as signedTextIn } from '../test/text-in.js';

import { buildTestApp } from '../test/build-test-app.js';
import { SITE } from '../test/site.js';
import { storeEngines, type StoreEngine } from '../test/store-engines.js';
import { startTwilioStandIn } from '../test/twilio-stand-in.js';
import { machineClock, shiftedClock } from '../test/clock.js';

const KEY = 'texts-proven-test-key-that-is-long-enough';
const FROM = '+15550001111';
/** The settings a broadcast control of this world reads. */
const ENV = { SECRET_KEY: KEY, TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: AUTH_TOKEN, TWILIO_FROM: FROM };

async function world(
  engine: StoreEngine,
  proof: 'reply' | 'notice' = 'reply',
  { night = false, texterLater = 0 }: { night?: boolean; texterLater?: number } = {},
) {
  const twilio = await startTwilioStandIn({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  onTestFinished(() => twilio.stop());
  const sms = {
    provider: 'twilio' as const,
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    from: FROM,
    apiBaseUrl: twilio.baseUrl,
  };
  const { app, db } = await buildTestApp({
    engine,
    config: {
      siteUrl: SITE,
      messaging: {
        sms,
        secretKey: KEY,
        smsConfirmation: proof,
        // At night: 3 a.m. in New York by the text rules' clock (the rest keeps the real one).
        ...(night
          ? {
              textHours: {
                sendHours: [9 * 60, 20 * 60] as const,
                defaultCountry: 'US',
                textCountries: ['US'],
                clockShiftMs: Date.parse('2026-06-10T07:00:00Z') - machineClock.ms(),
              },
            }
          : {}),
        emailConfirmation: false,
        unconfirmedRetentionDays: 30,
        confirmationReminderDays: 7,
      },
    },
    overrides: {
      messaging: {
        texter: {
          retryBaseMs: 100,
          maxRetryMs: 300,
          // The texter's clock this far on: every sign-up looks that old to it.
          ...(texterLater ? { now: shiftedClock(texterLater) } : {}),
        },
        everyMs: { 'joining-texts': 100 },
      },
    },
  });
  await app.ready();
  const env = { ...ENV, SMS_CONFIRMATION: proof };
  const { broadcasts } = createBroadcastControl(configFor('smtp://127.0.0.1:9', undefined, env), db);
  let made = 0;
  /** What the launch broadcast would do for the texts now: sent, or why not. */
  const launchText = async (confirmation?: 'everyone') => {
    made += 1;
    const { report } = await broadcasts.create({
      name: `launch-${made}`,
      template: 'launch',
      ...(confirmation ? { confirmation } : {}),
    });
    const tally = report.channels.sms!;
    if (tally.recipients === 1) return 'sent';
    return Object.entries(tally.excluded).find(([, count]) => count > 0)?.[0];
  };
  async function signUp(email: string, phone: string) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/signups',
      payload: { name: 'Someone', phone, email, betaTesting: false, openedForMs: 5000, consentVersion: '2026-11-23' },
    });
    expect(response.statusCode).toBe(201);
  }
  let sid = 0;
  async function textIn(from: string, body: string, messageSid = `SM${String((sid += 1)).padStart(32, '0')}`) {
    const response = await signedTextIn(app, { from, to: FROM, body, messageSid });
    expect(response.statusCode).toBe(200);
    return messageSid;
  }
  return { app, db, twilio, launchText, signUp, textIn };
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`a yes to texts is proven (${engine.name})`, () => {
    it('the joining text goes once at once; the launch text waits for YES; YES is answered with what happens next', async () => {
      const { db, twilio, launchText, signUp, textIn } = await world(engine);
      await signUp('rosa@example.com', '+15551234567');
      const joining = await twilio.waitFor((sent) => sent.to === '+15551234567');
      expect(joining.body).toBe(messageWords.sms.joining.reply);
      expect(joining.body).toMatch(/^ScamSavvy: .*Reply STOP to end, HELP for help\. Msg&data rates may apply\.$/);
      expect(joining.body.length).toBeLessThanOrEqual(160);
      await expect
        .poll(async () => (await db.subscribers.subscriberByEmailKey('rosa@example.com'))?.joiningTextSentAt)
        .not.toBeNull();
      expect(await launchText()).toBe('texts_not_confirmed');
      // The owner's explicit choice takes every number on the list.
      expect(await launchText('everyone')).toBe('sent');

      await textIn('+15551234567', ' Sí ');
      const answer = await twilio.waitFor((sent) => sent.to === '+15551234567' && sent.body !== joining.body);
      // Answered in the language of the word (issue 45): SÍ is Spanish, whatever page they signed up on.
      expect(answer.body).toBe(messageWordsIn.es.sms.confirmed);
      expect(await launchText()).toBe('sent');
      const person = await db.subscribers.subscriberByEmailKey('rosa@example.com');
      expect(person?.smsConfirmedAt).not.toBeNull();
      expect((await db.consentEvents.history(person!.id)).map((event) => event.kind)).toContain('sms_confirmed');
      // Only one joining text, ever, whatever polls and sign-ups come.
      await signUp('rosa@example.com', '+15551234567');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(twilio.sent().filter((sent) => sent.body === joining.body)).toHaveLength(1);
    });

    it('under SMS_CONFIRMATION=notice the launch text goes to a number once the joining text went, unless it stops', async () => {
      const { twilio, launchText, signUp, textIn } = await world(engine, 'notice');
      await signUp('ben@example.com', '+15557654321');
      const joining = await twilio.waitFor((sent) => sent.to === '+15557654321');
      expect(joining.body).toBe(messageWords.sms.joining.notice);
      await expect.poll(launchText).toBe('sent');
      await textIn('+15557654321', 'STOP');
      expect(await launchText()).toBe('stopped');
    });

    it('at night where the number is, a new sign-up still gets its joining text at once; someone on the list for a while waits for morning', async () => {
      const fresh = await world(engine, 'reply', { night: true });
      await fresh.signUp('dora@example.com', '+15550008888');
      await fresh.twilio.waitFor((sent) => sent.to === '+15550008888');
      const settled = await world(engine, 'reply', { night: true, texterLater: 20 * 60_000 });
      await settled.signUp('eli@example.com', '+15550007777');
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(settled.twilio.sent()).toEqual([]);
      expect((await settled.db.subscribers.subscriberByEmailKey('eli@example.com'))?.joiningTextSentAt).toBeNull();
    });

    // Decision 055: a yes counts only for the person proven, so it stays on their record; a "no" is kept
    // by the number's hash, for anyone who could be them.
    it("a number's YES counts for the sign-ups that had it then, not for a stranger who types it later", async () => {
      const { db, twilio, signUp, textIn } = await world(engine);
      await signUp('dora@example.com', '+15550008888');
      await twilio.waitFor((sent) => sent.to === '+15550008888');
      await textIn('+15550008888', 'YES');
      await signUp('stranger@example.com', '+15550008888');
      const { broadcasts } = createBroadcastControl(configFor('smtp://127.0.0.1:9', undefined, ENV), db);
      const { report } = await broadcasts.create({ name: 'launch', template: 'launch' });
      expect(report.channels.sms).toMatchObject({ recipients: 1, excluded: { texts_not_confirmed: 1 } });
      const stranger = (await db.subscribers.subscriberByEmailKey('stranger@example.com'))!;
      expect(stranger.smsConfirmedAt).toBeNull();
      // Its STOP, though, holds for both.
      await textIn('+15550008888', 'STOP');
      const { report: after } = await broadcasts.create({ name: 'launch-after-stop', template: 'launch' });
      expect(after.channels.sms).toMatchObject({ recipients: 0, excluded: { stopped: 2 } });
    });

    it('STOP holds against a replayed START, YES does not undo a STOP, and START is a yes', async () => {
      const { twilio, launchText, signUp, textIn } = await world(engine);
      await signUp('cleo@example.com', '+15550009999');
      await twilio.waitFor((sent) => sent.to === '+15550009999');
      const start = await textIn('+15550009999', 'START');
      expect(await launchText()).toBe('sent'); // START is a yes
      await textIn('+15550009999', 'STOP');
      expect(await launchText()).toBe('stopped');
      await textIn('+15550009999', 'START', start); // the same signed request, captured and sent again
      expect(await launchText()).toBe('stopped');
      await textIn('+15550009999', 'YES');
      expect(await launchText()).toBe('stopped');
      await textIn('+15550009999', 'start');
      expect(await launchText()).toBe('sent');
    });
  });
}
