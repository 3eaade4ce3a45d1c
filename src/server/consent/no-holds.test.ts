// Issue 54, paths 2, 3, 4 and 8: a person's "no" holds until that person undoes it. Not a sweep of
// never-confirmed sign-ups, not a stranger typing their address or number, not a corrected name, not
// an owner's signups:ask-to-confirm. Through the real app, a real SMTP server on loopback and the
// Twilio stand-in, on both engines.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { storeEngines, suiteName, type StoreEngine } from '../test/store-engines.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { startTwilioStandIn } from '../test/twilio-stand-in.js';
import { ACCOUNT_SID, AUTH_TOKEN } from '../test/broadcast-setup.js';
import { SITE } from '../test/site.js';
import { machineClock } from '../test/clock.js';
import { linkPageWords } from '../messaging/message-words.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { buttonPaths, pressEmailedButton } from '../test/emailed-button.js';

const SECRET_KEY = 'test-secret-key-that-is-long-enough-123';
const DAY_MS = 86_400_000;

async function world(engine: StoreEngine, { confirm = true }: { confirm?: boolean } = {}) {
  const mail = await startSmtpSink();
  onTestFinished(() => mail.stop());
  const twilio = await startTwilioStandIn({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  onTestFinished(() => twilio.stop());
  const { app, db, product } = await buildTestApp({
    engine,
    database: { confirmSignups: confirm },
    config: {
      siteUrl: SITE,
      messaging: {
        email: { smtpUrl: mail.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
        sms: {
          provider: 'twilio',
          accountSid: ACCOUNT_SID,
          authToken: AUTH_TOKEN,
          from: '+15550001111',
          apiBaseUrl: twilio.baseUrl,
        },
        secretKey: SECRET_KEY,
        emailConfirmation: confirm,
        unconfirmedRetentionDays: 30,
        confirmationReminderDays: 7,
      },
    },
    overrides: { messaging: { everyMs: { 'confirmation-emails': 50, 'joining-texts': 50 } } },
  });
  await app.ready();
  const { subscriptions, links } = product.messaging;
  const signUp = async (email: string, phone: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/signups',
      payload: { name: 'Rosa Díaz', phone, email, betaTesting: false, openedForMs: 5000, consentVersion: '2026-11-23' },
    });
    expect(response.statusCode).toBe(201);
  };
  const person = (email: string) => db.subscribers.subscriberByEmailKey(email);
  const page = async (email: string) => `/preferences/${links!.sign('manage', (await person(email))!.id)}`;
  const post = (app_: FastifyInstance, url: string, fields: Record<string, string> = {}) =>
    app_.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const mailsTo = (email: string) => mail.messages().filter((each) => each.envelope.to.includes(email));
  /** Saves choices on the person's own page that turn something on, then presses the button that emails (issue 54). */
  const turnOn = async (email: string, fields: Record<string, string>) => {
    const seen = buttonPaths(mail, email).length;
    expect((await post(app, await page(email), fields)).statusCode).toBe(303);
    expect((await pressEmailedButton(app, mail, email, seen)).pressed.statusCode).toBe(303);
  };
  /** The never-confirmed sweep, as if its days had passed. */
  const sweep = () => db.confirmations.deleteUnconfirmed(new Date(machineClock.ms() + DAY_MS));
  /** The confirmation mailer has had this address's request: sent or dropped, none waits. */
  const emailHandled = (email: string) =>
    expect.poll(async () => (await person(email))?.confirmationWaiting, { timeout: 10_000 }).toBe(false);
  /**
   * The joining texts' job has had every earlier sign-up: a later one's text went (they go oldest first).
   */
  const textsHandled = async (control: string) => {
    await signUp(`control-${control.slice(-4)}@example.com`, control);
    await twilio.waitFor((text) => text.to === control, 10_000);
  };
  return {
    app,
    db,
    mail,
    twilio,
    subscriptions,
    signUp,
    person,
    page,
    post,
    mailsTo,
    turnOn,
    sweep,
    emailHandled,
    textsHandled,
  };
}

for (const engine of storeEngines)
  describe.skipIf(!engine.available)(suiteName('a "no" holds', engine), () => {
    it('path 2: an unsubscribe before confirming outlives the sweep: a stranger typing the address gets the one "come back?" email, never the confirmation again', async () => {
      const w = await world(engine);
      await w.signUp('ana@example.com', '+15551230001');
      await w.mail.waitFor((each) => each.envelope.to.includes('ana@example.com'), 5000);
      await w.emailHandled('ana@example.com'); // its going out recorded, as the sweep counts from it
      const manage = (await w.page('ana@example.com')).replace('/preferences/', '/unsubscribe/');
      expect((await w.post(w.app, manage)).statusCode).toBe(200);
      expect(await w.sweep()).toBe(1);
      expect(await w.person('ana@example.com')).toBeUndefined();
      // A stranger types her address: one "come back?" email (we ask once), not the confirmation.
      await w.signUp('ana@example.com', '+15551230002');
      await expect.poll(() => w.mailsTo('ana@example.com').length, { timeout: 5000 }).toBe(2);
      expect(w.mailsTo('ana@example.com')[1]!.parsed.subject).not.toBe(w.mailsTo('ana@example.com')[0]!.parsed.subject);
      // Swept again, and typed again: nothing more, ever.
      await w.emailHandled('ana@example.com');
      await w.sweep();
      await w.signUp('ana@example.com', '+15551230003');
      await w.emailHandled('ana@example.com');
      expect(w.mailsTo('ana@example.com')).toHaveLength(2);
      expect(await w.subscriptions.exclusion((await w.person('ana@example.com'))!, 'email')).toBe('opted_out');
      // Ana herself, on her own page, asks for email again, and presses the button that emails her.
      await w.turnOn('ana@example.com', { email: 'on', sms: 'on' });
      expect(await w.subscriptions.exclusion((await w.person('ana@example.com'))!, 'email')).toBeUndefined();
    });

    it("path 3: texts turned off on the person's page hold for the number whoever types it", async () => {
      const w = await world(engine, { confirm: false });
      await w.signUp('bea@example.com', '+15551230011');
      await w.twilio.waitFor((text) => text.to === '+15551230011', 5000);
      expect((await w.post(w.app, await w.page('bea@example.com'), { email: 'on' })).statusCode).toBe(303);
      expect((await w.person('bea@example.com'))?.smsOptOutAt).not.toBeNull();
      // A stranger types the same number with his own address.
      await w.signUp('stranger@example.com', '+15551230011');
      await w.textsHandled('+15551230019');
      expect(w.twilio.sent().filter((text) => text.to === '+15551230011')).toHaveLength(1);
      const stranger = (await w.person('stranger@example.com'))!;
      expect(stranger.smsOptOutAt).toBeNull();
      expect(await w.subscriptions.exclusion(stranger, 'sms')).toBe('opted_out');
      // His page says so, and how the phone's owner turns texts on; the box is not ticked.
      const his = await w.app.inject({ url: await w.page('stranger@example.com') });
      expect(his.body).toContain(linkPageWords.preferences.smsTurnedOff);
      expect(his.body).not.toMatch(/name="sms" value="on" checked/);
      // Turned on again by the person herself (the button emailed to her): the number's "no" lifts.
      await w.turnOn('bea@example.com', { email: 'on', sms: 'on' });
      expect(await w.subscriptions.exclusion(stranger, 'sms')).toBeUndefined();
    });

    it('path 4: a person who left corrects their name: their leaving, and the "no"s it left by their addresses, stay', async () => {
      const w = await world(engine, { confirm: false });
      await w.signUp('cy@example.com', '+15551230021');
      await w.twilio.waitFor((text) => text.to === '+15551230021', 5000);
      const page = await w.page('cy@example.com');
      expect((await w.post(w.app, `${page}/leave`)).statusCode).toBe(303);
      const before = await w.db.suppressions.count();
      expect(before).toBe(2);
      expect((await w.post(w.app, `${page}/details`, { name: 'Cy Young', phone: '' })).statusCode).toBe(303);
      expect((await w.person('cy@example.com'))?.name).toBe('Cy Young');
      expect((await w.person('cy@example.com'))?.leftAt).not.toBeNull();
      expect(await w.db.suppressions.count()).toBe(before);
      await w.signUp('stranger@example.com', '+15551230021');
      await w.textsHandled('+15551230029');
      expect(w.twilio.sent().filter((text) => text.to === '+15551230021')).toHaveLength(1);
      expect(await w.subscriptions.exclusion((await w.person('stranger@example.com'))!, 'sms')).toBe('suppressed');
    });

    it('path 8: signups:ask-to-confirm leaves alone people who turned email off', async () => {
      const w = await world(engine, { confirm: false });
      await w.signUp('dee@example.com', '+15551230031');
      await w.signUp('eve@example.com', '+15551230032');
      // Dee unsubscribes with the one-click link (which proves nothing, so she stays unconfirmed).
      const unsubscribe = (await w.page('dee@example.com')).replace('/preferences/', '/unsubscribe/');
      expect((await w.post(w.app, unsubscribe)).statusCode).toBe(200);
      const { asked } = await w.db.confirmations.askNeverAsked(100, new Date(machineClock.ms()));
      expect(asked).toBe(1);
      expect((await w.person('dee@example.com'))?.askedToConfirm).toBe(false);
      expect((await w.person('eve@example.com'))?.askedToConfirm).toBe(true);
    });

    it('path 8: the never-confirmed sweep keeps someone whose number said YES, and their YES', async () => {
      const w = await world(engine);
      await w.signUp('eve@example.com', '+15551230032');
      await w.mail.waitFor((each) => each.envelope.to.includes('eve@example.com'), 5000);
      await w.emailHandled('eve@example.com'); // asked, so the sweep would take her but for the YES
      await w.twilio.waitFor((text) => text.to === '+15551230032', 5000);
      await w.db.optOuts.confirmTexts(['+15551230032'], 'sms_reply');
      expect(await w.sweep()).toBe(0);
      expect((await w.person('eve@example.com'))?.smsConfirmedAt).not.toBeNull();
    });

    it('path 8: someone who deleted their details is asked back once, however often strangers type their address and sweeps remove those records', async () => {
      const w = await world(engine);
      await w.signUp('fay@example.com', '+15551230033');
      await w.mail.waitFor((each) => each.envelope.to.includes('fay@example.com'), 5000);
      await w.subscriptions.remove((await w.person('fay@example.com'))!.id, 'preferences_page');
      await w.signUp('fay@example.com', '+15551230034');
      await expect.poll(() => w.mailsTo('fay@example.com').length, { timeout: 5000 }).toBe(2);
      await w.emailHandled('fay@example.com'); // its going out recorded, as the sweep counts from it
      await w.sweep();
      expect(await w.person('fay@example.com')).toBeUndefined();
      await w.signUp('fay@example.com', '+15551230035');
      await w.emailHandled('fay@example.com');
      expect(w.mailsTo('fay@example.com')).toHaveLength(2);
      // The owner's Suppressed page lists the "no"s, not the mark of the one "come back?" email.
      const cookie = await signInAsOwner(w.app, w.db);
      const suppressed = await w.app.inject({ url: '/owner/suppressions', headers: { cookie } });
      expect(suppressed.body).toContain('Deleted');
      expect(suppressed.body).not.toContain('Asked once to come back');
    });
  });
