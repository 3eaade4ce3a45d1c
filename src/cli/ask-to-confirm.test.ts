// signups:ask-to-confirm, run in-process against a real SQLite database and a real SMTP server on
// loopback: people who signed up before confirmation was on are asked once, a few a second, by the
// confirmation mailer (the server's own); nobody already asked, confirmed or gone is asked again;
// and the deletion clock starts when they are asked, not when they signed up.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { confirmationEmails } from '../server/consent/confirmation-mailer.js';
import { OutboxSender } from '../server/consent/outbox-sender.js';
import { createEmailSender } from '../server/messaging/email-sender.js';
import { createAddressHasher, createLinkSigner } from '../server/messaging/link-tokens.js';
import { Subscriptions } from '../server/consent/subscriptions.js';
import { openDatabase } from '../server/db/open-database.js';
import { runCommand } from '../server/test/run-command.js';
import { startSmtpSink, type SmtpSink } from '../server/test/smtp-sink.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { main } from './ask-to-confirm.js';
import { machineClock, shiftedClock } from '../server/test/clock.js';

const SECRET_KEY = 'ask-to-confirm-test-key-that-is-long-enough';
const DAY_MS = 86_400_000;
let file: string;
let sink: SmtpSink;

beforeEach(async () => {
  file = tempDatabaseFile();
  sink = await startSmtpSink();
  vi.stubEnv('DATABASE_URL', `sqlite:${file}`);
  vi.stubEnv('SECRET_KEY', SECRET_KEY);
  vi.stubEnv('SMTP_URL', sink.url);
  vi.stubEnv('MAIL_FROM', 'ScamSavvy <hello@scamsavvy.example>');
  vi.stubEnv('SITE_URL', 'https://scamsavvy.example');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await sink.stop();
});

const person = (index: number) => ({
  name: `Person ${index}`,
  phone: `+1555000${String(index).padStart(4, '0')}`,
  email: `old${index}@example.com`,
  betaTesting: false,
});

describe('signups:ask-to-confirm', () => {
  it('asks everyone never asked, once, a few a second, and the deletion clock starts then', async () => {
    // An old list: five signed up before email was set up (40 days ago), one of them has left since.
    const old = await openDatabase({ kind: 'sqlite', file }, { now: shiftedClock(-40 * DAY_MS) });
    for (let index = 0; index < 5; index += 1) await old.signups.add(person(index));
    await old.close();
    const store = await openDatabase({ kind: 'sqlite', file });
    onTestFinished(() => store.close());
    const leaver = (await store.subscribers.subscriberByEmailKey('old4@example.com'))!;
    await store.optOuts.leave(leaver.id, 'preferences_page', []);

    const dry = await runCommand(main, []);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('4 people signed up before confirmation was switched on');
    expect(await store.confirmations.neverAskedCount()).toBe(4); // nothing changed

    const asked = await runCommand(main, ['--yes', '--rate', '2']);
    expect(asked.code).toBe(0);
    expect(asked.out).toContain('Asked 4 people to confirm');
    expect(await store.confirmations.neverAskedCount()).toBe(0);
    // Not deleted by the retention sweep although they signed up 40 days ago: asked just now.
    // (The command stamps "asked" with the machine's clock: it takes no clock of ours.)
    expect(await store.confirmations.deleteUnconfirmed(new Date(machineClock.ms() - 30 * DAY_MS))).toBe(0);

    // The server's confirmation mailer sends them as they become due: 2 now, 2 a second later.
    const email = createEmailSender(
      { smtpUrl: sink.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
      { listId: 'launch.scamsavvy.example', listName: 'ScamSavvy launch news' },
    );
    const logger = pino({ level: 'silent' });
    const subscriptions = new Subscriptions(store, createAddressHasher(SECRET_KEY));
    const confirmations = confirmationEmails({
      subscriptions,
      email,
      links: createLinkSigner(SECRET_KEY),
      siteUrl: 'https://scamsavvy.example',
      retentionDays: 30,
      logger,
    });
    const mailer = new OutboxSender(confirmations, {
      queue: store.outbox,
      people: subscriptions,
      logger,
      concurrency: 3,
    });
    expect((await mailer.runOnce()).run.sent).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await mailer.runOnce()).run.sent).toBe(2);
    expect(
      sink
        .messages()
        .map((mail) => mail.envelope.to[0])
        .sort(),
    ).toEqual(['old0@example.com', 'old1@example.com', 'old2@example.com', 'old3@example.com']);
    expect(sink.messages()[0]?.parsed.text).toContain('Opening the link is what keeps you on the list.');
    email.close(); // before the SMTP server stops (it waits for open connections)

    // Run again: nobody is asked twice.
    expect((await runCommand(main, ['--yes'])).out).toContain('Nothing to do');
  });

  it('refuses without email confirmation, and a rate that is not a number', async () => {
    vi.stubEnv('SMTP_URL', '');
    vi.stubEnv('MAIL_FROM', '');
    expect((await runCommand(main, ['--yes'])).code).toBe(1);
    expect((await runCommand(main, ['--rate', 'fast'])).code).toBe(2);
  });
});
