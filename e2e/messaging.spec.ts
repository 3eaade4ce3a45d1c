// Messaging in real Chromium against the real built server: a real SMTP server on loopback receives
// the confirmation email, a local stand-in answers for Twilio's API, and the pages its links open are
// used as a person would (and as a mail scanner would).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { distinctEnds } from '../src/server/messaging/phone';
import { twilioSignature } from '../src/server/messaging/twilio-sms-provider';
import { startSmtpSink, type SmtpSink } from '../src/server/test/smtp-sink';
import { startTwilioStandIn, type TwilioStandIn } from '../src/server/test/twilio-stand-in';
import { shareLinks, shareWordsIn } from '../src/shared/share-content';

const shareWords = shareWordsIn.en;
import { MIN_FORM_TIME_MS, type SignupRecord } from '../src/shared/signup-schema';
import { expect, test } from './fixtures';
import { expectLabelsInNames, expectNoHorizontalOverflow, expectNoViolations } from './support/a11y';
import { startBuiltServer, type RunningServer } from '../scripts/built-server.mjs';
import { randomUUID } from 'node:crypto';

const ACCOUNT_SID = `AC${'1'.repeat(32)}`;
const AUTH_TOKEN = 'f'.repeat(32);
const SUBJECT = 'Please confirm you want launch news from ScamSavvy';
const CONFIRM_BUTTON = 'Yes, keep me on the list';
const POSTAL_ADDRESS = '100 Example Street, Springfield, IL 62701';

let server: RunningServer;
let sink: SmtpSink;
let twilio: TwilioStandIn;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-messaging-'));
  sink = await startSmtpSink();
  twilio = await startTwilioStandIn({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  const port = 4400 + test.info().workerIndex;
  server = await startBuiltServer(port, {
    DATABASE_URL: `sqlite:${path.join(dataDir, 'signups.db')}`,
    SITE_URL: `http://127.0.0.1:${port}`,
    SECRET_KEY: 'e2e-secret-key-that-is-long-enough-1234',
    SMTP_URL: sink.url,
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
    MAIL_POSTAL_ADDRESS: POSTAL_ADDRESS,
    UNCONFIRMED_RETENTION_DAYS: '14',
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_FROM: '+15550001111',
    TWILIO_API_BASE_URL: twilio.baseUrl,
    SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
    SIGNUP_RATE_LIMIT_PER_HOUR: '0',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await sink?.stop();
  await twilio?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The owner's documented export, against this server's database. */
async function exported(email: string): Promise<SignupRecord[]> {
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'signups:export', '--', '--format', 'json'], {
    env: { ...process.env, DATABASE_URL: `sqlite:${path.join(dataDir, 'signups.db')}` },
  });
  return (JSON.parse(stdout) as SignupRecord[]).filter((record) => record.email === email);
}

/** A phone held upright, and a 1280 × 900 window at 200% zoom (640 × 450 CSS pixels). */
const SMALL_SCREENS = [
  ['320 px wide', 320, 640],
  ['200% zoom', 640, 450],
] as const;

const unique = (label: string) => `${label}.${randomUUID()}@example.com`;
const uniquePhone = () => `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/** A sign-up through the API, as the page sends it. */
async function signUpByApi(email: string, phone = uniquePhone()) {
  const response = await fetch(`${server.url}/api/signups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rosa Díaz', phone, email, betaTesting: false, openedForMs: 5000 }),
  });
  expect(response.status).toBe(201);
  return phone;
}

/** The confirmation email to this address, with its links. */
async function confirmationFor(email: string) {
  const mail = await sink.waitFor((received) => received.envelope.to.includes(email), 15_000);
  const text = mail.parsed.text ?? '';
  const html = typeof mail.parsed.html === 'string' ? mail.parsed.html : '';
  const link = (kind: string) => {
    const found = text.match(new RegExp(`${server.url}/${kind}/[A-Za-z0-9_-]+`));
    if (!found) throw new Error(`No ${kind} link in the email:\n${text}`);
    return found[0];
  };
  return {
    mail,
    text,
    html,
    confirm: link('confirm'),
    preferences: link('preferences'),
    unsubscribe: link('unsubscribe'),
  };
}

/** The newest button emailed to this address (issue 54): turning on, coming back and deleting go by one. */
async function emailedButtonFor(email: string) {
  const found = await sink.waitFor(
    (received) => received.envelope.to.includes(email) && (received.parsed.text ?? '').includes('/button/'),
    15_000,
  );
  const url = (found.parsed.text ?? '').match(new RegExp(`${server.url}/button/\\S+`))?.[0];
  if (!url) throw new Error(`No button in the email:\n${found.parsed.text}`);
  return { mail: found, url };
}

async function preferencesState(page: Page, url: string) {
  await page.goto(url);
  return {
    email: await page.getByRole('checkbox', { name: /email/i }).isChecked(),
    sms: await page.getByRole('checkbox', { name: /text/i }).isChecked(),
    beta: await page.getByRole('checkbox', { name: /beta/i }).isChecked(),
  };
}

test('a visitor signs up, confirms from a real email, turns texts off, deletes their details, and nothing reaches them after', async ({
  page,
  console: consoleWatch,
}) => {
  // Eight pages, each checked by axe: more than the default 30 s beside the other specs on 2 cores.
  test.setTimeout(180_000); // 75 s of 90 in a CI run on a slow day: the guard is twice that
  // Their old link finds nothing once they are deleted: a 404 page, which the browser notes.
  consoleWatch.expectError(/404/);
  const email = unique('journey');
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
  await page.getByLabel('Your Name').fill('Rosa Díaz');
  await page.getByLabel('Phone Number').fill('555 123 4567');
  await page.getByLabel('Email Address').fill(email);
  await page.waitForTimeout(MIN_FORM_TIME_MS);
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeFocused();
  // Confirmation is on: it says plainly what keeps them on the list, and what happens without it
  // (the one reminder comes in 7 days, CONFIRMATION_REMINDER_DAYS's default below 14).
  await expect(page.getByRole('status')).toContainText(
    'Pressing the button in it is what keeps you on the list. If you do not press it, we will send you one reminder in 7 days and delete your details after 14 days. Nothing more comes unless this form is used with your email again.',
  );
  await expectNoViolations(page, 'the success view with confirmation on');

  const { mail, text, html, confirm, preferences } = await confirmationFor(email);
  expect(mail.parsed.subject).toBe(SUBJECT);
  const headers = mail.raw.replace(/\r?\n[ \t]+/g, ' '); // long header lines are folded
  expect(headers).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/unsubscribe\/[A-Za-z0-9_-]+>/m);
  expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  expect(headers).toMatch(/^List-Id: /im);
  // Nothing the visitor typed comes back in a message sent before they confirmed.
  expect(`${text}${html}`).not.toContain('Rosa');

  await page.goto(confirm);
  await expect(page.getByRole('button', { name: CONFIRM_BUTTON })).toBeVisible();
  await expectNoViolations(page, 'confirm page');
  await expectLabelsInNames(page, 'confirm page');
  await page.getByRole('button', { name: CONFIRM_BUTTON }).click();
  await expect(page.getByRole('main')).toContainText(/confirmed/i);
  await expectNoViolations(page, 'confirm page, confirmed');

  await page.goto(preferences);
  await expect(page.getByRole('main')).not.toContainText('Rosa');
  await expectNoViolations(page, 'preferences page');
  await expectLabelsInNames(page, 'preferences page');
  await page.getByRole('checkbox', { name: /text/i }).uncheck();
  await page.getByRole('button', { name: 'Save my choices' }).click();
  await expect(page.getByRole('status')).toContainText(/saved/i);
  await expectNoViolations(page, 'preferences page, saved');
  expect(await preferencesState(page, preferences)).toEqual({ email: true, sms: false, beta: false });
  const [record] = await exported(email);
  expect(record?.confirmedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  expect(record?.smsOptOutAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  expect(record?.emailOptOutAt).toBeNull();

  await page.getByRole('button', { name: 'Delete my details' }).click();
  await expectNoViolations(page, 'delete question');
  // Deleting goes by a button emailed to them at that moment (issue 54): the page says so.
  await page.getByRole('button', { name: 'Yes, email me the button' }).click();
  await expect(page.getByRole('status')).toContainText('We have emailed');
  expect(await exported(email)).toHaveLength(1);
  const button = await emailedButtonFor(email);
  expect(button.mail.parsed.subject).toBe('Delete your details from ScamSavvy?');
  await page.goto(button.url);
  await expectNoViolations(page, 'the emailed delete button');
  await page.getByRole('button', { name: 'Yes, delete my details' }).click();
  await expect(page.getByRole('main')).toContainText(/deleted/i);
  await expectNoViolations(page, 'deleted');

  // Gone: their own links find nothing, one-click unsubscribe has no one to act on, and the owner's
  // export no longer has them.
  await page.goto(preferences);
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  const oneClick = await fetch(confirm.replace('/confirm/', '/unsubscribe/'), { method: 'POST' });
  expect(oneClick.status).toBe(404);
  expect(await exported(email)).toEqual([]);
  // No later email was sent to them: the confirmation, and the button they asked for.
  expect(sink.messages().filter((received) => received.envelope.to.includes(email))).toHaveLength(2);
});

test('a mail scanner that opens every link in the email changes nothing', async ({ page }) => {
  const email = unique('scanner');
  await signUpByApi(email);
  const { text, html, confirm, preferences } = await confirmationFor(email);
  const links = new Set([
    ...[...html.matchAll(/href="([^"]+)"/g)].map((match) => (match[1] ?? '').replace(/&amp;/g, '&')),
    ...(text.match(/https?:\/\/\S+/g) ?? []),
  ]);
  expect(links.size).toBeGreaterThanOrEqual(3);
  for (const link of links) {
    expect(link.startsWith(server.url), `only our own links: ${link}`).toBe(true);
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(link, { method });
      expect(response.status, `${method} ${link}`).toBeLessThan(400);
    }
  }
  // Still unconfirmed, still getting everything.
  await page.goto(confirm);
  await expect(page.getByRole('button', { name: CONFIRM_BUTTON })).toBeVisible();
  expect(await preferencesState(page, preferences)).toEqual({ email: true, sms: true, beta: false });
});

test('the confirm and preferences pages work with the keyboard alone', async ({ page }) => {
  const email = unique('keyboard');
  await signUpByApi(email);
  const { confirm, preferences } = await confirmationFor(email);
  await page.goto(confirm);
  const focusedName = () => page.evaluate(() => (document.activeElement as HTMLElement).innerText.trim());
  for (let step = 0; step < 10 && (await focusedName()) !== CONFIRM_BUTTON; step += 1) await page.keyboard.press('Tab');
  expect(await focusedName()).toBe(CONFIRM_BUTTON);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toContainText(/confirmed/i);

  await page.goto(preferences);
  const textBox = page.getByRole('checkbox', { name: /text/i });
  for (let step = 0; step < 15 && !(await textBox.evaluate((box) => box === document.activeElement)); step += 1)
    await page.keyboard.press('Tab');
  await expect(textBox).toBeFocused();
  await page.keyboard.press('Space');
  await expect(textBox).not.toBeChecked();
  for (let step = 0; step < 10 && (await focusedName()) !== 'Save my choices'; step += 1)
    await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toContainText(/saved/i);
  expect(await preferencesState(page, preferences)).toMatchObject({ sms: false, email: true });
});

for (const [label, width, height] of SMALL_SCREENS) {
  test(`the pages behind the links fit ${label} with no sideways scrolling`, async ({ page }) => {
    const email = unique('zoom');
    await signUpByApi(email);
    const { confirm, preferences, unsubscribe } = await confirmationFor(email);
    await page.setViewportSize({ width, height });
    for (const [name, url] of [
      ['confirm', confirm],
      ['preferences', preferences],
      ['unsubscribe', unsubscribe],
    ] as const) {
      await page.goto(url);
      await expectNoHorizontalOverflow(page, `${label}: ${name} page`);
    }
    await page.goto(preferences);
    await page.getByRole('button', { name: 'Delete my details' }).click();
    await expectNoHorizontalOverflow(page, `${label}: delete question`);
  });
}

test("the confirmation email and the preferences page offer the person's own link to pass on; the pages take every text size", async ({
  page,
  context,
}) => {
  const email = unique('family');
  await signUpByApi(email);
  const { text, html, confirm, preferences, unsubscribe } = await confirmationFor(email);
  const [record] = await exported(email);
  const shareUrl = `${server.url}/?ref=${record?.referralCode ?? ''}`;
  expect(record?.referralCode).toMatch(/^[0-9a-z]{12}$/);
  expect(text).toContain(`${shareWords.prompt} Send them this link to our page:\n\n${shareUrl}\n`);
  expect(html).toContain(`href="${shareUrl}"`);

  // The preferences page: the panel, with the phone's share sheet where there is one (none in this browser).
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.goto(preferences);
  await page.getByRole('button', { name: shareWords.button }).click();
  await expect(page.getByRole('link', { name: shareWords.sms })).toHaveAttribute(
    'href',
    shareLinks(shareUrl, shareWords).sms,
  );
  await page.getByRole('button', { name: shareWords.copy }).click();
  await expect(page.getByRole('status').filter({ hasText: shareWords.copied })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);

  // Each page behind the links, at the largest text size on a 320 px screen: nothing sideways, axe finds nothing.
  await page.setViewportSize({ width: 320, height: 640 });
  await page
    .getByRole('group', { name: 'Text size' })
    .getByRole('button', { name: 'A++ Largest', exact: true })
    .click();
  for (const [name, url] of [
    ['confirm', confirm],
    ['preferences', preferences],
    ['unsubscribe', unsubscribe],
  ] as const) {
    await page.goto(url);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize), name).toBe('32px');
    await expect(
      page.getByRole('group', { name: 'Text size' }).getByRole('button', { name: 'A++ Largest', exact: true }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expectNoHorizontalOverflow(page, `${name} page at Largest, 320 px`);
    await expectNoViolations(page, `${name} page at Largest, 320 px`);
  }
});

test('the unsubscribe link: opening it changes nothing, its button and a one-click POST stop email', async ({
  page,
}) => {
  const email = unique('unsubscribe');
  await signUpByApi(email);
  const { unsubscribe, preferences } = await confirmationFor(email);
  await page.goto(unsubscribe);
  await expectNoViolations(page, 'unsubscribe page');
  expect(await preferencesState(page, preferences)).toMatchObject({ email: true });
  await page.goto(unsubscribe);
  await page.getByRole('button', { name: 'Stop emails' }).click();
  await expect(page.getByRole('main')).toContainText(/no more emails/i);
  await expectNoViolations(page, 'unsubscribed');
  expect(await preferencesState(page, preferences)).toMatchObject({ email: false, sms: true });

  // What a mail app's "Unsubscribe" button sends (RFC 8058), for another person.
  const other = unique('one-click');
  await signUpByApi(other);
  const links = await confirmationFor(other);
  const response = await fetch(links.unsubscribe, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(response.status).toBe(200);
  expect(await preferencesState(page, links.preferences)).toMatchObject({ email: false });
});

test('a STOP text stops texts to that number; a forged one is refused; HELP answers', async ({ page }) => {
  const email = unique('stop');
  const phone = await signUpByApi(email);
  const { preferences } = await confirmationFor(email);
  const url = `${server.url}/api/sms/inbound`;
  let texts = 0;
  const inbound = (body: string, signature?: string) => {
    texts += 1;
    const params = {
      // Each text its own id: a text seen twice is acted on once (decision 041).
      MessageSid: `SM${String(texts).padStart(32, '2')}`,
      AccountSid: ACCOUNT_SID,
      From: phone,
      To: '+15550001111',
      Body: body,
    };
    return fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature ?? twilioSignature(AUTH_TOKEN, url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
  };

  const forged = await inbound(' stop ', twilioSignature('0'.repeat(32), url, { Body: 'stop' }));
  expect(forged.status).toBe(403);
  expect(await preferencesState(page, preferences)).toMatchObject({ sms: true });

  const stop = await inbound(' Stop ');
  expect(stop.status).toBe(200);
  expect(await preferencesState(page, preferences)).toMatchObject({ sms: false, email: true });
  await twilio.waitFor((sent) => sent.to === phone && /no more texts/i.test(sent.body), 10_000);

  const help = await inbound('HELP');
  expect(help.status).toBe(200);
  const answer = await twilio.waitFor(
    (sent) => sent.to === phone && /STOP/.test(sent.body) && /hello@scamsavvy\.example/.test(sent.body),
    10_000,
  );
  // One text of words, then who sends and where on a line of its own, as every email's footer says it.
  const [words, sender] = answer.body.split('\n');
  expect(words!.length).toBeLessThanOrEqual(160);
  expect(sender).toBe(`ScamSavvy, ${POSTAL_ADDRESS}`);

  await inbound('START');
  await expect.poll(async () => (await preferencesState(page, preferences)).sms).toBe(true);
});

test('leaving the list, and a link that does not work: both say so plainly, with no axe violations', async ({
  page,
  console: consoleWatch,
}) => {
  consoleWatch.expectError(/404/);
  const email = unique('leave');
  await signUpByApi(email);
  const { preferences } = await confirmationFor(email);
  await page.goto(preferences);
  await page.getByRole('button', { name: 'Leave the list' }).click();
  await expect(page.getByRole('status')).toContainText('You have left the list');
  await expectNoViolations(page, 'left the list');
  expect(await preferencesState(page, preferences)).toEqual({ email: false, sms: false, beta: false });

  const broken = await page.goto(`${preferences.slice(0, -3)}AAA`);
  expect(broken?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  await expectNoViolations(page, 'a link that does not work');
});

test('the privacy notice states the settings: the days before unconfirmed details go, how long backups keep them, and who sends from where', async ({
  page,
}) => {
  await page.goto(server.url);
  await page.getByText('Privacy notice: what we collect and why').click();
  const notice = page.locator('#privacy-notice');
  await expect(notice).toContainText(
    'If we ask you to confirm by email and you do not, we delete your details after 14 days.',
  );
  // BACKUP_KEEP (14) backups, one every BACKUP_EVERY_HOURS (24): a deleted person is in none after 14 days.
  await expect(notice).toContainText(
    'Safety copies of the list (backups) keep them until those copies are replaced by newer ones, at most 14 days later.',
  );
  await expect(notice).toContainText(`ScamSavvy, ${POSTAL_ADDRESS}`);
  await expect(notice).not.toContainText('{{');
  // The page was hydrated without a mismatch: the fixture fails the test on any console error.
});

/**
 * A confirmed person signs up again with another number: the email that asks the address on record,
 * with its link and the number's ending as shown.
 */
async function askToChangePhone(email: string) {
  const first = await signUpByApi(email);
  const { preferences } = await confirmationFor(email);
  const right = `+1555987${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`;
  await signUpByApi(email, right);
  const asked = await sink.waitFor(
    (received) =>
      received.envelope.to.includes(email) && /change your phone number/.test(received.parsed.subject ?? ''),
    15_000,
  );
  const html = typeof asked.parsed.html === 'string' ? asked.parsed.html : '';
  const link = (asked.parsed.text ?? '').match(new RegExp(`${server.url}/change-phone/[A-Za-z0-9_-]+`))?.[0] ?? '';
  expect(link).not.toBe('');
  return { first, right, html, link, preferences, asIn: distinctEnds(right, first).next };
}

/** On a person's own page: a wrong number is shown again with what is wrong, beside the field. */
async function saveAWrongNumber(page: Page) {
  await page.getByLabel('New mobile phone number').fill('555-CALL-NOW');
  await page.getByRole('button', { name: 'Save my details' }).click();
  await expect(page.getByRole('alert')).toContainText('Please check your details. Nothing was changed.');
  await expect(page.getByLabel('New mobile phone number')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('New mobile phone number')).toHaveValue('555-CALL-NOW');
}

test('a mistyped phone number: a repeat sign-up asks the address on record, its button changes the number, and the person\u2019s page fixes it too', async ({
  page,
  console: consoleWatch,
}) => {
  test.setTimeout(180_000); // two emails, five pages, three exports: 53 s in a CI run on a slow day
  consoleWatch.expectError(/400/); // the details form with a wrong number is answered 400, as it should be
  const email = unique('phone');
  const { first, right, html, link, asIn } = await askToChangePhone(email); // more digits only if the two end alike
  expect(html).toContain(
    `Someone asked to change your phone number to \u2022\u2022\u2022\u2022 ${asIn}. Press the button to change it.`,
  );
  expect(html).toContain(`ScamSavvy, ${POSTAL_ADDRESS}`);

  // Opening it (a mail scanner does) changes nothing.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Change your phone number?' })).toBeVisible();
  expect((await exported(email))[0]?.phone).toBe(first);

  await page.getByRole('button', { name: 'Change my phone number' }).click();
  await expect(page.getByRole('status')).toContainText(`Done. Your phone number now ends ${right.slice(-4)}.`);
  // A new number is unproven (decision 041): no launch text until it replies YES to its joining text.
  await expect(page.getByRole('status')).toContainText(
    'We will not send texts to this number. The note by the text box below says why.',
  );
  await expect(page.getByText('Reply YES to that text to get a text when the app launches.')).toBeVisible();
  await expectNoViolations(page, 'the number changed');
  expect((await exported(email))[0]?.phone).toBe(right);
  const preferences = page.url().replace(/\?.*$/, '');

  // Their own page: a wrong number is shown again with what is wrong, beside the field, and nothing changes.
  await page.goto(preferences);
  await saveAWrongNumber(page);
  expect((await exported(email))[0]?.phone).toBe(right);

  // A new number typed here is asked about by email first (the link may have been passed on); the name is saved.
  await page.getByLabel('New mobile phone number').fill(first);
  await page.getByLabel('New name').fill('Rosa M. D\u00edaz');
  await page.getByRole('button', { name: 'Save my details' }).click();
  const back = distinctEnds(first, right).next;
  await expect(page.getByRole('status')).toContainText('Saved your name.');
  await expect(page.getByRole('status')).toContainText(
    `Press the button in it to change your phone number to the one ending ${back}.`,
  );
  await expectNoViolations(page, 'details saved, the number asked about');
  expect((await exported(email))[0]).toMatchObject({ phone: right, name: 'Rosa M. D\u00edaz' });
  const again = await sink.waitFor(
    (received) =>
      received.envelope.to.includes(email) &&
      /change your phone number/.test(received.parsed.subject ?? '') &&
      !(received.parsed.text ?? '').includes(link),
    15_000,
  );
  const button = (again.parsed.text ?? '').match(new RegExp(`${server.url}/change-phone/[A-Za-z0-9_-]+`))?.[0] ?? '';
  await page.goto(button);
  await page.getByRole('button', { name: 'Change my phone number' }).click();
  await expect(page.getByRole('status')).toContainText(`Done. Your phone number now ends ${back}.`);
  expect((await exported(email))[0]).toMatchObject({ phone: first, name: 'Rosa M. D\u00edaz' });
});

// The pages of a phone change and of a person's own details, one state at one size a test.
for (const [label, width, height] of SMALL_SCREENS) {
  test(`the phone change page, opened from its email, fits ${label} and passes axe, and opening it changes nothing`, async ({
    page,
  }) => {
    const email = unique('phone-page');
    const { first, link } = await askToChangePhone(email);
    await page.setViewportSize({ width, height });
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Change your phone number?' })).toBeVisible();
    await expectNoHorizontalOverflow(page, `${label}: the phone change page`);
    await expectNoViolations(page, `${label}: the phone change page`);
    expect((await exported(email))[0]?.phone).toBe(first);
  });

  test(`the details form with a wrong number fits ${label} and passes axe, and nothing changes`, async ({
    page,
    console: consoleWatch,
  }) => {
    consoleWatch.expectError(/400/); // the details form with a wrong number is answered 400, as it should be
    const email = unique('details');
    const first = await signUpByApi(email);
    const { preferences } = await confirmationFor(email);
    await page.setViewportSize({ width, height });
    await page.goto(preferences);
    await saveAWrongNumber(page);
    await expectNoHorizontalOverflow(page, `${label}: the details form with a problem`);
    await expectNoViolations(page, `${label}: the details form with a problem`);
    expect((await exported(email))[0]?.phone).toBe(first);
  });

  test(`after leaving, the person's page fits ${label} and passes axe`, async ({ page }) => {
    const email = unique('left');
    await signUpByApi(email);
    const { preferences } = await confirmationFor(email);
    await page.goto(preferences);
    await page.getByRole('button', { name: 'Leave the list' }).click();
    await expect(page.getByRole('status')).toContainText('You have left the list');
    await page.setViewportSize({ width, height });
    await page.goto(preferences);
    await expect(page.getByRole('button', { name: 'Save my choices' })).toBeVisible();
    await expectNoHorizontalOverflow(page, `${label}: after leaving`);
    await expectNoViolations(page, `${label}: after leaving`);
  });
}

test('coming back after leaving: ticking boxes and saving says what will really be sent, with no STOP that never happened', async ({
  page,
}) => {
  const email = unique('comeback');
  await signUpByApi(email);
  const { preferences } = await confirmationFor(email);
  await page.goto(preferences);
  await page.getByRole('button', { name: 'Leave the list' }).click();
  await expect(page.getByRole('status')).toContainText('You have left the list');
  await page.goto(preferences);
  await page.getByRole('checkbox', { name: /email/i }).check();
  await page.getByRole('checkbox', { name: /text/i }).check();
  await page.getByRole('button', { name: 'Save my choices' }).click();
  // Coming back goes by a button emailed to them (issue 54): nothing is on until it is pressed.
  await expect(page.getByRole('status')).toContainText('We have emailed');
  expect((await exported(email))[0]?.leftAt).not.toBeNull();
  await page.goto((await emailedButtonFor(email)).url);
  await page.getByRole('button', { name: 'Yes, turn it on' }).click();
  // Texts wait for the number's YES to its joining text (decision 041): the page says so, and no more.
  await expect(page.getByRole('status')).toHaveText('Saved. We will send you an email when the app launches.');
  await expect(page.getByText('Reply YES to that text to get a text when the app launches.')).toBeVisible();
  await expect(page.getByText('replied STOP')).toHaveCount(0);
  await expectNoViolations(page, 'back on the list');
  // What the page said is what the record now holds: on the list, email and texts on, confirmed by the emailed link.
  const [record] = await exported(email);
  expect(record).toMatchObject({ leftAt: null, emailOptOutAt: null, smsOptOutAt: null });
  expect(record?.confirmedAt).not.toBeNull();
  expect(await preferencesState(page, preferences)).toMatchObject({ email: true, sms: true });
});
