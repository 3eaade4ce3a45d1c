// Part of `npm run screenshots`: the owner's dashboard with a month of made-up sign-ups, at phone and
// desktop widths, for docs/owner-guide.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import type { AnalyticsEvent } from '../src/shared/analytics-events';
import { SIGN_IN_LINK_LIFETIME_MS } from '../src/server/owner/owner-auth';
import { newSecret, secretHash } from '../src/server/secrets';
import { openDatabase } from '../src/server/db/open-database';
import { compose } from '../src/server/compose';
import { loadConfig } from '../src/server/config';
import { startBuiltServer } from './built-server.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';

const port = 4392;
const SECRET_KEY = 'screenshots-only-secret-key-0123456789abcdef';
const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-owner-shots-'));
const file = path.join(dir, 'signups.db');
const DAY = 86_400_000;
/** The server's settings, and the script's own parts built from them as the server builds its own. */
const SETTINGS = {
  DATABASE_URL: `sqlite:${file}`,
  SITE_URL: `http://127.0.0.1:${port}`,
  // Launch day's pages need messaging set up; nothing is sent while the screenshots are taken.
  SECRET_KEY,
  SMTP_URL: 'smtp://127.0.0.1:9',
  MAIL_FROM: 'ScamSavvy <news@scamsavvy.example>',
  MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
  EMAIL_CONFIRMATION: 'off',
};
const SOURCES = [
  { utmSource: 'newsletter', utmCampaign: 'spring' },
  { utmSource: 'facebook', utmCampaign: 'family-week' },
  { referrer: 'https://www.aarp.org/scams' },
  undefined,
];

// A month of sign-ups, more each week, and the page's funnel beside them.
let now = new Date(Date.now() - 30 * DAY);
const store = await openDatabase({ kind: 'sqlite', file: file }, { now: () => now });
let person = 0;
for (let day = 0; day < 30; day += 1) {
  const count = 2 + Math.round(day * 0.6 + 3 * Math.sin(day));
  for (let index = 0; index < count; index += 1) {
    now = new Date(Date.now() - (29 - day) * DAY + index * 60_000 - 6 * 3_600_000);
    person += 1;
    await store.signups.add({
      name: person === 1 ? 'Rosa Díaz' : `Person ${person}`,
      phone: `+1555${String(1_000_000 + person).slice(1)}`,
      email: person === 1 ? 'rosa.diaz@example.com' : `person${person}@example.com`,
      betaTesting: person % 4 === 0,
      attribution: SOURCES[person % SOURCES.length],
    });
  }
  const at = new Date(Date.now() - (29 - day) * DAY - 6 * 3_600_000);
  const view: AnalyticsEvent = { name: 'page_view', params: { page_name: 'home' } };
  const open: AnalyticsEvent = { name: 'sign_up_start', params: { page_name: 'home', method: 'modal' } };
  const signedUp: AnalyticsEvent = {
    name: 'sign_up',
    params: { page_name: 'home', method: 'modal', beta_testing: false },
  };
  await store.events.record(
    [
      ...Array.from({ length: count * 9 }, () => view),
      ...Array.from({ length: count * 2 }, () => open),
      ...Array.from({ length: count }, () => signedUp),
    ],
    at,
  );
}
now = new Date();
// Launch day, paused by a refused sign-in after some went out, some failed by no fault of theirs.
const launch = await store.broadcasts.create({
  name: 'launch',
  template: 'launch',
  segment: 'all',
  channels: ['email'],
  confirmation: 'everyone',
  content: { subject: 'ScamSavvy is here', text: 'Hello', html: '<p>Hello</p>', sms: 'Hello' },
});
if (launch) {
  const everyone = await store.broadcastRecipients.recipientsAfter(null, 10_000);
  await store.outbox.enqueue(
    launch.id,
    everyone.map((one) => ({ signupId: one.id, channel: 'email' as const })),
  );
  await store.broadcasts.setState(launch.id, 'sending', ['ready']);
  const claimed = await store.outbox.claim({ broadcastId: launch.id, channel: 'email' }, 'screenshots', 200);
  await store.outbox.record(
    'screenshots',
    claimed.map((message, index) =>
      index === 0
        ? { id: message.id, result: 'permanent' as const, kind: 'recipient' as const, error: '550 5.1.1 No such user' }
        : index === 4
          ? {
              id: message.id,
              result: 'temporary' as const,
              kind: 'sender' as const,
              error:
                'held: Message failed: 550 5.7.1 Delivery not authorized, message refused by this recipient’s server',
              retryAt: null,
            }
          : index < 4
            ? {
                id: message.id,
                result: 'temporary' as const,
                kind: 'message' as const,
                error: 'gave up after 6 attempts: 421 4.7.0 Try again later',
                retryAt: null,
              }
            : { id: message.id, result: 'sent' as const, providerId: `id-${index}` },
    ),
  );
  await store.broadcastPauses.pauseChannel(launch.id, 'email', {
    cause: 'sender',
    reason:
      'The mail server refused our sign-in (535 5.7.8): check the user name and password in SMTP_URL, then resume.',
    answer: 'Invalid login: 535 5.7.8 Authentication credentials invalid',
  });
  await store.broadcasts.setState(launch.id, 'paused', ['sending']);
}
// The suppression list: two bounces (one a DMARC refusal an older release read as the person's), a
// complaint and a STOP.
const { subscriptions } = compose(loadConfig(SETTINGS), store).messaging;
const listed = await store.broadcastRecipients.recipientsAfter(null, 20);
for (const [index, reason] of (['bounced', 'bounced', 'complained', 'sms_stop'] as const).entries()) {
  const one = listed[index + 5];
  if (!one) continue;
  const phone = reason === 'sms_stop';
  await store.optOuts.suppressByReport(
    one.id,
    {
      kind: phone ? 'phone' : 'email',
      hash: (phone ? subscriptions.phoneHash(one.phone) : subscriptions.emailHash(one.email)) ?? '',
      reason,
      source: 'provider_report',
    },
    phone ? 'sms_off' : reason === 'complained' ? 'email_complained' : 'email_bounced',
  );
}
// Two receiving servers' DMARC reports: our email failed their checks (the overview says so and what to do).
for (const [index, detail] of ['scamsavvy.example', 'scamsavvy.example'].entries()) {
  const token = `authfailure${String(index).padStart(19, '0')}`;
  await store.sentMessages.sending([
    { token, channel: 'email', purpose: 'broadcast', signupId: null, addressHash: `auth${index}` },
  ]);
  await store.feedbackEvents.store({
    source: 'imap',
    eventId: `auth-failure-${index}`,
    kind: 'auth_failure',
    token,
    code: 'dkim',
    detail,
    occurredAt: now.toISOString(),
  });
}
// Replies to our texts no rule acted on, for the Replies list.
for (const [end, body] of [
  ['4567', 'When does the app come out? My grandson wants it too.'],
  ['0142', 'Is this the real ScamSavvy? I want to be careful.'],
  ['7788', 'Thank you!'],
] as const)
  await store.smsReplies.keep({ phoneHash: subscriptions.phoneHash(`+1555000${end}`) ?? '', phoneEnd: end, body });
await store.owners.add('owner@example.com');
const owner = await store.owners.byEmail('owner@example.com');
const token = newSecret();
await store.owners.createLink(owner?.id ?? 0, secretHash(token), SIGN_IN_LINK_LIFETIME_MS);
await store.close();

const { base, stop } = await startBuiltServer(port, SETTINGS);
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/owner/sign-in/${token}`);
  await page.getByRole('button', { name: 'Sign me in' }).click();
  await page.getByRole('heading', { name: 'How the list is growing' }).waitFor();
  const rosa = await (async () => {
    await page.goto(`${base}/owner/people?q=rosa`);
    return page.getByRole('link', { name: 'Open Rosa Díaz’s record' }).getAttribute('href');
  })();
  for (const [name, width, height] of [
    ['desktop-1280', 1280, 900],
    ['phone-390', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    const shot = async (url: string, file: string) => {
      await page.goto(`${base}${url}`);
      await page.screenshot({ path: `docs/screenshots/owner-${file}-${name}.png`, fullPage: true });
    };
    await shot('/owner', 'overview');
    await shot('/owner/people?q=person1', 'people');
    await shot(rosa ?? '/owner/people', 'person');
    await shot('/owner/audit', 'audit-log');
    await shot('/owner/replies', 'replies');
    await shot('/owner/ready', 'ready-for-launch');
    await shot('/owner/suppressions', 'suppressions');
    await shot('/owner/broadcasts/launch', 'broadcast-paused');
    await shot('/owner/broadcasts/launch/retry', 'broadcast-retry');
    console.log(
      `docs/screenshots/owner-{overview,people,person,audit-log,replies,suppressions,broadcast-paused,broadcast-retry}-${name}.png`,
    );
  }
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}/owner/sign-in`);
  await page.screenshot({ path: 'docs/screenshots/owner-sign-in-desktop-1280.png', fullPage: true });
  console.log('docs/screenshots/owner-sign-in-desktop-1280.png');
} finally {
  await browser.close();
  await stop();
  rmSync(dir, { recursive: true, force: true });
}
