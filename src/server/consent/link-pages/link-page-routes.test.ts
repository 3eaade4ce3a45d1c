// The pages links in messages open, on each engine: a GET never changes anything, only a POST behind a button does.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { linkPageWords, linkPageWordsIn } from '../../messaging/message-words.js';
import { createAddressHasher, createLinkSigner } from '../../messaging/link-tokens.js';
import { Subscriptions } from '../subscriptions.js';
import type { Db } from '../../db/open-database.js';
import { buildTestApp } from '../../test/build-test-app.js';
import { rosa } from '../../test/people.js';
import { storeEngines, type StoreEngine } from '../../test/store-engines.js';
import { maskEmail } from '../../messaging/mask-email.js';
import { manageUrls } from '../../messaging/link-urls.js';
import { isSuppressed } from '../../test/suppressed.js';
import { machineClock } from '../../test/clock.js';
import { startSmtpSink } from '../../test/smtp-sink.js';
import { pressEmailedButton } from '../../test/emailed-button.js';
import { onTestFinished } from 'vitest';

const KEY = 'link-pages-test-key-that-is-long-enough';
const links = createLinkSigner(KEY);
const hasher = createAddressHasher(KEY);
const LONG_AGO = '2000-01-01T00:00:00.000Z';
const words = linkPageWords.preferences;

async function setUpOn(engine: StoreEngine, email: string = rosa.email) {
  // A real SMTP server on loopback: the buttons for turning on and deleting are emailed (issue 54).
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
        emailConfirmation: false,
        unconfirmedRetentionDays: 30,
        confirmationReminderDays: 7,
      },
    },
  });
  await store.signups.add({ ...rosa, name: 'Rosa <b>Díaz</b>', email });
  const subscriber = await store.subscribers.subscriberByEmailKey(email);
  return {
    app,
    store,
    mail,
    id: subscriber?.id ?? '',
    yes: () => store.optOuts.confirmTexts([rosa.phone], 'sms_reply'),
    /** Opens and presses the newest button emailed to this person, after `seen` earlier ones. */
    press: (seen = 0, to: string = email) => pressEmailedButton(app, mail, to, seen),
  };
}

/** What the store holds about this person, and the suppression list, to compare before and after. */
async function snapshot(store: Db, id: string) {
  return {
    subscriber: await store.subscribers.subscriber(id),
    history: await store.consentEvents.history(id),
    suppressions: await store.suppressions.count(),
  };
}

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

describe('hiding an email', () => {
  it('keeps two characters before the @, and never all of them', () => {
    expect(maskEmail('rosa@example.com')).toBe('ro•••@example.com');
    expect(maskEmail('ro@example.com')).toBe('r•••@example.com');
    expect(maskEmail('r@example.com')).toBe('•••@example.com');
    expect(maskEmail('élodie@example.com')).toBe('él•••@example.com');
  });
});

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`link pages on ${engine.name}`, () => {
    const setUp = (email?: string) => setUpOn(engine, email);

    // Issue 45: each page in the person's language; a page that names nobody in the browser's.
    describe('in the person’s language', () => {
      it('a Spanish sign-up’s pages are in Spanish, a page that names nobody is in the language the browser asks for, and deleting ends on a Spanish page', async () => {
        const { app, store, mail } = await setUp();
        await store.signups.add({ ...rosa, email: 'luz@example.com', language: 'es' });
        const id = (await store.subscribers.subscriberByEmailKey('luz@example.com'))?.id ?? '';
        const manage = links.sign('manage', id);
        const es = linkPageWordsIn.es;
        for (const [url, title] of [
          [`/confirm/${links.sign('confirm', id)}`, es.confirm.title],
          [`/preferences/${manage}`, es.preferences.title],
          [`/unsubscribe/${manage}`, es.unsubscribe.title],
        ] as const) {
          const page = await app.inject({ url });
          expect(page.body, url).toMatch(/^<!doctype html><html lang="es">/);
          expect(page.body, url).toContain(`<h1>${title}</h1>`);
        }
        // Their own link to pass on leads to the Spanish page.
        const referral = (await store.subscribers.subscriber(id))?.referralCode ?? '';
        expect((await app.inject({ url: `/preferences/${manage}` })).body).toContain(
          `https://scamsavvy.example/es/?ref=${referral}`,
        );
        // A link that no longer works names nobody: the browser's language, else English.
        const spanishBrowser = { 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' };
        const bad = await app.inject({ url: '/preferences/not-a-token', headers: spanishBrowser });
        expect(bad.statusCode).toBe(404);
        expect(bad.body).toContain(`<h1>${es.badLink.title}</h1>`);
        expect((await app.inject({ url: '/preferences/not-a-token' })).body).toContain(
          `<h1>${linkPageWords.badLink.title}</h1>`,
        );
        // Deleting: a button is emailed, in Spanish; pressed, the record is gone, and the page that says
        // so is still in their language.
        const asked = await app.inject({
          method: 'POST',
          url: `/preferences/${manage}/delete`,
          ...form({ confirm: 'yes' }),
        });
        expect(asked.headers.location).toBe(`/preferences/${manage}?button=sent&ask=delete`);
        const { page: buttonPage, pressed: deleted } = await pressEmailedButton(app, mail, 'luz@example.com', 0);
        expect(buttonPage.body).toContain(`<h1>${es.button.title.delete}</h1>`);
        expect(deleted.headers.location).toBe(`/preferences/${manage}?done=deleted&lang=es`);
        const done = await app.inject({ url: String(deleted.headers.location) });
        expect(done.body).toContain(`<h1>${es.preferences.deletedTitle}</h1>`);
      });

      it('a person chooses the language we write in on their own page; anything else changes nothing', async () => {
        const { app, store, id } = await setUp();
        const manage = links.sign('manage', id);
        const page = await app.inject({ url: `/preferences/${manage}` });
        expect(page.body).toMatch(/<input type="radio" name="language" checked="" value="en"\/>/);
        const chosen = await app.inject({
          method: 'POST',
          url: `/preferences/${manage}/language`,
          ...form({ language: 'es' }),
        });
        expect(chosen.statusCode).toBe(303);
        expect(chosen.headers.location).toBe(`/preferences/${manage}?done=language`);
        expect((await store.subscribers.subscriber(id))?.language).toBe('es');
        const after = await app.inject({ url: String(chosen.headers.location) });
        expect(after.body).toMatch(/^<!doctype html><html lang="es">/);
        expect(after.body).toContain(linkPageWordsIn.es.preferences.languageSaved);
        const refused = await app.inject({
          method: 'POST',
          url: `/preferences/${manage}/language`,
          ...form({ language: 'fr' }),
        });
        expect(refused.statusCode).toBe(400);
        expect((await store.subscribers.subscriber(id))?.language).toBe('es');
      });

      it('the details form says what is wrong in Spanish on a Spanish page', async () => {
        const { app, store } = await setUp();
        await store.signups.add({ ...rosa, email: 'luz@example.com', language: 'es' });
        const id = (await store.subscribers.subscriberByEmailKey('luz@example.com'))?.id ?? '';
        const page = await app.inject({
          method: 'POST',
          url: `/preferences/${links.sign('manage', id)}/details`,
          ...form({ name: 'L', phone: '' }),
        });
        expect(page.statusCode).toBe(400);
        expect(page.body).toContain('El nombre debe tener al menos 2 letras');
        expect(page.body).not.toContain('Name must be');
      });
    });

    describe('GET never changes anything', () => {
      it('the confirm, preferences (with and without done=…) and unsubscribe pages, their HEADs, and the delete question', async () => {
        const { app, store, id } = await setUp();
        const before = await snapshot(store, id);
        const manage = links.sign('manage', id);
        const urls = [
          `/confirm/${links.sign('confirm', id)}`,
          `/preferences/${manage}`,
          `/preferences/${manage}?done=saved`,
          `/preferences/${manage}?done=left`,
          `/preferences/${manage}?done=deleted`,
          `/unsubscribe/${manage}`,
        ];
        for (const url of urls) {
          for (const method of ['GET', 'HEAD'] as const) {
            const response = await app.inject({ method, url });
            expect(response.statusCode, `${method} ${url}`).toBe(200);
          }
        }
        // The question before deleting is a POST (the delete button's), yet it only asks.
        expect(
          (await app.inject({ method: 'POST', url: `/preferences/${manage}/delete`, ...form({}) })).statusCode,
        ).toBe(200);
        // Paths that only take a POST answer a GET with the 404 JSON, never with an action.
        for (const url of [`/preferences/${manage}/leave`, `/preferences/${manage}/delete`]) {
          expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
        }
        expect(await snapshot(store, id)).toEqual(before);
      });

      it('the confirm page is one form that posts back to its own link, with one submit button', async () => {
        const { app, id } = await setUp();
        const page = (await app.inject({ method: 'GET', url: `/confirm/${links.sign('confirm', id)}` })).body;
        expect(page).toContain('<h1>Please confirm you want launch news from ScamSavvy</h1>');
        expect(page.match(/<form[^>]*>/g)).toEqual(['<form method="post">']);
        expect(page.match(/<button type="submit"[^>]*>[^<]*<\/button>/g)).toEqual([
          '<button type="submit" class="button button--primary">Yes, keep me on the list</button>',
        ]);
      });

      it('the unsubscribe page asks, with a "Stop emails" button posting to itself and a link to the preferences', async () => {
        const { app, id } = await setUp();
        const manage = links.sign('manage', id);
        const page = (await app.inject({ method: 'GET', url: `/unsubscribe/${manage}` })).body;
        expect(page).toContain('<h1>Stop launch emails?</h1>');
        expect(page).toMatch(/<form method="post"><button type="submit"[^>]*>Stop emails<\/button><\/form>/);
        expect(page).toContain(`href="/preferences/${manage}"`);
      });

      it('sends no-store, noindex and no-referrer, on the pages and on a refusal', async () => {
        const { app, id } = await setUp();
        for (const url of [`/preferences/${links.sign('manage', id)}`, `/preferences/${links.sign('confirm', id)}`]) {
          const response = await app.inject({ method: 'GET', url });
          expect(response.headers['cache-control'], url).toBe('no-store');
          expect(response.headers['x-robots-tag'], url).toBe('noindex');
          expect(response.headers['referrer-policy'], url).toBe('no-referrer');
          expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
        }
      });

      it('shows whose page it is with the email and phone partly hidden, never the name', async () => {
        const { app, id } = await setUp();
        const page = (await app.inject({ method: 'GET', url: `/preferences/${links.sign('manage', id)}` })).body;
        expect(page).toContain('These choices are for ro•••@example.com and the phone number ending 4567.');
        expect(page).not.toMatch(/Rosa|Díaz|rosa@example\.com|555123/);
      });

      it('escapes what was stored: an email with markup in it shows as text', async () => {
        const { app, id } = await setUp('rosa@<img src=x onerror=alert(1)>.example');
        const page = (await app.inject({ method: 'GET', url: `/preferences/${links.sign('manage', id)}` })).body;
        expect(page).not.toContain('<img');
        expect(page).toContain('ro•••@&lt;img src=x onerror=alert(1)&gt;.example');
      });
    });

    describe('POST acts, then redirects (303) to the page that says what happened', () => {
      it('confirm: once, recorded, then the page says so with a link to the preferences', async () => {
        const { app, store, id, yes } = await setUp();
        const url = `/confirm/${links.sign('confirm', id)}`;
        const pressed = await app.inject({ method: 'POST', url, ...form({}) });
        expect(pressed.statusCode).toBe(303);
        expect(pressed.headers.location).toBe(url);
        expect((await store.subscribers.subscriber(id))?.confirmedAt).not.toBeNull();
        expect((await app.inject({ method: 'POST', url, ...form({}) })).statusCode).toBe(303);
        expect((await store.consentEvents.history(id)).filter((event) => event.kind === 'confirmed')).toEqual([
          expect.objectContaining({ source: 'confirm_page' }),
        ]);
        const page = (await app.inject({ method: 'GET', url })).body;
        expect(page).toContain('<h1>Thank you. You are confirmed.</h1>');
        // Texts wait for the number's YES (decision 041): until then the page promises email alone.
        expect(page).toContain(linkPageWords.confirm.doneText(true, false));
        await yes();
        // Email and texts are on, the number said yes: the news will come both ways, as the launch message will send it.
        expect((await app.inject({ method: 'GET', url })).body).toContain(linkPageWords.confirm.doneText(true, true));
        expect(page).toContain(`href="/preferences/${links.sign('manage', id)}"`);
        expect(page).not.toContain('<form');
      });

      it('confirm, after leaving: the page asks whether to come back; only the button it emails brings email back, texts stay off', async () => {
        const { app, store, id, press } = await setUp();
        await new Subscriptions(store, hasher).leave(id, 'preferences_page');
        const url = `/confirm/${links.sign('confirm', id)}`;
        const page = (await app.inject({ method: 'GET', url })).body;
        expect(page).toContain(`<h1>${linkPageWords.confirm.comeBackTitle}</h1>`);
        expect(page).toContain(linkPageWords.confirm.leftText);
        expect(page).toContain(linkPageWords.confirm.comeBackButton);
        // Opening the link (a mail scanner does) changes nothing.
        expect((await store.subscribers.subscriber(id))?.leftAt).not.toBeNull();
        // Its button emails a fresh one (this link may be in a forwarded email; issue 54): nothing yet.
        const asked = await app.inject({ method: 'POST', url, ...form({}) });
        expect(asked.statusCode).toBe(303);
        expect(asked.headers.location).toBe(`/preferences/${links.sign('manage', id)}?button=sent&ask=back`);
        expect((await store.subscribers.subscriber(id))?.leftAt).not.toBeNull();
        expect((await press()).pressed.statusCode).toBe(303);
        const back = await store.subscribers.subscriber(id);
        expect(back).toMatchObject({ leftAt: null, emailOptOutAt: null });
        expect(back?.smsOptOutAt).not.toBeNull();
        expect((await store.consentEvents.history(id)).map((event) => event.kind)).toContain('came_back');
        const done = (await app.inject({ method: 'GET', url })).body;
        expect(done).toContain('<h1>Thank you. You are confirmed.</h1>');
        expect(done).toContain(linkPageWords.confirm.doneText(true, false));
      });

      it('save: each box turns its channel off at once, or on by the button it emails; each change is recorded, and the page restates the choices', async () => {
        const { app, store, id, yes, press } = await setUp();
        const url = `/preferences/${links.sign('manage', id)}`;
        const saved = await app.inject({ method: 'POST', url, ...form({ email: 'on' }) });
        expect(saved.statusCode).toBe(303);
        expect(saved.headers.location).toBe(`${url}?done=saved`);
        const after = await store.subscribers.subscriber(id);
        expect(after).toMatchObject({ emailOptOutAt: null, betaTesting: false });
        expect(after?.smsOptOutAt).not.toBeNull();
        expect((await store.consentEvents.history(id)).map((event) => [event.kind, event.source])).toEqual([
          ['signed_up', 'signup_form'],
          ['sms_off', 'preferences_page'],
          ['beta_off', 'preferences_page'],
          // The link came by email: saving with email on proves the mailbox.
          ['confirmed', 'preferences_page'],
        ]);
        const page = (await app.inject({ method: 'GET', url: `${url}?done=saved` })).body;
        expect(page).toContain(
          '<div class="status" role="status"><p>Saved. We will send you an email when the app launches.</p></div>',
        );

        await yes(); // the number replied YES to its joining text
        // Texts and beta on, email off: the "off" now, the "on"s by the button emailed for them.
        const asked = await app.inject({ method: 'POST', url, ...form({ sms: 'on', beta: 'on' }) });
        expect(asked.headers.location).toBe(`${url}?button=sent&ask=on-011&off=1`);
        const askedPage = (await app.inject({ method: 'GET', url: String(asked.headers.location) })).body;
        expect(askedPage).toContain(`<p>${words.offSaved}</p>`);
        expect(askedPage).toContain(
          words.buttonSent(
            'ro•••@example.com',
            words.buttonDoes.on(words.listed([words.buttonThings.sms, words.buttonThings.beta])),
            24,
          ),
        );
        expect(await store.subscribers.subscriber(id)).toMatchObject({ betaTesting: false });
        expect((await store.subscribers.subscriber(id))?.emailOptOutAt).not.toBeNull();
        expect((await press()).pressed.headers.location).toBe(`${url}?done=saved`);
        expect(await store.subscribers.subscriber(id)).toMatchObject({ smsOptOutAt: null, betaTesting: true });
        expect((await store.subscribers.subscriber(id))?.emailOptOutAt).not.toBeNull();
        expect((await store.consentEvents.history(id)).slice(4).map((event) => [event.kind, event.source])).toEqual([
          ['sms_confirmed', 'sms_reply'],
          ['email_off', 'preferences_page'],
          ['sms_on', 'emailed_button'],
          ['beta_on', 'emailed_button'],
        ]);
        expect((await app.inject({ method: 'GET', url: `${url}?done=saved` })).body).toContain(
          'Saved. We will send you a text message when the app launches and news about beta testing.',
        );

        await app.inject({ method: 'POST', url, ...form({}) });
        expect((await app.inject({ method: 'GET', url: `${url}?done=saved` })).body).toContain(
          'Saved. We will not send you anything.',
        );
      });

      it('confirm after "Stop all emails" with texts off: the page asks whether to come back, and says nothing will come until they do', async () => {
        const { app, store, id } = await setUp();
        await store.subscribers.updatePreferences(id, { email: false, sms: false, beta: false }, 'preferences_page');
        const url = `/confirm/${links.sign('confirm', id)}`;
        const page = (await app.inject({ method: 'GET', url })).body;
        expect(page).toContain(linkPageWords.confirm.emailOffText);
        expect(page).toContain(linkPageWords.confirm.comeBackNotYou);
        expect(page).not.toContain('We will let you know');
        expect((await store.subscribers.subscriber(id))?.emailOptOutAt).not.toBeNull();
      });

      it('"Saved. We will send you…" is worked out for the launch message that will go: its audience, its channels, and once it has gone', async () => {
        const { app, store, id } = await setUp();
        const url = `/preferences/${links.sign('manage', id)}`;
        const savedPage = async () => (await app.inject({ method: 'GET', url: `${url}?done=saved` })).body;
        // A launch message for email only, made before they turned email back on: saving puts them in it.
        const launch = await store.broadcasts.create({
          name: 'launch',
          template: 'launch',
          segment: 'all',
          channels: ['email'],
          confirmation: 'confirmed_only',
          content: { subject: 'It is here', text: 'Text', html: '<p>HTML</p>', sms: 'SMS' },
        });
        await app.inject({ method: 'POST', url, ...form({ email: 'on', sms: 'on' }) });
        expect(await savedPage()).toContain('Saved. We will send you an email when the app launches.');
        expect(await savedPage()).not.toContain('a text message when the app launches');
        expect(await store.outbox.counts(launch!.id, 'email')).toMatchObject({ queued: 1 });
        // Once it has gone, no page promises it.
        await store.broadcasts.setState(launch!.id, 'finished', ['ready']);
        await app.inject({ method: 'POST', url, ...form({ email: 'on', sms: 'on' }) });
        expect(await savedPage()).toContain('Saved. Our app is out now, so there is no launch message left to send.');
        expect(await savedPage()).not.toContain('We will send you an email');
      });

      it('leave: off the list, both addresses suppressed, the page says so and how to come back', async () => {
        const { app, store, id, press } = await setUp();
        const url = `/preferences/${links.sign('manage', id)}`;
        const left = await app.inject({ method: 'POST', url: `${url}/leave`, ...form({}) });
        expect(left.statusCode).toBe(303);
        expect(left.headers.location).toBe(`${url}?done=left`);
        expect((await store.subscribers.subscriber(id))?.leftAt).not.toBeNull();
        expect((await store.consentEvents.history(id)).at(-1)).toMatchObject({
          kind: 'left',
          source: 'preferences_page',
        });
        expect(await isSuppressed(store, 'email', hasher.hash('email', 'rosa@example.com'), LONG_AGO)).toBe(true);
        const page = (await app.inject({ method: 'GET', url: `${url}?done=left` })).body;
        expect(page).toContain(`role="status"><p>${words.left}</p><p>${words.comeBack.replace(/"/g, '&quot;')}</p>`);
        expect(page).not.toContain(`>${words.leave}</button>`);
        expect(page).not.toMatch(/type="checkbox"[^>]*checked/); // no box ticked (the language stays chosen)

        // Ticking a box again emails a button; pressing it brings them back.
        await app.inject({ method: 'POST', url, ...form({ email: 'on' }) });
        expect((await store.subscribers.subscriber(id))?.leftAt).not.toBeNull();
        await press();
        expect(await store.subscribers.subscriber(id)).toMatchObject({ leftAt: null, emailOptOutAt: null });
      });

      it('delete: asks first, emails a button, and that button deletes everything but the suppression hashes', async () => {
        const { app, store, id, press } = await setUp();
        const url = `/preferences/${links.sign('manage', id)}`;
        const asked = await app.inject({ method: 'POST', url: `${url}/delete`, ...form({}) });
        expect(asked.statusCode).toBe(200);
        expect(asked.body).toContain('<h1>Delete your details?</h1>');
        expect(asked.body).toMatch(
          new RegExp(
            `<form action="${url}/delete" method="post"><input type="hidden" name="confirm" value="yes"/><button[^>]*>${words.deleteYes}</button>`,
          ),
        );
        expect(asked.body).toContain(`<a class="button button--secondary" href="${url}">No, keep them</a>`);
        expect(await store.subscribers.subscriber(id)).toBeDefined();

        const asks = await app.inject({ method: 'POST', url: `${url}/delete`, ...form({ confirm: 'yes' }) });
        expect(asks.statusCode).toBe(303);
        expect(asks.headers.location).toBe(`${url}?button=sent&ask=delete`);
        expect(await store.subscribers.subscriber(id)).toBeDefined();
        const { path, pressed: deleted } = await press();
        expect(deleted.statusCode).toBe(303);
        expect(deleted.headers.location).toBe(`${url}?done=deleted`);
        expect(await store.subscribers.subscriber(id)).toBeUndefined();
        expect(await store.consentEvents.history(id)).toEqual([]);
        expect(await store.signups.count()).toBe(0);
        expect(await isSuppressed(store, 'email', hasher.hash('email', 'rosa@example.com'), LONG_AGO)).toBe(true);
        expect(await isSuppressed(store, 'phone', hasher.hash('phone', '+15551234567'), LONG_AGO)).toBe(true);

        const done = await app.inject({ method: 'GET', url: `${url}?done=deleted` });
        expect(done.statusCode).toBe(200);
        expect(done.body).toContain(linkPageWords.preferences.deleted);
        // Afterwards the link names nobody: each of its pages says so with a 404.
        const gone = await app.inject({ method: 'GET', url });
        expect(gone.statusCode).toBe(404);
        expect(gone.body).toContain('<h1>We hold no details for this link</h1>');
        for (const [method, path] of [
          ['GET', `/confirm/${links.sign('confirm', id)}`],
          ['POST', `/confirm/${links.sign('confirm', id)}`],
          ['GET', `/unsubscribe/${links.sign('manage', id)}`],
          ['POST', `/unsubscribe/${links.sign('manage', id)}`],
          ['POST', url],
          ['POST', `${url}/leave`],
        ] as const) {
          expect((await app.inject({ method, url: path, ...form({}) })).statusCode, `${method} ${path}`).toBe(404);
        }
        // Pressed twice (a slow connection): nothing is held for it any more.
        const again = await app.inject({ method: 'POST', url: path, ...form({}) });
        expect(again.statusCode).toBe(404);
        expect(again.body).toContain('<h1>We hold no details for this link</h1>');
      });
    });

    describe('one-click unsubscribe (RFC 8058)', () => {
      // Issue 54, path 7: whoever holds a forwarded email, or only its List-Unsubscribe header, can stop
      // email and do nothing else: that token opens no other page, and its page links to none.
      it('its token only turns email off: it opens neither the preferences page nor any of its buttons', async () => {
        const { app, store, id } = await setUp();
        const off = links.sign('off', id);
        const page = await app.inject({ url: `/unsubscribe/${off}` });
        expect(page.statusCode).toBe(200);
        expect(page.body).not.toContain('/preferences/');
        expect(page.body).toContain(linkPageWords.unsubscribe.ownPage);
        await store.subscribers.updatePreferences(id, { email: false, sms: false }, 'preferences_page');
        const before = await snapshot(store, id);
        for (const [method, url, fields] of [
          ['GET', `/preferences/${off}`, {}],
          ['POST', `/preferences/${off}`, { email: 'on', sms: 'on', beta: 'on' }],
          ['POST', `/preferences/${off}/details`, { name: 'Someone Else', phone: '+15559990000' }],
          ['POST', `/preferences/${off}/delete`, { confirm: 'yes' }],
          ['POST', `/preferences/${off}/language`, { language: 'es' }],
          ['GET', `/confirm/${off}`, {}],
        ] as const)
          expect((await app.inject({ method, url, ...form(fields) })).statusCode, `${method} ${url}`).toBe(404);
        expect(await snapshot(store, id)).toEqual(before);
        const done = await app.inject({ method: 'POST', url: `/unsubscribe/${off}`, ...form({}) });
        expect(done.statusCode).toBe(200);
        expect(done.body).toContain('<h1>Emails from us are off</h1>');
        expect(done.body).not.toContain('/preferences/');
      });

      it('every message carries the "off" token in its unsubscribe link and List-Unsubscribe, and the "manage" one only in the page link', () => {
        const urls = manageUrls(links, 'https://scamsavvy.example', randomUUID());
        const token = (url: string) => url.split('/').at(-1)!;
        expect(links.verify('off', token(urls.unsubscribe))).toBeDefined();
        expect(links.verify('manage', token(urls.unsubscribe))).toBeUndefined();
        expect(links.verify('manage', token(urls.preferences))).toBeDefined();
      });

      it('a form POST with no cookie stops email only, answers 200 with a page, and is recorded', async () => {
        const { app, store, id } = await setUp();
        const manage = links.sign('manage', id);
        const oneClick = await app.inject({
          method: 'POST',
          url: `/unsubscribe/${manage}`,
          ...form({ 'List-Unsubscribe': 'One-Click' }),
        });
        expect(oneClick.statusCode).toBe(200);
        expect(oneClick.body).toContain('<h1>Emails from us are off</h1>');
        // A link from an older message (a "manage" token) may point to the page its holder can open already.
        expect(oneClick.body).toContain(`href="/preferences/${manage}"`);
        expect(oneClick.headers['cache-control']).toBe('no-store');
        const after = await store.subscribers.subscriber(id);
        expect(after?.emailOptOutAt).not.toBeNull();
        expect(after?.smsOptOutAt).toBeNull();
        expect((await store.consentEvents.history(id)).at(-1)).toMatchObject({
          kind: 'email_off',
          source: 'one_click_unsubscribe',
        });
      });

      it.each([
        [
          'multipart',
          'multipart/form-data; boundary=XyZ',
          '--XyZ\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--XyZ--\r\n',
        ],
        ['a plain-text body', 'text/plain', 'List-Unsubscribe=One-Click'],
        ['a JSON type and a body that is not JSON', 'application/json', 'List-Unsubscribe=One-Click'],
        ['no body at all', undefined, undefined],
      ])('a POST with %s also stops email and answers 200', async (_name, contentType, payload) => {
        const { app, store, id } = await setUp();
        const response = await app.inject({
          method: 'POST',
          url: `/unsubscribe/${links.sign('manage', id)}`,
          ...(contentType ? { headers: { 'content-type': contentType } } : {}),
          ...(payload ? { payload } : {}),
        });
        expect(response.statusCode).toBe(200);
        expect((await store.subscribers.subscriber(id))?.emailOptOutAt).not.toBeNull();
      });
    });

    describe('after a STOP text', () => {
      it('the preferences page shows texts off and says only START brings them back, even after a new sign-up', async () => {
        const { app, store, id } = await setUp();
        const subscriptions = new Subscriptions(store, hasher);
        const url = `/preferences/${links.sign('manage', id)}`;
        const textBox = /<input type="checkbox" name="sms"( checked="")? value="on"\/>/;
        expect((await app.inject({ method: 'GET', url })).body.match(textBox)?.[1]).toBe(' checked=""');

        await subscriptions.stopTexts('+15551234567');
        // The same email signs up again (new consent on the page), but the number said STOP.
        await store.signups.add({ name: 'Rosa', phone: '5551234567', email: 'rosa@example.com', betaTesting: false });
        const page = (await app.inject({ method: 'GET', url })).body;
        expect(page.match(textBox)?.[1]).toBeUndefined();
        expect(page).toContain('reply START');

        await subscriptions.startTexts('+15551234567');
        const after = (await app.inject({ method: 'GET', url })).body;
        expect(after.match(textBox)?.[1]).toBe(' checked=""');
        expect(after).not.toContain('reply START');
      });
    });

    describe('after a report that the address or number cannot be reached', () => {
      it('the preferences page says texts cannot reach the number, or email came back or was marked spam, and does not tick them', async () => {
        const { app, store, id } = await setUp();
        const subscriptions = new Subscriptions(store, hasher);
        const url = `/preferences/${links.sign('manage', id)}`;
        const box = (name: string) => new RegExp(`<input type="checkbox" name="${name}"( checked="")? value="on"/>`);
        const subscriber = (await store.subscribers.subscriber(id))!;
        // A provider's report about each address, as act-on-reports.ts writes it.
        const reported = (kind: 'phone' | 'email', hash: string, reason: 'undeliverable' | 'complained') =>
          store.optOuts.suppressByReport(
            id,
            { kind, hash, reason, source: 'provider_report' },
            kind === 'phone' ? 'sms_undeliverable' : 'email_complained',
          );
        await reported('phone', subscriptions.phoneHash(subscriber.phone)!, 'undeliverable');
        let page = (await app.inject({ method: 'GET', url })).body;
        expect(page.match(box('sms'))?.[1]).toBeUndefined();
        expect(page).toContain(words.smsUnreachable);
        expect(page).not.toContain('reply START');
        expect(page.match(box('email'))?.[1]).toBe(' checked=""');

        await reported('email', subscriptions.emailHash(subscriber.email)!, 'complained');
        page = (await app.inject({ method: 'GET', url })).body;
        expect(page.match(box('email'))?.[1]).toBeUndefined();
        expect(page).toContain(words.emailComplained);
      });
    });

    describe('after an unsubscribe their email provider passed on (an imported list)', () => {
      it('the page says they asked for no email, not that it bounced; ticking the box and saving emails a button that brings email back', async () => {
        const { app, store, id, press } = await setUp();
        const subscriber = (await store.subscribers.subscriber(id))!;
        await store.suppressions.addImported([
          {
            kind: 'email',
            hash: hasher.hash('email', subscriber.email),
            reason: 'left',
            at: machineClock.now().toISOString(),
          },
        ]);
        const url = `/preferences/${links.sign('manage', id)}`;
        const page = (await app.inject({ method: 'GET', url })).body;
        expect(page).toContain(words.emailAskedNot.replaceAll('"', '&quot;'));
        expect(page).not.toContain(words.emailUnreachable);
        expect(page).not.toMatch(/name="email" checked=""/);
        const saved = await app.inject({ method: 'POST', url, ...form({ email: 'on', sms: 'on' }) });
        expect(saved.statusCode).toBe(303);
        const subscriptions = new Subscriptions(store, hasher);
        // Their own "no" kept by the address: only the button emailed to it lifts that.
        expect((await subscriptions.exclusions((await store.subscribers.subscriber(id))!, ['email'])).email).toBe(
          'suppressed',
        );
        await press();
        expect(
          (await subscriptions.exclusions((await store.subscribers.subscriber(id))!, ['email'])).email,
        ).toBeUndefined();
      });
    });

    describe('after someone using the number left', () => {
      it('the preferences page says the number was taken off the list, not that it cannot get texts', async () => {
        const { app, store, id } = await setUp();
        const subscriber = (await store.subscribers.subscriber(id))!;
        // Another sign-up with the same number left the list after Rosa signed up.
        await store.signups.add({
          name: 'Other Person',
          phone: subscriber.phone,
          email: 'other@example.com',
          betaTesting: false,
        });
        const other = (await store.subscribers.subscriberByEmailKey('other@example.com'))!;
        await new Promise((resolve) => setTimeout(resolve, 5));
        await new Subscriptions(store, hasher).leave(other.id, 'preferences_page');
        const page = (await app.inject({ method: 'GET', url: `/preferences/${links.sign('manage', id)}` })).body;
        expect(page).toContain(linkPageWords.preferences.smsTakenOff);
        expect(page).not.toContain(linkPageWords.preferences.smsUnreachable);
      });
    });

    describe('a link that is not ours', () => {
      it('is refused with 404 and changes nothing: altered, cut short, signed with another key, or for another purpose', async () => {
        const { app, store, id } = await setUp();
        const before = await snapshot(store, id);
        const manage = links.sign('manage', id);
        const confirm = links.sign('confirm', id);
        const alter = (token: string) => `${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}`;
        const other = createLinkSigner(`${KEY}-other`).sign('manage', id);
        for (const token of [alter(manage), manage.slice(0, -1), other, confirm]) {
          for (const [method, url] of [
            ['GET', `/preferences/${token}`],
            ['POST', `/preferences/${token}`],
            ['POST', `/preferences/${token}/leave`],
            ['POST', `/preferences/${token}/delete`],
            ['GET', `/unsubscribe/${token}`],
            ['POST', `/unsubscribe/${token}`],
          ] as const) {
            const response = await app.inject({ method, url, ...form({ confirm: 'yes' }) });
            expect(response.statusCode, `${method} ${url}`).toBe(404);
            expect(response.body, `${method} ${url}`).toContain('<h1>This link does not work any more</h1>');
          }
        }
        for (const token of [alter(confirm), manage]) {
          for (const method of ['GET', 'POST'] as const) {
            const response = await app.inject({ method, url: `/confirm/${token}`, ...form({}) });
            expect(response.statusCode, `${method} /confirm/${token}`).toBe(404);
          }
        }
        expect(await snapshot(store, id)).toEqual(before);
      });

      it('a well-signed link for a sign-up we never held gets 404 everywhere', async () => {
        const { app } = await setUp();
        const nobody = randomUUID();
        for (const [method, url] of [
          ['GET', `/confirm/${links.sign('confirm', nobody)}`],
          ['POST', `/confirm/${links.sign('confirm', nobody)}`],
          ['GET', `/preferences/${links.sign('manage', nobody)}`],
          ['POST', `/preferences/${links.sign('manage', nobody)}`],
          ['POST', `/preferences/${links.sign('manage', nobody)}/leave`],
          ['POST', `/preferences/${links.sign('manage', nobody)}/delete`],
          ['GET', `/unsubscribe/${links.sign('manage', nobody)}`],
          ['POST', `/unsubscribe/${links.sign('manage', nobody)}`],
        ] as const) {
          expect((await app.inject({ method, url, ...form({}) })).statusCode, `${method} ${url}`).toBe(404);
        }
      });

      it('the JSON API still refuses form bodies', async () => {
        const { app } = await setUp();
        const response = await app.inject({ method: 'POST', url: '/api/signups', ...form({ name: 'x' }) });
        expect(response.statusCode).toBe(415);
      });
    });
  });
}
