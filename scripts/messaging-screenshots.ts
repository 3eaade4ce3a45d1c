// Part of `npm run screenshots`: the confirmation email and the pages its links open, and the email
// a repeat sign-up with another phone number sends with its page, the emailed button and its page, at phone and desktop widths, for
// docs/messaging.md. The emails arrive through a real SMTP server on loopback.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startSmtpSink } from '../src/server/test/smtp-sink';
import { startBuiltServer } from './built-server.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';

const port = 4391;
const sink = await startSmtpSink();
const { base, stop } = await startBuiltServer(port, {
  SITE_URL: `http://127.0.0.1:${port}`,
  SECRET_KEY: 'screenshots-secret-key-that-is-long-enough',
  SMTP_URL: sink.url,
  MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
  MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
});
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const signup = await fetch(`${base}/api/signups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Pat Doe', phone: '+15551234567', email: 'pat@example.com', openedForMs: 5000 }),
  });
  if (signup.status !== 201) throw new Error(`The sign-up was answered ${signup.status}.`);
  const mail = await sink.waitFor((received) => received.envelope.to.includes('pat@example.com'));
  const text = mail.parsed.text ?? '';
  const link = (kind: string) => text.match(new RegExp(`${base}/${kind}/[A-Za-z0-9_-]+`))?.[0] ?? '';
  const emailFile = path.join(tmpdir(), 'scamsavvy-confirmation-email.html');
  writeFileSync(emailFile, typeof mail.parsed.html === 'string' ? mail.parsed.html : '');
  // The same email again with another number: the address on record is asked first.
  const repeat = await fetch(`${base}/api/signups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Pat Doe', phone: '+15559870199', email: 'pat@example.com', openedForMs: 5000 }),
  });
  if (repeat.status !== 201) throw new Error(`The repeat sign-up was answered ${repeat.status}.`);
  const asked = await sink.waitFor((received) => /phone number/.test(received.parsed.subject ?? ''));
  const phoneChangeLink = (asked.parsed.text ?? '').match(new RegExp(`${base}/change-phone/[A-Za-z0-9_-]+`))?.[0] ?? '';
  const phoneEmailFile = path.join(tmpdir(), 'scamsavvy-phone-change-email.html');
  writeFileSync(phoneEmailFile, typeof asked.parsed.html === 'string' ? asked.parsed.html : '');

  for (const [name, width, height] of [
    ['phone-390', 390, 844],
    ['desktop-1280', 1280, 900],
  ] as const) {
    const page = await browser.newPage({ viewport: { width, height } });
    const shot = (file: string) => page.screenshot({ path: `docs/screenshots/${file}-${name}.png`, fullPage: true });
    await page.goto(`file://${emailFile}`);
    await shot('confirmation-email');
    await page.goto(link('confirm'));
    await shot('confirm-page');
    await page.goto(link('preferences'));
    await page.getByRole('checkbox', { name: /text/i }).uncheck();
    await page.getByRole('button', { name: 'Save my choices' }).click();
    await page.getByRole('status').waitFor();
    await shot('preferences-saved');
    // Ticking texts again: turning on goes by a button emailed at that moment (issue 54, decision 050).
    const buttonsBefore = sink.messages().filter((received) => /\/button\//.test(received.parsed.text ?? '')).length;
    await page.getByRole('checkbox', { name: /text/i }).check();
    await page.getByRole('button', { name: 'Save my choices' }).click();
    await page.getByRole('status').waitFor();
    await shot('preferences-button-sent');
    await sink.waitFor(
      () => sink.messages().filter((received) => /\/button\//.test(received.parsed.text ?? '')).length > buttonsBefore,
    );
    const buttonMail = sink
      .messages()
      .filter((received) => /\/button\//.test(received.parsed.text ?? ''))
      .at(-1)!;
    const buttonEmailFile = path.join(tmpdir(), 'scamsavvy-button-email.html');
    writeFileSync(buttonEmailFile, typeof buttonMail.parsed.html === 'string' ? buttonMail.parsed.html : '');
    await page.goto(`file://${buttonEmailFile}`);
    await shot('button-email');
    await page.goto((buttonMail.parsed.text ?? '').match(new RegExp(`${base}/button/\\S+`))?.[0] ?? '');
    await shot('button-page');
    await page.goto(link('preferences'));
    // A new number typed on their own page: asked about by email first (decision 041).
    await page.getByLabel('New mobile phone number').fill('+1 555 987 0199');
    await page.getByRole('button', { name: 'Save my details' }).click();
    await page.getByRole('status').waitFor();
    await shot('preferences-phone-asked');
    await page.goto(`file://${phoneEmailFile}`);
    await shot('phone-change-email');
    await page.goto(phoneChangeLink);
    await shot('phone-change-page');
    await page.close();
    console.log(
      `docs/screenshots/{confirmation-email,confirm-page,preferences-saved,preferences-button-sent,button-email,button-page,preferences-phone-asked,phone-change-email,phone-change-page}-${name}.png`,
    );
  }
} finally {
  await browser.close();
  await stop();
  await sink.stop();
}
