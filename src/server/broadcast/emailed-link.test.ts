// An emailed link proves the mailbox (issue 23): a save on the preferences page, or "Yes, keep me on
// the list", confirms the address and lifts the leaving the person themselves asked for, never a
// bounce, a complaint or a STOP; and the page then says, channel by channel, exactly what the launch
// broadcast will do, which a broadcast made right after shows. Both engines.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createBroadcastControl } from '../compose.js';
import { configFor } from '../test/broadcast-setup.js';
import { buildTestApp } from '../test/build-test-app.js';
import { rosa } from '../test/people.js';
import { storeEngines, type StoreEngine } from '../test/store-engines.js';
import { linkPageWords } from '../messaging/message-words.js';
import { createLinkSigner } from '../messaging/link-tokens.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { pressEmailedButton } from '../test/emailed-button.js';

const KEY = 'emailed-link-test-key-that-is-long-enough';
const links = createLinkSigner(KEY);
const words = linkPageWords.preferences;
const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

/** A site with confirmation on, Rosa signed up (and so asked to confirm), and the launch broadcast's rule at hand. */
async function world(engine: StoreEngine) {
  // A real SMTP server on loopback: turning something on is done by a button emailed to the person (issue 54).
  const mail = await startSmtpSink();
  onTestFinished(() => mail.stop());
  const { app, db: store } = await buildTestApp({
    engine,
    database: { confirmSignups: true },
    config: {
      siteUrl: 'https://scamsavvy.example',
      messaging: {
        email: { smtpUrl: mail.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
        secretKey: KEY,
        emailConfirmation: true,
        unconfirmedRetentionDays: 30,
        confirmationReminderDays: 7,
      },
    },
  });
  await store.signups.add({ ...rosa });
  const id = (await store.subscribers.subscriberByEmailKey(rosa.email))!.id;
  // Her number said YES to the joining text (decision 041): what is left to prove is the mailbox.
  await store.optOuts.confirmTexts([rosa.phone], 'sms_reply');
  // The launch broadcast as the owner would make it (nothing is sent: it only takes its recipients).
  const broadcasts = createBroadcastControl(
    configFor('smtp://127.0.0.1:9', undefined, {
      SECRET_KEY: KEY,
      TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'a'.repeat(32),
      TWILIO_FROM: '+15550000000',
    }),
    store,
  ).broadcasts;
  let made = 0;
  /** Who the launch broadcast would take now: per channel, in or why not. */
  const launch = async () => {
    made += 1;
    const { report } = await broadcasts.create({ name: `launch-${made}`, template: 'launch' });
    const verdict = (channel: 'email' | 'sms') => {
      const tally = report.channels[channel]!;
      if (tally.recipients === 1) return 'sent';
      return Object.entries(tally.excluded).find(([, count]) => count > 0)?.[0];
    };
    return { email: verdict('email'), sms: verdict('sms') };
  };
  const url = `/preferences/${links.sign('manage', id)}`;
  const page = async (query = '') => (await app.inject({ method: 'GET', url: `${url}${query}` })).body;
  const save = (fields: Record<string, string>) => app.inject({ method: 'POST', url, ...form(fields) });
  onTestFinished(() => app.close());
  const press = () => pressEmailedButton(app, mail, rosa.email);
  return { app, store, id, launch, page, save, press, broadcasts };
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`an emailed link proves the mailbox, on ${engine.name}`, () => {
    it('asked to confirm and silent: the page says saving keeps them on; saving confirms, and the launch then reaches them', async () => {
      const { store, id, launch, page, save } = await world(engine);
      expect(await launch()).toEqual({ email: 'not_confirmed', sms: 'not_confirmed' });
      expect(await page()).toContain(words.notConfirmed.replaceAll('"', '&quot;'));

      expect((await save({ email: 'on', sms: 'on' })).statusCode).toBe(303);
      expect((await store.subscribers.subscriber(id))?.confirmedAt).not.toBeNull();
      expect((await store.consentEvents.history(id)).map((event) => [event.kind, event.source])).toContainEqual([
        'confirmed',
        'preferences_page',
      ]);
      const saved = await page('?done=saved');
      expect(saved).toContain(
        'Saved. We will send you an email when the app launches and a text message when the app launches.',
      );
      expect(saved).not.toContain(words.notConfirmed.replaceAll('"', '&quot;'));
      expect(await launch()).toEqual({ email: 'sent', sms: 'sent' });
    });

    it('coming back after leaving: both channels on again, said truly, no STOP claimed; the launch reaches them', async () => {
      const { app, store, id, launch, page, save, press } = await world(engine);
      await app.inject({ method: 'POST', url: `/preferences/${links.sign('manage', id)}/leave`, ...form({}) });
      expect(await launch()).toEqual({ email: 'left', sms: 'left' });

      // Ticking the boxes emails a button (issue 54); pressing it is what brings them back.
      await save({ email: 'on', sms: 'on' });
      expect(await launch()).toEqual({ email: 'left', sms: 'left' });
      expect((await press()).pressed.headers.location).toMatch(/\?done=saved$/);
      const saved = await page('?done=saved');
      expect(saved).toContain(
        'Saved. We will send you an email when the app launches and a text message when the app launches.',
      );
      expect(saved).not.toContain('replied STOP');
      expect((await store.consentEvents.history(id)).map((event) => event.kind)).toEqual(
        expect.arrayContaining(['left', 'email_on', 'sms_on', 'own_suppression_lifted']),
      );
      expect(await launch()).toEqual({ email: 'sent', sms: 'sent' });
    });

    it('a STOP and a bounce stay whatever is ticked: the page says so and promises only what will happen', async () => {
      const { store, id, launch, page, save, broadcasts } = await world(engine);
      const subscriber = (await store.subscribers.subscriber(id))!;
      await broadcasts.subscriptions.stopTexts(subscriber.phone);
      await store.optOuts.suppressByReport(
        id,
        {
          kind: 'email',
          hash: broadcasts.subscriptions.emailHash(subscriber.email)!,
          reason: 'bounced',
          source: 'provider_report',
        },
        'email_bounced',
      );
      await save({ email: 'on', sms: 'on' });
      expect((await store.subscribers.subscriber(id))?.confirmedAt).not.toBeNull();
      const saved = await page('?done=saved');
      expect(saved).toContain('Saved. We will not send you anything.');
      expect(saved).toContain(words.smsStopped);
      expect(saved).toContain(words.emailUnreachable);
      expect(await launch()).toEqual({ email: 'undeliverable', sms: 'stopped' });
      // Beta news is something new to turn on: that needs a button emailed, and the mailbox bounced.
      const beta = await save({ email: 'on', sms: 'on', beta: 'on' });
      expect(await page(String(beta.headers.location).replace(/^[^?]*/, ''))).toContain(words.buttonUnreachable);
      expect((await store.subscribers.subscriber(id))?.betaTesting).toBe(false);

      // START from the phone lifts the STOP: then the page and the broadcast agree on the text.
      await broadcasts.subscriptions.startTexts(subscriber.phone);
      await save({ email: 'on', sms: 'on' });
      expect(await page('?done=saved')).toContain('Saved. We will send you a text message when the app launches.');
      expect(await launch()).toEqual({ email: 'undeliverable', sms: 'sent' });
    });

    it('"Yes, keep me on the list" confirms and lifts their own earlier leaving from the addresses', async () => {
      const { app, store, id, launch, broadcasts } = await world(engine);
      // They left (both addresses on the suppression list), then their choices were turned back on
      // elsewhere than an emailed link: their own leaving still holds on the addresses.
      await broadcasts.subscriptions.leave(id, 'preferences_page');
      await store.subscribers.updatePreferences(id, { email: true, sms: true }, 'owner');
      expect(await launch()).toEqual({ email: 'suppressed', sms: 'suppressed' });
      const confirm = `/confirm/${links.sign('confirm', id)}`;
      expect((await app.inject({ method: 'POST', url: confirm, ...form({}) })).statusCode).toBe(303);
      expect((await store.subscribers.subscriber(id))?.confirmedAt).not.toBeNull();
      expect(await launch()).toEqual({ email: 'sent', sms: 'sent' });
    });
  });
}
