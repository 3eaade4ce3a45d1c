// A "no" holds until that person undoes it (decision 041): a stranger who types someone's address
// or number into the public form changes nothing a broadcast does, and at most one "come back?" email
// reaches a person who said no. Over the real app, a real SMTP server on loopback, a stand-in for
// Twilio's API at the network's edge, on every engine the store suite runs on.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Db } from '../db/open-database.js';
import { ACCOUNT_SID, AUTH_TOKEN } from '../test/broadcast-setup.js';
import { textIn as signedTextIn } from '../test/text-in.js';
import { buildTestApp } from '../test/build-test-app.js';
import { SITE } from '../test/site.js';
import { startSmtpSink, type ReceivedMail } from '../test/smtp-sink.js';
import { storeEngines } from '../test/store-engines.js';
import { startTwilioStandIn } from '../test/twilio-stand-in.js';
import type { Audience } from './contact-rule.js';
import { CONFIRMING } from '../test/test-config.js';

/** A broadcast's widest audience: everyone, the unconfirmed included (`--include-unconfirmed`). */
const EVERYONE: Audience = { segment: 'all', confirmation: 'everyone' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const to = (email: string) => (mail: ReceivedMail) => mail.envelope.to.includes(email);

async function start(engine: (typeof storeEngines)[number]) {
  const smtp = await startSmtpSink();
  onTestFinished(() => smtp.stop());
  const twilio = await startTwilioStandIn({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  onTestFinished(() => twilio.stop());
  const { app, db, product } = await buildTestApp({
    engine,
    database: { confirmSignups: true },
    config: {
      siteUrl: SITE,
      messaging: {
        email: { smtpUrl: smtp.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
        sms: {
          provider: 'twilio',
          accountSid: ACCOUNT_SID,
          authToken: AUTH_TOKEN,
          from: '+15550001111',
          apiBaseUrl: twilio.baseUrl,
        },
        ...CONFIRMING,
      },
    },
    overrides: {
      messaging: { mailer: { retryBaseMs: 100, maxRetryMs: 300 }, everyMs: { 'confirmation-emails': 100 } },
    },
  });
  await app.ready();
  const { messaging } = product;
  const { subscriptions } = messaging;

  async function signUp(email: string, phone: string, betaTesting = false) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/signups',
      payload: { name: 'Someone', phone, email, betaTesting, openedForMs: 5000, consentVersion: '2026-11-23' },
    });
    expect(response.statusCode).toBe(201);
  }
  async function person(email: string) {
    const found = await db.subscribers.subscriberByEmailKey(email);
    if (!found) throw new Error(`${email} is not stored`);
    return found;
  }
  /** What every sender decides for this person: the one contact rule, for a broadcast to everyone. */
  async function broadcastSays(email: string) {
    return subscriptions.exclusions(await person(email), ['email', 'sms'], EVERYONE);
  }
  /** The person confirms with the button in their email, as they would. */
  async function confirm(email: string) {
    const mail = await smtp.waitFor(to(email), 10_000);
    const link = (mail.parsed.text ?? '').match(new RegExp(`${SITE}(/confirm/[A-Za-z0-9_-]+)`))?.[1];
    expect(link).toBeDefined();
    expect((await app.inject({ method: 'POST', url: link!, payload: {} })).statusCode).toBe(303);
    return link!;
  }
  async function textIn(from: string, body: string) {
    const messageSid = `SM${from.replace(/\D/g, '').padEnd(32, '7')}`;
    const response = await signedTextIn(app, { from, to: '+15550001111', body, messageSid });
    expect(response.statusCode).toBe(200);
  }
  return { app, db: db as Db, smtp, subscriptions, signUp, person, broadcastSays, confirm, textIn };
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`a stranger's sign-up speaks for nobody (${engine.name})`, () => {
    it('after texts-off: texts stay off, beta stays as it was, and nothing is sent to the person', async () => {
      const { db, smtp, subscriptions, signUp, person, broadcastSays, confirm } = await start(engine);
      await signUp('rosa@example.com', '+15551230001');
      await confirm('rosa@example.com');
      const rosa = await person('rosa@example.com');
      await subscriptions.updatePreferences(rosa.id, { sms: false }, 'preferences_page');
      expect(await broadcastSays('rosa@example.com')).toEqual({ sms: 'opted_out' });

      await signUp('ROSA@example.com', '+15551230001', true);
      await pause(400);
      expect(await person('rosa@example.com')).toMatchObject({ smsOptOutAt: expect.any(String), betaTesting: false });
      expect(await broadcastSays('rosa@example.com')).toEqual({ sms: 'opted_out' });
      expect(smtp.messages().filter(to('rosa@example.com'))).toHaveLength(1); // the confirmation, nothing since
      expect((await db.consentEvents.history(rosa.id)).map((event) => event.kind)).not.toContain('sms_on');
    });

    it('after leaving: still out of every broadcast, and one "come back?" email, never a second', async () => {
      const { app, smtp, subscriptions, signUp, person, broadcastSays, confirm } = await start(engine);
      await signUp('ben@example.com', '+15551230002');
      await confirm('ben@example.com');
      await subscriptions.leave((await person('ben@example.com')).id, 'preferences_page');

      await signUp('ben@example.com', '+15551230002');
      const comeBack = await smtp.waitFor(
        (mail) =>
          to('ben@example.com')(mail) && mail.parsed.subject === 'Do you want launch news from ScamSavvy again?',
        10_000,
      );
      expect(comeBack.parsed.text).toContain('Before that, you had left our list.');
      expect(comeBack.parsed.text).toContain('Nothing changes, and we will not ask you again.');
      expect(await broadcastSays('ben@example.com')).toEqual({ email: 'left', sms: 'left' });
      // Its link is a button emailed for this (good once, for a day: issue 54): it opens a page, and
      // nothing changes until the button there is pressed.
      const link = (comeBack.parsed.text ?? '').match(new RegExp(`${SITE}(/button/back/\\S+)`))?.[1];
      expect((await app.inject({ method: 'GET', url: link! })).body).toContain('Yes, send me launch news again');
      expect((await person('ben@example.com')).leftAt).not.toBeNull();

      await signUp('ben@example.com', '+15551230002');
      await signUp('Ben@Example.com', '+15559990000');
      await pause(600);
      expect(smtp.messages().filter(to('ben@example.com'))).toHaveLength(2); // the confirmation and one "come back?"
      expect(await broadcastSays('ben@example.com')).toEqual({ email: 'left', sms: 'left' });
      expect((await person('ben@example.com')).phoneChange).toBeNull(); // nobody asked about a new number

      // The person presses it: email comes back; texts stay off (only their page or START turns them on).
      expect((await app.inject({ method: 'POST', url: link!, payload: {} })).statusCode).toBe(303);
      expect(await broadcastSays('ben@example.com')).toEqual({ sms: 'opted_out' });
    });

    it('after a STOP, and after a leaving: the number stays silent for every sign-up that carries it, until START', async () => {
      const { signUp, person, broadcastSays, confirm, subscriptions, textIn } = await start(engine);
      await signUp('cleo@example.com', '+15551230003');
      await confirm('cleo@example.com');
      await textIn('+15551230003', 'STOP');
      await signUp('stranger@example.com', '+15551230003');
      await signUp('cleo@example.com', '+15551230003');
      expect((await broadcastSays('stranger@example.com')).sms).toBe('stopped');
      expect((await broadcastSays('cleo@example.com')).sms).toBe('stopped');

      await signUp('dev@example.com', '+15551230004');
      await confirm('dev@example.com');
      await subscriptions.leave((await person('dev@example.com')).id, 'preferences_page');
      await signUp('another@example.com', '5551230004'); // the same number, typed another way
      await confirm('another@example.com');
      expect((await broadcastSays('another@example.com')).sms).toBe('suppressed');
      expect((await broadcastSays('another@example.com')).email).toBeUndefined();
      await textIn('+15551230004', 'START');
      expect((await broadcastSays('another@example.com')).sms).toBeUndefined();
      expect((await broadcastSays('dev@example.com')).sms).toBe('left'); // their own leaving is theirs to undo
    });

    it('after deleting: the address typed in again gets one "come back?" email and no broadcast', async () => {
      const { smtp, signUp, person, broadcastSays, confirm, subscriptions } = await start(engine);
      await signUp('eve@example.com', '+15551230005');
      await confirm('eve@example.com');
      await subscriptions.remove((await person('eve@example.com')).id, 'preferences_page');

      await signUp('eve@example.com', '+15551230006');
      const comeBack = await smtp.waitFor(
        (mail) =>
          to('eve@example.com')(mail) && mail.parsed.subject === 'Do you want launch news from ScamSavvy again?',
        10_000,
      );
      expect(comeBack.parsed.text).toContain('you had asked us to delete your details');
      expect(await broadcastSays('eve@example.com')).toEqual({ email: 'suppressed', sms: 'suppressed' });
      await signUp('eve@example.com', '+15551230006');
      await pause(600);
      expect(smtp.messages().filter(to('eve@example.com'))).toHaveLength(2);
      expect(await broadcastSays('eve@example.com')).toEqual({ email: 'suppressed', sms: 'suppressed' });
    });
  });
}
