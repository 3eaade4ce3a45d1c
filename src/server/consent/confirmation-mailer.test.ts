// The confirmation mailer acting on whose fault a failure was: over the real app, a real SMTP
// server on loopback that asks for a sign-in, and a real SQLite database.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Db } from '../db/open-database.js';
import { buildTestApp } from '../test/build-test-app.js';
import { capturedLog, ERROR, WARN } from '../test/captured-log.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../test/smtp-sink.js';

import { SITE } from '../test/site.js';
import { CONFIRMING } from '../test/test-config.js';
const credentials = { user: 'launch', pass: 'right password' };

/** The app with confirmation on, its mailer retrying every 100-300 ms and logging into `lines`. */
async function start(smtp: SmtpSink) {
  const { lines, logger } = capturedLog();
  const { app, db, product } = await buildTestApp({
    database: { confirmSignups: true },
    config: {
      siteUrl: SITE,
      messaging: { email: { smtpUrl: smtp.url, from: 'ScamSavvy <hello@scamsavvy.example>' }, ...CONFIRMING },
    },
    overrides: {
      messaging: {
        mailer: { retryBaseMs: 100, maxRetryMs: 300, logger },
        everyMs: { 'confirmation-emails': 100 },
      },
    },
  });
  await app.ready();
  const { messaging } = product;
  return { app, db, messaging, lines };
}

/** A sink asking for a sign-in; started before the app, so it stops after the app closes (clean-ups run last first). */
async function sink(): Promise<SmtpSink> {
  const started = await startSmtpSink({ auth: credentials });
  onTestFinished(() => started.stop());
  return started;
}

async function signUp(app: FastifyInstance, email: string, phone: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/signups',
    payload: { name: 'Rosa Díaz', phone, email, betaTesting: false, openedForMs: 5000, consentVersion: '2026-11-23' },
  });
  expect(response.statusCode).toBe(201);
}

const to = (email: string) => (mail: ReceivedMail) => mail.envelope.to.includes(email);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PEOPLE = ['ana@example.com', 'ben@example.com', 'cleo@example.com', 'dev@example.com'];

async function subscriberOf(db: Db, email: string) {
  const subscriber = await db.subscribers.subscriberByEmailKey(email);
  if (!subscriber) throw new Error(`${email} is not stored`);
  return subscriber;
}

describe('the confirmation mailer, by whose fault a failure was', () => {
  it('waits while the mail server refuses our sign-in: one error line, nobody failed, then one email each', async () => {
    const smtp = await sink();
    smtp.refuseAuth(true);
    const { app, db, messaging, lines } = await start(smtp);
    for (const [index, email] of PEOPLE.entries()) await signUp(app, email, `+1555000000${index}`);
    await pause(1000); // several retries, every 100 to 300 ms

    expect(smtp.messages()).toHaveLength(0);
    const errors = lines.filter((line) => line.level === ERROR);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain(
      'The mail server refused our sign-in (535 5.7.8): check the user name and password in SMTP_URL, then resume.',
    );
    expect(lines.filter((line) => line.level === WARN)).toEqual([]);
    for (const email of PEOPLE) {
      const subscriber = await subscriberOf(db, email);
      expect(await messaging.subscriptions.mayContact(subscriber, 'email')).toBe(true);
      expect((await db.consentEvents.history(subscriber.id)).map((event) => event.kind)).toEqual(['signed_up']);
    }

    smtp.refuseAuth(false);
    for (const email of PEOPLE) await smtp.waitFor(to(email), 10_000);
    await pause(400);
    for (const email of PEOPLE) expect(smtp.messages().filter(to(email))).toHaveLength(1);
    expect(lines.filter((line) => line.msg === 'confirmation emails are going out again')).toHaveLength(1);
    expect(lines.filter((line) => line.level === ERROR)).toHaveLength(1);
  });

  it('says in the email the one reminder that will come (CONFIRMATION_REMINDER_DAYS), as the reminders then do', async () => {
    const smtp = await sink();
    const { app } = await start(smtp);
    await signUp(app, 'reminded@example.com', '+15550000001');
    const mail = await smtp.waitFor(to('reminded@example.com'), 10_000);
    const text = (mail.parsed.text ?? '').replace(/\s+/g, ' ');
    expect(text).toContain('If it is not opened, we will send you one reminder in 7 days, and we will delete');
    expect(text).not.toContain('we will not write to you again');
  });

  it('fails the confirmation of an address that does not exist, and marks it undeliverable; the others go', async () => {
    const smtp = await sink();
    let triedGone = 0;
    smtp.answerFor((address, stage) => {
      if (address !== 'gone@example.com' || stage !== 'rcpt') return undefined;
      triedGone += 1;
      return { code: 550, message: '5.1.1 <gone@example.com>: Recipient address rejected: User unknown' };
    });
    const { app, db, messaging, lines } = await start(smtp);
    await signUp(app, 'gone@example.com', '+15550000001');
    await signUp(app, 'ana@example.com', '+15550000002');
    await signUp(app, 'ben@example.com', '+15550000003');
    await smtp.waitFor(to('ana@example.com'), 10_000);
    await smtp.waitFor(to('ben@example.com'), 10_000);

    const gone = await subscriberOf(db, 'gone@example.com');
    await expect
      .poll(async () => (await db.consentEvents.history(gone.id)).map((event) => event.kind))
      .toEqual(['signed_up', 'email_undeliverable']);
    expect(await messaging.subscriptions.mayContact(gone, 'email')).toBe(false);
    const ana = await subscriberOf(db, 'ana@example.com');
    expect(await messaging.subscriptions.mayContact(ana, 'email')).toBe(true);

    await pause(500); // well past several retry delays
    expect(triedGone).toBe(1);
    const warnings = lines.filter((line) => line.level === WARN);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toContain('The mail server says this address does not exist (550 5.1.1).');
    expect(JSON.stringify(lines)).not.toContain('gone@example.com');
    expect(lines.filter((line) => line.level === ERROR)).toEqual([]);
  });
});
