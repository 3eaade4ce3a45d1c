import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { signupDialog } from '../src/client/signup-content-en';
import { MIN_FORM_TIME_MS, signupMessages, type SignupRecord } from '../src/shared/signup-schema';
import { expect, test } from './fixtures';
import { randomUUID } from 'node:crypto';
import { DAYTIME, machineClock } from '../src/server/test/clock';

const run = promisify(execFile);

/** The owner's documented command, against the database the test server writes to. */
async function exportedSignups(): Promise<SignupRecord[]> {
  const { stdout } = await run('npm', ['run', '--silent', 'signups:export', '--', '--format', 'json'], {
    env: { ...process.env, DATABASE_URL: `sqlite:${process.env.E2E_DATABASE_FILE}` },
  });
  return JSON.parse(stdout) as SignupRecord[];
}

/** An address no other test uses, so parallel tests can find their own sign-up. */
function uniqueEmail(label: string): string {
  return `${label}.${randomUUID()}@example.com`;
}

async function openFromHero(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
  await expect(page.getByRole('dialog', { name: 'Get Notified When ScamSavvy Launches' })).toBeVisible();
  return page.getByRole('dialog'); // its name changes to the success title later
}

async function fill(page: Page, email: string) {
  await page.getByLabel('Your Name').fill('Rosa Díaz');
  await page.getByLabel('Phone Number').fill('+1 (555) 123-4567');
  await page.getByLabel('Email Address').fill(email);
  // No waiting: the page itself waits out the bot check's minimum time before it sends.
}

test('a visitor signs up and the owner finds the sign-up in the export', async ({ page }) => {
  const email = uniqueEmail('rosa');
  // The server stamps the sign-up with its database's time: between the test's start and the export.
  const before = machineClock.ms();
  const dialog = await openFromHero(page);
  await expect(dialog).toContainText('Sign up to get early access for your family.');
  await expect(dialog).toContainText(signupDialog.consent);
  await fill(page, email);
  await page.getByRole('checkbox', { name: 'Check if you would like to participate in beta testing' }).check();
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();

  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
  await expect(dialog).toContainText('the moment ScamSavvy launches');
  await page.getByRole('button', { name: 'Got it - Keep my family safe!' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' })).toBeFocused();

  const mine = (await exportedSignups()).filter((record) => record.email === email);
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({ name: 'Rosa Díaz', phone: '+15551234567', email, betaTesting: true });
  expect(mine[0]?.id).toBeTruthy();
  const stamped = Date.parse(mine[0]?.timestamp ?? '');
  expect([before <= stamped, stamped <= machineClock.ms()]).toEqual([true, true]);
});

test('errors show under each field, and the summary takes focus', async ({ page }) => {
  await openFromHero(page);
  await page.getByLabel('Phone Number').fill('0123');
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link')).toHaveText([
    signupMessages.nameRequired,
    signupMessages.phoneInvalid,
    signupMessages.emailRequired,
  ]);
  // Each message sits under its own field.
  const phone = page.getByLabel('Phone Number');
  const phoneError = page.locator('#signup-phone-error');
  const [inputBox, errorBox] = [await phone.boundingBox(), await phoneError.boundingBox()];
  expect(errorBox!.y).toBeGreaterThan(inputBox!.y + inputBox!.height - 1);
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(phone).toHaveValue('0123');
});

test('a number without its area code is refused under the number, and stored once corrected', async ({
  page,
  console,
}) => {
  // A refusal is a failed save as the spec logs it; Chromium adds its own line for the 400.
  const errors = console.expectError(/^Error submitting signup SignupRefusedError/);
  console.expectError(/status of 400/);
  const email = uniqueEmail('local');
  await openFromHero(page);
  await fill(page, email);
  await page.getByLabel('Phone Number').fill('555 0142');
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  // The form's own rule lets seven digits by; the server cannot read them as any phone's.
  const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link')).toHaveText([signupMessages.phoneNeedsAreaCode]);
  await expect(page.locator('#signup-phone-error')).toContainText(signupMessages.phoneNeedsAreaCode);
  await expect(page.getByText(signupDialog.saveFailed)).toHaveCount(0);
  expect(errors()).toHaveLength(1);
  expect((await exportedSignups()).filter((record) => record.email === email)).toHaveLength(0);

  await page.getByLabel('Phone Number').fill('212 555 0142');
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
  expect((await exportedSignups()).filter((record) => record.email === email).map((record) => record.phone)).toEqual([
    '+12125550142',
  ]);
});

test('while the save is on its way the form is disabled, relabelled, and cannot be closed', async ({ page }) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  // Hold the real request back (not answer it for the server), then let it through.
  await page.route('**/api/signups', async (route) => {
    await held;
    await route.continue();
  });
  const email = uniqueEmail('held');
  const dialog = await openFromHero(page);
  await fill(page, email);
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();

  await expect(page.getByRole('button', { name: 'Adding to Protection List...' })).toBeDisabled();
  await expect(page.getByLabel('Your Name')).toBeDisabled();
  await expect(page.getByLabel('Phone Number')).toBeDisabled();
  await expect(page.getByLabel('Email Address')).toBeDisabled();
  await expect(page.getByRole('checkbox')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Maybe Later' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5); // the overlay
  await expect(dialog).toBeVisible();

  release();
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
  expect((await exportedSignups()).filter((record) => record.email === email)).toHaveLength(1);
});

test('a failed save logs the error, keeps the form filled, and says it can be tried again', async ({
  page,
  console,
}) => {
  const errors = console.expectError(/^Error submitting signup/);
  console.expectError(/net::ERR_INTERNET_DISCONNECTED/); // Chromium's own line for the dropped request
  let failNext = true;
  await page.route('**/api/signups', (route) => {
    if (failNext) {
      failNext = false;
      return route.abort('internetdisconnected'); // the connection drops on the way
    }
    return route.continue();
  });
  const email = uniqueEmail('retry');
  const dialog = await openFromHero(page);
  await fill(page, email);
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();

  await expect(page.getByText(signupDialog.saveFailed)).toBeVisible();
  await expect.poll(errors).toHaveLength(1);
  await expect(dialog).toHaveAccessibleName('Get Notified When ScamSavvy Launches');
  await expect(page.getByLabel('Email Address')).toHaveValue(email);
  await expect(page.getByRole('button', { name: 'Protect My Family - Notify Me!' })).toBeEnabled();

  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
});

test('"Maybe Later" closes the dialog, and reopening gives an empty form', async ({ page }) => {
  const dialog = await openFromHero(page);
  await page.getByLabel('Your Name').fill('Half typed');
  await page.getByRole('button', { name: 'Maybe Later' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
  await expect(page.getByLabel('Your Name')).toHaveValue('');
});

test('after a sign-up, reopening shows the form again, empty', async ({ page }) => {
  const dialog = await openFromHero(page);
  await fill(page, uniqueEmail('again'));
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
  await expect(page.getByRole('dialog', { name: 'Get Notified When ScamSavvy Launches' })).toBeVisible();
  await expect(page.getByLabel('Email Address')).toHaveValue('');
});

test('the dialog is at most 90% of the viewport tall, and scrolls inside on a short screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 600 });
  const dialog = await openFromHero(page);
  const { maxHeight, innerHeight } = await dialog.evaluate((element) => ({
    maxHeight: getComputedStyle(element).maxHeight,
    innerHeight: window.innerHeight,
  }));
  expect(parseFloat(maxHeight)).toBeCloseTo(innerHeight * 0.9, 0);
  const box = await dialog.boundingBox();
  expect(box!.height).toBeLessThanOrEqual(innerHeight * 0.9 + 1);
  await page.getByRole('button', { name: 'Maybe Later' }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('button', { name: 'Maybe Later' })).toBeInViewport();
});

test('stores where the visit came from, kept for the visit, and which button opened the form', async ({ page }) => {
  const email = uniqueEmail('utm');
  await page.goto('/?utm_source=e2e-newsletter&utm_medium=email&utm_campaign=spring-launch');
  // A reload without the tags (the visitor moves around) keeps what the visit arrived with.
  await page.goto('/');
  await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
  await fill(page, email);
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();

  const [mine] = (await exportedSignups()).filter((record) => record.email === email);
  expect(mine).toMatchObject({
    utmSource: 'e2e-newsletter',
    utmMedium: 'email',
    utmCampaign: 'spring-launch',
    landingPath: '/',
    button: 'hero_section',
    consentVersion: signupDialog.consentVersion,
  });
});

test('a person whose browser fills the form in at once and who presses straight away is taken, never doubted', async ({
  page,
}) => {
  // The page's clock stands still from the moment the dialog opens until the button is pressed, so
  // the press comes "at once" however slow this machine is; then the test moves it on.
  await page.clock.install({ time: DAYTIME });
  const email = uniqueEmail('quick');
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/signups')) sent.push(request.postData() ?? '');
  });
  await page.goto('/');
  await page.clock.pauseAt(Date.parse(DAYTIME) + 60_000);
  await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
  await expect(page.getByRole('dialog', { name: 'Get Notified When ScamSavvy Launches' })).toBeVisible();
  // As autofill does: every field filled in the same moment, then the button pressed at once.
  await fill(page, email);
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  // Pressed with no time gone on the page's clock: it waits rather than send a submit the server would doubt.
  await expect(page.getByRole('button', { name: 'Adding to Protection List...' })).toBeDisabled();
  await page.clock.runFor(MIN_FORM_TIME_MS - 100);
  expect(sent, "nothing sent before the bot check's minimum").toEqual([]);
  await page.clock.runFor(200);
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
  expect(sent).toHaveLength(1);
  expect(JSON.parse(sent[0] ?? '{}')).toMatchObject({ email, openedForMs: expect.any(Number) });
  expect(JSON.parse(sent[0] ?? '{}').openedForMs).toBeGreaterThanOrEqual(MIN_FORM_TIME_MS);
  expect((await exportedSignups()).filter((record) => record.email === email)).toHaveLength(1);
});

test('a bot that fills the hidden trap field is refused: no success is shown, and nothing is stored', async ({
  page,
  console: consoleWatch,
}) => {
  const errors = consoleWatch.expectError(/Error submitting signup|422/);
  const email = uniqueEmail('bot');
  await openFromHero(page);
  const trap = page.locator('#signup-comments');
  await expect(trap).toHaveAttribute('tabindex', '-1');
  await expect(trap).toHaveAttribute('autocomplete', 'off');
  await expect(page.locator('.signup-form__trap')).toHaveAttribute('aria-hidden', 'true');
  expect((await trap.boundingBox())?.x ?? 0).toBeLessThan(-1000); // off-screen
  await fill(page, email);
  await trap.fill('http://cheap-watches.example'); // only a bot would
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  await expect(page.getByRole('button', { name: 'Protect My Family - Notify Me!' })).toBeEnabled();
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toHaveCount(0);
  expect(errors().length).toBeGreaterThan(0);
  expect((await exportedSignups()).filter((record) => record.email === email)).toHaveLength(0);
});

test('the trap field is not reached with the Tab key', async ({ page }) => {
  await openFromHero(page);
  const focused: string[] = [];
  for (let step = 0; step < 12; step += 1) {
    await page.keyboard.press('Tab');
    focused.push(await page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName ?? ''));
  }
  expect(focused).toContain('signup-email');
  expect(focused).not.toContain('signup-comments');
});
