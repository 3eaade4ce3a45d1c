// A mistyped phone number can be fixed (decision 031), on every engine, through the real app, a real
// SMTP server on loopback and the Twilio stand-in: a repeat sign-up with another number emails the
// address on record and changes nothing until its button is pressed, and so does a new number typed
// on the person's own page (its link may have been forwarded: decision 041); the owner's person page
// changes it directly; a launch broadcast after each step shows who gets what.
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { openDatabase } from '../db/open-database.js';
import { setup } from '../test/broadcast-setup.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../test/smtp-sink.js';
import { storeEngines } from '../test/store-engines.js';
import { linkPageWords, messageWords } from '../messaging/message-words.js';

import { SITE } from '../test/site.js';
import { machineClock, testClock } from '../test/clock.js';
const ROSA = 'rosa@example.com';
const FIRST = '+15551231111';
const RIGHT = '+15559874567';
const words = linkPageWords.preferences;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function world(engineName: 'sqlite' | 'postgres') {
  const mail = await startSmtpSink();
  onTestFinished(() => mail.stop());
  const base = await setup(engineName, { texts: true, env: { SMTP_URL: mail.url } });
  const { app, product } = await buildTestApp({
    existing: { db: base.store, database: base.database },
    config: { siteUrl: SITE, messaging: base.config.messaging },
    overrides: { messaging: { everyMs: { 'phone-change-emails': 100 } } },
  });
  await app.ready();
  const signUp = async (email: string, phone: string, name = 'Rosa Díaz') => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/signups',
      payload: { name, phone, email, betaTesting: false, openedForMs: 5000, consentVersion: '2026-11-23' },
    });
    expect(response.statusCode).toBe(201);
  };
  const person = async (email = ROSA) => (await base.store.subscribers.subscriberByEmailKey(email))!;
  /** A launch text to everyone, sent now: the numbers it went to. */
  const launchTexts = async (name: string) => {
    const before = base.twilio!.sent().length;
    const { broadcast } = await base.broadcasts.create({ name, template: 'launch', channels: ['sms'] });
    await base.send(broadcast);
    return base
      .twilio!.sent()
      .slice(before)
      .filter((text) => text.body !== messageWords.sms.joining.reply) // the joining texts go on their own
      .map((text) => text.to);
  };
  /** The number replies YES to its joining text (decision 041). */
  const yes = (phone: string) => base.store.optOuts.confirmTexts([phone], 'sms_reply');
  return { ...base, mail, app, messaging: product.messaging, signUp, person, launchTexts, yes };
}

const phoneChangeMails = (mail: SmtpSink, email = ROSA) =>
  mail
    .messages()
    .filter((each) => each.envelope.to.includes(email) && each.parsed.subject === messageWords.phoneChange.subject);
const changeLink = (mail: ReceivedMail) =>
  (mail.parsed.text ?? '').match(new RegExp(`${SITE}(/change-phone/[0-9A-Za-z]{50})`))?.[1] ?? '';

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`fixing a phone number on ${engine.name}`, () => {
    it('a repeat sign-up with another number asks the address on record; only its button changes the number, and the launch text follows', async () => {
      const { app, mail, signUp, person, store, launchTexts, yes } = await world(engine.name);
      await signUp(ROSA, FIRST);
      await signUp(ROSA, '+1 (555) 987-4567');
      const asked = await mail.waitFor(
        (each) => each.envelope.to.includes(ROSA) && each.parsed.subject === messageWords.phoneChange.subject,
        10_000,
      );
      // What the person is told, in both parts, with who sends and where.
      const text = (asked.parsed.text ?? '').replace(/\s+/g, ' ');
      expect(text).toContain(
        'Someone asked to change your phone number to •••• 4567. Open the link below to change it.',
      );
      expect(asked.parsed.html).toContain(
        'Someone asked to change your phone number to •••• 4567. Press the button to change it.',
      );
      expect(text).toContain('If it was not you, do nothing. We will keep the number ending 1111.');
      expect(text).toContain('ScamSavvy, 100 Example Street, Springfield, IL 62701');
      const link = changeLink(asked);
      expect(link).not.toBe('');

      // Before the button: nothing changed, and the launch text goes to the number on record.
      expect((await person()).phone).toBe(FIRST);
      const opened = await app.inject({ url: link });
      expect(opened.statusCode).toBe(200);
      expect(opened.body).toContain(linkPageWords.phoneChange.text('4567'));
      expect((await person()).phone).toBe(FIRST);
      await yes(FIRST);
      expect(await launchTexts('before')).toEqual([FIRST]);

      // The button: the number it named, and a consent event; the page then says what texts will do.
      const pressed = await app.inject({ method: 'POST', url: link, payload: {} });
      expect(pressed.statusCode).toBe(303);
      expect(pressed.headers.location).toMatch(/^\/preferences\/[0-9A-Za-z]{50}\?done=phone$/);
      const after = await person();
      expect(after.phone).toBe(RIGHT);
      expect(after.phoneChange).toBeNull();
      expect(after.confirmedAt).not.toBeNull(); // the mailbox is theirs
      expect((await store.consentEvents.history(after.id)).filter((event) => event.kind === 'phone_changed')).toEqual([
        expect.objectContaining({ source: 'phone_change_email' }),
      ]);
      const page = await app.inject({ url: pressed.headers.location as string });
      expect(page.body).toContain(words.phoneChanged('4567'));
      // The launch message "before" went out already: the page says so, not that one will come.
      expect(page.body).toContain(words.textsLaunched);
      expect(page.body).not.toContain(words.textsToNumber);
      // Pressed again: nothing more happens, and it says where they stand.
      const again = await app.inject({ method: 'POST', url: link, payload: {} });
      expect(again.statusCode).toBe(303);
      expect(
        (await store.consentEvents.history(after.id)).filter((event) => event.kind === 'phone_changed'),
      ).toHaveLength(1);

      // A new number is unproven: no launch text until it says YES to its own joining text.
      expect(await launchTexts('after-before-its-yes')).toEqual([]);
      await yes(RIGHT);
      expect(await launchTexts('after')).toEqual([RIGHT]);
    });

    it('strangers typing other numbers change nothing, and get the address at most one email a day', async () => {
      const { app, mail, signUp, person, launchTexts, yes } = await world(engine.name);
      await signUp(ROSA, FIRST);
      await signUp(ROSA, '+15550000001');
      await mail.waitFor((each) => each.parsed.subject === messageWords.phoneChange.subject, 10_000);
      // The email is out once the record says so (the mailer marks it just after the mail server
      // took it); only then is the day without a second email counted.
      await expect.poll(async () => (await person()).phoneChange?.sentAt ?? null).not.toBeNull();
      await signUp(ROSA, '+15550000002');
      await signUp(ROSA, '+15550000003');
      await pause(400);
      expect(phoneChangeMails(mail)).toHaveLength(1);
      // The waiting change is still the first one asked about: the email's button means what it said.
      expect((await person()).phoneChange?.to).toBe('+15550000001');
      expect((await person()).phone).toBe(FIRST);
      // A link made for another number does nothing.
      const forged = changeLink(phoneChangeMails(mail)[0]!).replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
      const refused = await app.inject({ method: 'POST', url: forged, payload: {} });
      expect(refused.statusCode).toBe(404);
      expect(refused.body).toContain(linkPageWords.phoneChange.goneTitle);
      expect((await person()).phone).toBe(FIRST);
      // The same number again drops the request: the old button no longer works.
      await signUp(ROSA, FIRST);
      expect((await person()).phoneChange).toBeNull();
      // And another number straight after is still inside the day: not kept, no second email.
      await signUp(ROSA, '+15550000004');
      await pause(300);
      expect((await person()).phoneChange).toBeNull();
      expect(phoneChangeMails(mail)).toHaveLength(1);
      const stale = await app.inject({ method: 'POST', url: changeLink(phoneChangeMails(mail)[0]!), payload: {} });
      expect(stale.statusCode).toBe(404);
      await yes(FIRST);
      expect(await launchTexts('launch')).toEqual([FIRST]);
    });

    it('the person’s own page changes the name at once, and the number only by the button emailed to the address on record; a number that replied STOP gets no text', async () => {
      const { app, signUp, person, store, mail, launchTexts, messaging } = await world(engine.name);
      await signUp(ROSA, FIRST, 'Rosa Diaz');
      await messaging.subscriptions.stopTexts(RIGHT); // the right number once replied STOP to us
      const path = `/preferences/${messaging.links!.sign('manage', (await person()).id)}`;
      const form = (fields: Record<string, string>) => ({
        method: 'POST' as const,
        url: `${path}/details`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });

      // Wrong input: shown again with what was typed and why, and nothing changes.
      const wrong = await app.inject(form({ name: 'R', phone: '555-abc' }));
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toContain(words.detailsProblem);
      expect(wrong.body).toContain('Name must be at least 2 characters');
      expect(wrong.body).toContain('Please enter a valid phone number');
      expect(wrong.body).toContain('value="555-abc"');
      expect((await person()).name).toBe('Rosa Diaz');

      // Whoever holds the link (it may have been forwarded) can change the name; the number is asked about.
      const saved = await app.inject(form({ name: 'Rosa Díaz', phone: '+1 555 987 4567' }));
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toMatch(/done=namePhoneAsked$/);
      expect(await person()).toMatchObject({ name: 'Rosa Díaz', phone: FIRST });
      const waiting = await app.inject({ url: saved.headers.location as string });
      expect(waiting.body).toContain(words.nameSaved);
      expect(waiting.body).toContain(words.phoneAsked('ro•••@example.com', '4567', '1111'));
      const asked = await mail.waitFor(
        (each) => each.envelope.to.includes(ROSA) && each.parsed.subject === messageWords.phoneChange.subject,
        10_000,
      );
      expect((asked.parsed.text ?? '').replace(/\s+/g, ' ')).toContain(messageWords.phoneChange.where);
      // The mail server has it; the sender records that it went just after (the day counts from then).
      await expect.poll(async () => (await person()).phoneChange?.sentAt ?? null).not.toBeNull();
      // Another number inside the day: nothing kept, no second email, and the page says why.
      const again = await app.inject(form({ name: '', phone: '+1 555 200 0009' }));
      expect(again.headers.location).toMatch(/done=phoneAskedToday$/);
      expect((await app.inject({ url: again.headers.location as string })).body).toContain(
        words.phoneAskedToday('ro•••@example.com', '1111'),
      );
      expect((await person()).phoneChange?.to).toBe(RIGHT);

      // The address on record presses the button: now the number is theirs.
      const pressed = await app.inject({ method: 'POST', url: changeLink(asked), payload: {} });
      expect(pressed.statusCode).toBe(303);
      const after = await person();
      expect(after).toMatchObject({ name: 'Rosa Díaz', phone: RIGHT });
      expect((await store.consentEvents.history(after.id)).map((event) => `${event.kind}:${event.source}`)).toEqual(
        expect.arrayContaining(['name_changed:preferences_page', 'phone_changed:phone_change_email']),
      );
      const page = await app.inject({ url: pressed.headers.location as string });
      expect(page.body).toContain(words.phoneChanged('4567'));
      expect(page.body).not.toContain('Rosa');
      expect(page.body).toContain(words.noTextsToNumber);
      expect(page.body).toContain(words.smsStopped);
      expect(page.body).not.toContain(words.textsToNumber);
      // The rule the page read is the one the sender uses: no text to a number that said STOP.
      expect(await launchTexts('launch')).toEqual([]);
      // Empty fields keep what is held; both empty is a question; the same number written another way is no change.
      const empty = await app.inject(form({ name: '', phone: '' }));
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toContain(words.nothingTyped);
      const same = await app.inject(form({ name: '', phone: '(555) 987-4567' }));
      expect(same.headers.location).toMatch(/done=details$/);
      expect((await person()).name).toBe('Rosa Díaz');
      expect((await person()).phone).toBe(RIGHT);
      expect(
        (await store.consentEvents.history(after.id)).filter((event) => event.kind === 'phone_changed'),
      ).toHaveLength(1);
      expect(phoneChangeMails(mail)).toHaveLength(1);
    });

    it('the owner corrects a number on the person’s page: a consent event, and an audit entry with no number in it', async () => {
      const { app, signUp, person, store, launchTexts, mail, yes } = await world(engine.name);
      await signUp(ROSA, FIRST);
      const cookie = await signInAsOwner(app, store);
      const id = (await person()).id;
      // A repeat sign-up's other number shows on the page, and whether the email asking went out.
      await signUp(ROSA, '+15550004321');
      await mail.waitFor((each) => each.parsed.subject === messageWords.phoneChange.subject, 10_000);
      await expect.poll(async () => (await person()).phoneChange?.sentAt ?? null).not.toBeNull();
      const asked = await app.inject({ url: `/owner/people/${id}`, headers: { cookie } });
      expect(asked.body).toContain('a different phone number ending 4321');
      expect(asked.body).toContain('We emailed them on');
      const post = (fields: Record<string, string>) =>
        app.inject({
          method: 'POST',
          url: `/owner/people/${id}/details`,
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: SITE },
          payload: new URLSearchParams(fields).toString(),
        });
      const wrong = await post({ name: 'Rosa Díaz', phone: 'twelve' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toContain('Please enter a valid phone number');
      expect((await person()).phone).toBe(FIRST);

      const saved = await post({ name: 'Rosa Díaz', phone: RIGHT });
      expect(saved.statusCode).toBe(303);
      expect((await person()).phone).toBe(RIGHT);
      const shown = await app.inject({ url: saved.headers.location as string, headers: { cookie } });
      expect(shown.body).toContain('Saved. Their consent history below shows the change.');
      expect(shown.body).toContain('Phone number changed');
      const audit = await store.owners.auditLog(50);
      const entry = audit.find((each) => each.action === 'changed_person');
      expect(entry).toMatchObject({ subject: id, detail: 'phone number of ro•••@example.com' });
      expect(JSON.stringify(audit)).not.toMatch(/4567|1111|rosa@/);
      await yes(RIGHT);
      expect(await launchTexts('launch')).toEqual([RIGHT]);
    });

    // Issue 54, path 1: a number typed any way is kept as E.164, so the STOP from that phone matches it.
    it('keeps a number typed on the person’s page or the owner’s page as E.164, so a STOP from that phone holds; one the plan cannot read is refused', async () => {
      const { app, signUp, person, store, mail, launchTexts, messaging, yes } = await world(engine.name);
      await signUp(ROSA, FIRST);
      const manage = `/preferences/${messaging.links!.sign('manage', (await person()).id)}/details`;
      const typed = (url: string, phone: string, headers: Record<string, string> = {}) =>
        app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          payload: new URLSearchParams({ name: headers.cookie ? 'Luz Ortega' : '', phone }).toString(),
        });
      expect((await typed(manage, '+33 (0)6 12 34 56 78')).statusCode).toBe(303);
      expect((await person()).phoneChange?.to).toBe('+33612345678');
      const asked = await mail.waitFor((each) => each.parsed.subject === messageWords.phoneChange.subject, 10_000);
      expect((await app.inject({ method: 'POST', url: changeLink(asked), payload: {} })).statusCode).toBe(303);
      expect((await person()).phone).toBe('+33612345678');
      await yes('+33612345678');
      // The phone replies STOP (Twilio sends its number as E.164): texts off, and no launch text goes to it.
      expect(await messaging.subscriptions.stopTexts('+33612345678')).toBe(1);
      expect((await person()).smsOptOutAt).not.toBeNull();
      expect(await launchTexts('launch')).toEqual([]);

      const luz = 'luz@example.com';
      await signUp(luz, '+15551232222', 'Luz Ortega');
      const cookie = await signInAsOwner(app, store);
      const owners = `/owner/people/${(await person(luz)).id}/details`;
      const unreadable = await typed(owners, '555-0142', { cookie, origin: SITE });
      expect(unreadable.statusCode).toBe(400);
      expect(unreadable.body).toContain('Please include your area code');
      expect((await person(luz)).phone).toBe('+15551232222');
      expect((await typed(owners, '(212) 555-0142', { cookie, origin: SITE })).statusCode).toBe(303);
      expect((await person(luz)).phone).toBe('+12125550142');
      expect((await typed(owners, '+44 7911 123456', { cookie, origin: SITE })).statusCode).toBe(303);
      expect((await person(luz)).phone).toBe('+447911123456');
    });

    it('an address that refuses the email for good: marked undeliverable, the number asked for forgotten', async () => {
      const { mail, signUp, person, store } = await world(engine.name);
      await signUp(ROSA, FIRST);
      mail.answerFor((to) => (to === ROSA ? { code: 550, message: '5.1.1 No such user' } : undefined));
      await signUp(ROSA, RIGHT);
      await expect.poll(async () => (await person()).phoneChange, { timeout: 10_000 }).toBeNull();
      expect((await person()).phone).toBe(FIRST);
      expect(phoneChangeMails(mail)).toHaveLength(0);
      expect((await store.consentEvents.history((await person()).id)).map((event) => event.kind)).toContain(
        'email_undeliverable',
      );
    });

    it('a sender that dies after claiming the email leaves it for another after the lease, and nobody is told it went', async () => {
      // From the machine's time (PostgreSQL stamps the change with its own now()), moved by the test.
      const clock = testClock(machineClock.now());
      const store = await openDatabase(await engine.database(), { now: clock });
      onTestFinished(() => store.close());
      const person = { name: 'Rosa Díaz', email: ROSA, betaTesting: false, consentVersion: 'v1' };
      await store.signups.add({ ...person, phone: FIRST });
      await store.signups.add({ ...person, phone: RIGHT });
      const id = (await store.subscribers.subscriberByEmailKey(ROSA))!.id;
      const weekAgo = new Date(clock.ms() - 7 * 86_400_000);
      // Queued once in the one outbox, however often the sender looks.
      expect(await store.phoneChanges.queueDue(weekAgo)).toBe(1);
      expect(await store.phoneChanges.queueDue(weekAgo)).toBe(0);
      const claim = () => store.outbox.claim({ kind: 'phone_change', leaseMs: 5 * 60_000 }, 'a test', 10);
      expect((await claim()).map((row) => row.signupId)).toEqual([id]);
      // Held: no second sender takes it, and it is not (yet) said to have gone.
      expect(await claim()).toEqual([]);
      expect(await store.phoneChanges.queueDue(weekAgo)).toBe(0);
      expect((await store.subscribers.subscriber(id))?.phoneChange?.sentAt).toBeNull();
      // The sender died: after the lease another takes it, and only a send marks it sent.
      clock.advance(6 * 60_000);
      const taken = await claim();
      expect(taken.map((row) => row.signupId)).toEqual([id]);
      await store.phoneChanges.phoneChangeSent(id, RIGHT);
      await store.outbox.record('a test', [{ id: taken[0]!.id, result: 'sent' }]);
      expect((await store.subscribers.subscriber(id))?.phoneChange?.sentAt).not.toBeNull();
      clock.advance(6 * 60_000);
      expect(await claim()).toEqual([]);
      expect(await store.phoneChanges.queueDue(weekAgo)).toBe(0);
    });

    it('a change nobody agreed to within 7 days is forgotten: the number is not kept', async () => {
      const { signUp, person, store } = await world(engine.name);
      await signUp(ROSA, FIRST);
      await signUp(ROSA, RIGHT);
      expect((await person()).phoneChange?.to).toBe(RIGHT);
      // The change was stamped by the database's clock (PostgreSQL's own now()).
      expect(await store.phoneChanges.dropStalePhoneChanges(new Date(machineClock.ms() - 60_000))).toBe(0);
      expect(await store.phoneChanges.dropStalePhoneChanges(new Date(machineClock.ms() + 60_000))).toBe(1);
      expect((await person()).phoneChange).toBeNull();
      expect((await person()).phone).toBe(FIRST);
    });
  });
}
