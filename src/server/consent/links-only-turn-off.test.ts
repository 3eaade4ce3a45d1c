// Issue 54, path 7: the links in our emails only turn things off. Whoever holds a forwarded email (its
// page link, its confirmation link, its List-Unsubscribe header) can stop email and nothing more:
// turning anything on, coming back after leaving and deleting go by a button emailed at that moment
// to the address on record, good once and for BUTTON_HOURS. Through the real app and a real SMTP
// server on loopback, on both engines.
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { storeEngines, suiteName, type StoreEngine } from '../test/store-engines.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { buttonPaths, pressEmailedButton } from '../test/emailed-button.js';
import { rosa } from '../test/people.js';
import { machineClock } from '../test/clock.js';
import { createLinkSigner } from '../messaging/link-tokens.js';
import { linkPageWords } from '../messaging/message-words.js';
import { BUTTON_HOURS, buttonPath } from './emailed-buttons.js';
import { BUTTONS_PER_HOUR } from './link-pages/emailed-button-forms.js';

const KEY = 'links-only-turn-off-test-key-long-enough';
const links = createLinkSigner(KEY);
const SITE = 'https://scamsavvy.example';
const HOUR_MS = 3_600_000;

/** `text` with the character at `index` changed to another (a token altered by one character). */
const otherCharAt = (text: string, index: number) =>
  `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;

const form = (fields: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

async function world(engine: StoreEngine) {
  const mail = await startSmtpSink();
  onTestFinished(() => mail.stop());
  const { app, db } = await buildTestApp({
    engine,
    database: { confirmSignups: true },
    config: {
      siteUrl: SITE,
      messaging: {
        email: { smtpUrl: mail.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
        secretKey: KEY,
        emailConfirmation: false,
        unconfirmedRetentionDays: 30,
        confirmationReminderDays: 7,
      },
    },
  });
  await db.signups.add({ ...rosa });
  const id = (await db.subscribers.subscriberByEmailKey(rosa.email))!.id;
  const person = () => db.subscribers.subscriber(id);
  // What a forwarded email hands its holder: the page link, the confirmation link and the unsubscribe link.
  const forwarded = {
    page: `/preferences/${links.sign('manage', id)}`,
    confirm: `/confirm/${links.sign('confirm', id)}`,
    unsubscribe: `/unsubscribe/${links.sign('off', id)}`,
  };
  const post = (url: string, fields?: Record<string, string>) => app.inject({ method: 'POST', url, ...form(fields) });
  return { app, db, mail, id, person, forwarded, post };
}

for (const engine of storeEngines)
  describe.skipIf(!engine.available)(suiteName('links in emails only turn things off', engine), () => {
    it('a forwarded email cannot bring back someone who left, turn anything on, or delete them: each goes by a button to their own mailbox', async () => {
      const { app, mail, person, forwarded, post } = await world(engine);
      expect((await post(`${forwarded.page}/leave`)).statusCode).toBe(303);
      const leftAt = (await person())!.leftAt;
      expect(leftAt).not.toBeNull();

      // The holder ticks every box, presses the come-back button and asks to delete.
      const saved = await post(forwarded.page, { email: 'on', sms: 'on', beta: 'on' });
      expect(saved.headers.location).toBe(`${forwarded.page}?button=sent&ask=on-111`);
      const back = await post(forwarded.confirm);
      expect(back.headers.location).toBe(`${forwarded.page}?button=sent&ask=back`);
      const deleted = await post(`${forwarded.page}/delete`, { confirm: 'yes' });
      expect(deleted.headers.location).toBe(`${forwarded.page}?button=sent&ask=delete`);

      // Nothing changed: still left, nothing on, still held.
      expect(await person()).toMatchObject({ leftAt, betaTesting: rosa.betaTesting });
      // The three buttons went to her address, and to nobody else.
      expect(buttonPaths(mail, rosa.email)).toHaveLength(3);
      expect(mail.messages().every((each) => each.envelope.to.join() === rosa.email)).toBe(true);
      // Her page, as the holder sees it after asking, says only that a button went to a hidden address.
      const words = linkPageWords.preferences;
      const shown = (await app.inject({ url: String(saved.headers.location) })).body;
      expect(shown).toContain(
        words.buttonSent(
          'ro•••@example.com',
          words.buttonDoes.on(
            words.listed([words.buttonThings.email, words.buttonThings.sms, words.buttonThings.beta]),
          ),
          BUTTON_HOURS,
        ),
      );
      expect(shown).not.toContain(rosa.email);
      // The one-click unsubscribe link still does its one thing, and opens nothing else.
      expect((await post(forwarded.unsubscribe)).statusCode).toBe(200);
      expect(
        (await app.inject({ url: forwarded.unsubscribe.replace('/unsubscribe/', '/preferences/') })).statusCode,
      ).toBe(404);
    });

    it('her button works once: pressed, she is back; pressed again, or after any later change, it does nothing', async () => {
      const { app, db, mail, id, person, forwarded, post } = await world(engine);
      await post(`${forwarded.page}/leave`);
      await post(forwarded.page, { email: 'on' });
      const first = await pressEmailedButton(app, mail, rosa.email);
      expect(first.page.body).toContain(`<h1>${linkPageWords.button.title.on}</h1>`);
      expect(first.pressed.headers.location).toBe(`${forwarded.page}?done=saved`);
      expect(await person()).toMatchObject({ leftAt: null, emailOptOutAt: null });
      expect((await db.consentEvents.history(id)).at(-1)).toMatchObject({ source: 'emailed_button' });

      // Pressed again (or by someone she forwarded it to): her choices changed since, so it is spent.
      const again = await post(first.path);
      expect(again.statusCode).toBe(404);
      expect(again.body).toContain(`<h1>${linkPageWords.button.usedTitle}</h1>`);
      // She leaves again: the old button does not bring her back a second time.
      await post(`${forwarded.page}/leave`);
      expect((await post(first.path)).statusCode).toBe(404);
      expect((await person())!.leftAt).not.toBeNull();
    });

    it('a button cannot be made to do something else, or for someone else', async () => {
      const { db, mail, person, forwarded, post } = await world(engine);
      await post(`${forwarded.page}/leave`);
      await post(forwarded.page, { email: 'on' });
      const path = buttonPaths(mail, rosa.email)[0]!;
      // on-100 (email) made into on-111, into delete, its time moved on, or one character of its token
      // changed (in the middle: the last one of base64 carries spare bits): none is ours.
      const [, , code, sent, token] = path.split('/');
      expect(code).toBe('on-100');
      for (const altered of [
        `/button/on-111/${sent}/${token}`,
        `/button/delete/${sent}/${token}`,
        `/button/${code}/${(parseInt(sent!, 36) + 60).toString(36)}/${token}`,
        `/button/${code}/${sent}/${otherCharAt(token!, 20)}`,
      ]) {
        const answer = await post(altered);
        expect(answer.statusCode, altered).toBe(404);
      }
      // Signed for another person (ids are in the token): it names them, and their choices do not match.
      await db.signups.add({ ...rosa, email: 'other@example.com' });
      const other = (await db.subscribers.subscriberByEmailKey('other@example.com'))!;
      const theirs = `/button/${code}/${sent}/${links.sign('button', other.id, 'not what it changes')}`;
      expect((await post(theirs)).statusCode).toBe(404);
      expect((await person())!.leftAt).not.toBeNull();
      expect((await db.subscribers.subscriber(other.id))!.leftAt).toBeNull();
    });

    it(`a button older than ${BUTTON_HOURS} hours does nothing, and offers a new one to the same address, which works`, async () => {
      const { app, mail, person, forwarded, post } = await world(engine);
      await post(`${forwarded.page}/leave`);
      // As the server signs one, sent a day and an hour ago.
      const old = buttonPath(
        links,
        (await person())!,
        { kind: 'back' },
        new Date(machineClock.ms() - (BUTTON_HOURS + 1) * HOUR_MS),
      );
      const opened = await app.inject({ url: old });
      expect(opened.statusCode).toBe(410);
      expect(opened.body).toContain(`<h1>${linkPageWords.button.expiredTitle}</h1>`);
      expect(opened.body).toContain(`action="${old}/again"`);
      expect((await post(old)).statusCode).toBe(410);
      expect((await person())!.leftAt).not.toBeNull();
      const renewed = await post(`${old}/again`);
      expect(renewed.statusCode).toBe(200);
      const { pressed } = await pressEmailedButton(app, mail, rosa.email, 0);
      expect(pressed.statusCode).toBe(303);
      expect((await person())!.leftAt).toBeNull();
      // A spent button never makes a new one.
      expect((await post(`${old}/again`)).statusCode).toBe(404);
    });

    it('each button is a row of the one outbox: sent, refused for good (the address marked), or not sent and never later', async () => {
      const { db, mail, forwarded, post } = await world(engine);
      await post(`${forwarded.page}/leave`);
      const ask = async () => String((await post(forwarded.page, { email: 'on' })).headers.location);
      const states = async () => (await db.messageQueue.rows('button')).map((row) => row.state);
      expect(await ask()).toContain('button=sent');
      expect(await states()).toEqual(['sent']);
      // A "not now" from the mail server: the page says it was not sent, so it is never sent later.
      mail.rejectNext(451, '4.2.0 Greylisted, please try again later', 1);
      expect(await ask()).toContain('button=not_sent');
      expect(await states()).toEqual(['sent', 'skipped']);
      expect(await db.outbox.claim({ kind: 'button', leaseMs: 0 }, 'a test', 10)).toEqual([]);
      // The mailbox does not exist: refused for good, and the address takes no more email from us.
      mail.answerFor((to) => (to === rosa.email ? { code: 550, message: '5.1.1 No such user' } : undefined));
      expect(await ask()).toContain('button=unreachable');
      expect(await states()).toEqual(['sent', 'skipped', 'failed_permanent']);
      expect(await ask()).toContain('button=unreachable');
      expect(await states()).toHaveLength(3);
      expect(buttonPaths(mail, rosa.email)).toHaveLength(1);
    });

    it(`at most ${BUTTONS_PER_HOUR} buttons an hour reach one mailbox, however often the page is pressed`, async () => {
      const { app, mail, forwarded, post } = await world(engine);
      await post(`${forwarded.page}/leave`);
      const answers: string[] = [];
      for (let press = 0; press < BUTTONS_PER_HOUR + 2; press += 1)
        answers.push(String((await post(forwarded.page, { email: 'on' })).headers.location));
      expect(answers.filter((to) => to.includes('button=sent'))).toHaveLength(BUTTONS_PER_HOUR);
      expect(answers.at(-1)).toContain('button=limit');
      expect((await app.inject({ url: answers.at(-1)! })).body).toContain(linkPageWords.preferences.buttonLimit);
      expect(buttonPaths(mail, rosa.email)).toHaveLength(BUTTONS_PER_HOUR);
    });
  });
