// The one reminder to confirm, on every engine, through a real SMTP server on loopback: due
// CONFIRMATION_REMINDER_DAYS after the confirmation email, sent once and never again, with the same
// button and the day the details go; none for the confirmed, those who left, or with 0 days; a mail
// server that is away leaves the reminder queued in the outbox for a later sweep (decision 052).
import pino from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../db/open-database.js';
import { rosa, ann } from '../test/people.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { storeEngines } from '../test/store-engines.js';
import { confirmationReminders } from './confirmation-reminders.js';
import { OutboxSender } from './outbox-sender.js';
import { confirmationsWentOut } from '../test/outbox.js';
import { createEmailSender } from '../messaging/email-sender.js';
import { deletionDay } from '../messaging/email-templates.js';
import { createAddressHasher, createLinkSigner } from '../messaging/link-tokens.js';
import { messageWords } from '../messaging/message-words.js';
import { Subscriptions } from './subscriptions.js';

const KEY = 'reminder-test-key-that-is-long-enough-12';
import { SITE } from '../test/site.js';
import { machineClock, testClock } from '../test/clock.js';

/** Whom the mail server received a message for, in order. */
const recipients = (sink: SmtpSink) =>
  sink
    .messages()
    .map((each) => each.envelope.to[0])
    .sort();
const DAY_MS = 86_400_000;

async function world(engine: (typeof storeEngines)[number]) {
  const sink = await startSmtpSink();
  onTestFinished(() => sink.stop());
  // One clock for the store and the sweeps: the days pass for both. It starts a minute on from the
  // machine's, which the SQLite writer's thread stamps a sign-up's request with.
  const start = machineClock.ms() + 60_000;
  const clock = testClock(start);
  const store = await openDatabase(await engine.database(), { confirmSignups: true, now: clock });
  onTestFinished(() => store.close());
  const email = createEmailSender(
    { smtpUrl: sink.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
    { listId: 'launch.scamsavvy.example', listName: 'ScamSavvy launch news' },
  );
  onTestFinished(() => email.close());
  const subscriptions = new Subscriptions(store, createAddressHasher(KEY));
  const links = createLinkSigner(KEY);
  /** Signs up and has the confirmation email sent (as the mailer records it). */
  const signUp = async (person: { name: string; phone: string; email: string; betaTesting: boolean }) => {
    await store.signups.add({ ...person, consentVersion: 'v1' });
    const subscriber = (await store.subscribers.subscriberByEmailKey(person.email))!;
    expect(await confirmationsWentOut(store)).toContain(subscriber.id);
    return (await store.subscribers.subscriber(subscriber.id))!;
  };
  /** The hourly sweep's reminders, `daysLater` days after the sign-ups. */
  const sweep = (daysLater: number, reminderDays = 7) => {
    clock.set(start + daysLater * DAY_MS);
    const logger = pino({ level: 'silent' });
    const reminders = confirmationReminders({
      store: store.confirmations,
      subscriptions,
      email,
      links,
      siteUrl: SITE,
      reminderDays,
      retentionDays: 30,
      postalAddress: '100 Example Street, Springfield, IL 62701',
      logger,
      now: clock,
    });
    return new OutboxSender(reminders, {
      queue: store.outbox,
      people: subscriptions,
      logger,
      now: clock,
    }).sendDue();
  };
  return { sink, store, subscriptions, links, signUp, sweep };
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`the confirmation reminder on ${engine.name}`, () => {
    it('goes once, CONFIRMATION_REMINDER_DAYS after the confirmation, with the button and the day the details go', async () => {
      const { sink, store, subscriptions, links, signUp, sweep } = await world(engine);
      const silent = await signUp(rosa);
      const confirmed = await signUp(ann);
      await store.subscribers.confirm(confirmed.id, 'confirm_page');
      const leaver = await signUp({ ...rosa, email: 'leaver@example.com' });
      await subscriptions.leave(leaver.id, 'preferences_page');

      expect(await sweep(6)).toMatchObject({ sent: 0 }); // not due yet
      expect(await sweep(8)).toMatchObject({ sent: 1 });
      const mail = await sink.waitFor((each) => each.envelope.to.includes(rosa.email));
      expect(mail.parsed.subject).toBe(messageWords.reminder.subject);
      const confirmUrl = `${SITE}/confirm/${links.sign('confirm', silent.id)}`;
      expect(mail.parsed.text).toContain(confirmUrl);
      expect(mail.parsed.html || '').toContain(confirmUrl);
      const day = deletionDay(silent.lastSeenAt, 30);
      expect(mail.parsed.text?.replace(/\s+/g, ' ')).toContain(
        `Opening the link is what keeps you on the list. If it is not opened, we will delete your details on ${day}. Nothing more comes unless our form is used with this email again.`,
      );
      expect(mail.parsed.text).toContain(messageWords.reminder.once);

      // Never a second one, however many sweeps follow; none for the confirmed or those who left.
      expect(await sweep(9)).toMatchObject({ sent: 0 });
      expect(await sweep(20)).toMatchObject({ sent: 0 });
      expect(sink.messages().map((each) => each.envelope.to[0])).toEqual([rosa.email]);
    });

    it('sends none with CONFIRMATION_REMINDER_DAYS=0', async () => {
      const { sink, signUp, sweep } = await world(engine);
      await signUp(rosa);
      expect(await sweep(20, 0)).toEqual({ sent: 0, skipped: 0, failed: 0, later: 0 });
      expect(sink.messages()).toHaveLength(0);
    });

    it('one person\'s "not now" waits and the run goes on; the next sweep sends it, once', async () => {
      const { sink, signUp, sweep } = await world(engine);
      await signUp(rosa);
      await signUp(ann);
      sink.rejectNext(451, '4.2.0 Greylisted, please try again later', 1);
      expect(await sweep(8)).toMatchObject({ sent: 1, later: 1 });
      // The next sweep, an hour on.
      expect(await sweep(8 + 1 / 24)).toMatchObject({ sent: 1 });
      expect(await sweep(8 + 2 / 24)).toMatchObject({ sent: 0 });
      expect(recipients(sink)).toEqual([ann.email, rosa.email].sort());
    });

    it('a mail server that is away (two "not now" in a row, or our sign-in) keeps the reminders waiting: the next sweep sends them, once', async () => {
      const { sink, signUp, sweep } = await world(engine);
      await signUp(rosa);
      await signUp(ann);
      await signUp({ ...rosa, email: 'third@example.com' });
      sink.rejectNext(421, '4.3.2 Service not available, closing channel', 2);
      expect(await sweep(8)).toMatchObject({ sent: 0, later: 3 });
      expect(await sweep(8 + 1 / 24)).toMatchObject({ sent: 3 });
      expect(await sweep(8 + 2 / 24)).toMatchObject({ sent: 0 });
      expect(recipients(sink)).toEqual([ann.email, rosa.email, 'third@example.com'].sort());
    });
  });
}
