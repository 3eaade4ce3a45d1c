// Analytics, the ad pixel and consent, in Chromium against the real server with the providers switched on.
// The providers' hosts are intercepted (support/providers.ts): nothing leaves the machine.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { MIN_FORM_TIME_MS } from '../src/shared/signup-schema';
import { expect, test } from './fixtures';
import { expectNoViolations } from './support/a11y';
import { interceptProviders, PROVIDER_SCRIPTS, TEST_IDS } from './support/providers';
import { startBuiltServer, type RunningServer } from '../scripts/built-server.mjs';
import { randomUUID } from 'node:crypto';

const run = promisify(execFile);

const HERO_BUTTON = 'Protect My Family — Notify Me On App Release!';

let optIn: RunningServer;
let optOut: RunningServer;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-analytics-'));
  // Two servers per worker, on ports of their own, with all three providers configured.
  const port = 4350 + test.info().workerIndex * 2;
  const env = { ...TEST_IDS, SIGNUP_RATE_LIMIT_PER_MINUTE: '0', SIGNUP_RATE_LIMIT_PER_HOUR: '0' };
  [optIn, optOut] = await Promise.all([
    startBuiltServer(port, { ...env, DATABASE_URL: `sqlite:${path.join(dataDir, 'in.db')}` }),
    startBuiltServer(port + 1, {
      ...env,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'out.db')}`,
      CONSENT_MODE: 'opt-out',
    }),
  ]);
});

test.afterAll(async () => {
  await Promise.all([optIn?.stop(), optOut?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

/** gtag's dataLayer entries as arrays (gtag pushes Arguments objects). */
function dataLayer(page: Page): Promise<unknown[][]> {
  return page.evaluate(() =>
    ((window as unknown as { dataLayer?: ArrayLike<unknown>[] }).dataLayer ?? []).map((entry) => Array.from(entry)),
  );
}

/** The GA4 events, as [name, parameters]. */
async function gaEvents(page: Page): Promise<[string, Record<string, unknown>][]> {
  return (await dataLayer(page))
    .filter((entry) => entry[0] === 'event')
    .map((entry) => [entry[1] as string, entry[2] as Record<string, unknown>]);
}

/** What our code handed the Meta Pixel (fbq keeps the calls until fbevents.js takes them). */
function pixelCalls(page: Page): Promise<unknown[][]> {
  return page.evaluate(() =>
    ((window as unknown as { fbq?: { queue: ArrayLike<unknown>[] } }).fbq?.queue ?? []).map((call) => Array.from(call)),
  );
}

function posthogCalls(page: Page): Promise<unknown[][]> {
  return page.evaluate(() =>
    Array.from((window as unknown as { posthog?: unknown[][] }).posthog ?? []).filter(Array.isArray),
  );
}

async function scrollToBottom(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function signUp(page: Page, email: string) {
  await page.getByRole('button', { name: HERO_BUTTON }).click();
  await page.getByLabel('Your Name').fill('Rosa María Díaz');
  await page.getByLabel('Phone Number').fill('+1 (555) 123-4567');
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('checkbox', { name: /beta testing/ }).check();
  await page.waitForTimeout(MIN_FORM_TIME_MS);
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
  await page.getByRole('button', { name: 'Got it - Keep my family safe!' }).click();
}

const banner = (page: Page) => page.getByRole('region', { name: 'May we use cookies?' });

test('the Spanish page asks in Spanish, and its events say the page is Spanish (issue 45)', async ({
  page,
  context,
}) => {
  await interceptProviders(context);
  await page.goto(`${optIn.url}/es/`);
  const pregunta = page.getByRole('region', { name: '¿Podemos usar cookies?' });
  await expect(pregunta).toContainText('Google Analytics, PostHog y Meta Pixel');
  await expectNoViolations(page, 'the Spanish cookie question');
  await pregunta.getByRole('button', { name: 'Aceptar las cookies' }).click();
  await expect
    .poll(async () => (await gaEvents(page)).find(([name]) => name === 'page_view')?.[1])
    .toMatchObject({ page_name: 'home', page_language: 'es', page_location: `${optIn.url}/es/` });
});

test('opt-in: nothing reaches a provider before Accept; then every event arrives, in order, with its parameters', async ({
  page,
  context,
}) => {
  const traffic = await interceptProviders(context);
  await page.goto(`${optIn.url}/`);
  await expect(banner(page)).toBeVisible();
  await expect(banner(page)).toContainText('Google Analytics, PostHog and Meta Pixel');

  await scrollToBottom(page);
  await signUp(page, 'Rosa.Diaz@Example.com ');

  // Before consent: no request to any provider, no cookie, no storage entry but our own.
  expect(traffic.requests).toEqual([]);
  expect(await context.cookies()).toEqual([]);
  const storageKeys = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]);
  expect(storageKeys.filter((key) => !key.startsWith('scamsavvy.'))).toEqual([]);
  expect(await page.evaluate(() => 'dataLayer' in window || 'fbq' in window || 'posthog' in window)).toBe(false);

  await banner(page)
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expect(banner(page)).toBeHidden();

  // The queue replays once the scripts have loaded from the providers' own hosts.
  await expect.poll(() => gaEvents(page).then((events) => events.length)).toBe(9);
  for (const script of Object.values(PROVIDER_SCRIPTS)) {
    expect(traffic.requests.some((url) => script.test(url))).toBe(true);
  }
  const events = await gaEvents(page);
  expect(events.map(([name]) => name)).toEqual([
    'page_view',
    'scroll_depth',
    'scroll_depth',
    'scroll_depth',
    'scroll_depth',
    'button_click',
    'sign_up_start',
    'sign_up',
    'form_submission',
  ]);
  expect(events[0]?.[1]).toEqual({
    page_name: 'home',
    page_language: 'en',
    page_title: await page.title(),
    page_location: `${optIn.url}/`,
  });
  expect(events.slice(1, 5).map(([, params]) => params.scroll_percentage)).toEqual([25, 50, 75, 100]);
  expect(events[5]?.[1]).toMatchObject({
    button_name: 'signup_interest',
    section: 'hero_section',
    location: 'hero_section',
    element_name: 'signup_button',
  });
  expect(events[6]?.[1]).toMatchObject({ method: 'modal' });
  expect(events[7]?.[1]).toEqual({ page_name: 'home', page_language: 'en', method: 'modal', beta_testing: true });
  expect(events[8]?.[1]).toMatchObject({ form_name: 'signup_modal', success: true });
  // Google Analytics never receives personal data.
  expect(JSON.stringify(await dataLayer(page))).not.toMatch(/rosa|5551234567/i);

  // The pixel: a page view with page_name, then advanced matching, Lead and CompleteRegistration.
  expect(await pixelCalls(page)).toEqual([
    ['set', 'autoConfig', false, TEST_IDS.META_PIXEL_ID],
    ['init', TEST_IDS.META_PIXEL_ID],
    ['track', 'PageView', { page_name: 'home', page_language: 'en' }],
    ['init', TEST_IDS.META_PIXEL_ID, { em: 'rosa.diaz@example.com', ph: '15551234567', fn: 'rosa', ln: 'maría díaz' }],
    ['track', 'Lead', { content_name: 'signup', content_category: 'user_registration', value: 2, currency: 'USD' }],
    ['track', 'CompleteRegistration'],
  ]);

  // PostHog: the same events under the same names, and the person after consent.
  const posthog = await posthogCalls(page);
  expect(posthog.filter((call) => call[0] === 'capture').map((call) => call[1])).toEqual(events.map(([name]) => name));
  expect(posthog.find((call) => call[0] === 'identify')).toEqual([
    'identify',
    'rosa.diaz@example.com',
    expect.objectContaining({ first_name: 'Rosa', last_name: 'María Díaz', phone: '+15551234567' }),
  ]);
});

test('Reject: nothing loads, the choice is remembered, and the footer link can change it', async ({
  page,
  context,
}) => {
  const traffic = await interceptProviders(context);
  await page.goto(`${optIn.url}/`);
  await banner(page)
    .getByRole('button', { name: /^Reject/ })
    .click();
  await expect(banner(page)).toBeHidden();
  await page.getByRole('button', { name: HERO_BUTTON }).click();
  await page.getByRole('button', { name: 'Maybe Later' }).click();

  await page.reload();
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  await expect(banner(page)).toBeHidden();
  expect(traffic.requests).toEqual([]);
  expect(await context.cookies()).toEqual([]);

  await page.getByRole('button', { name: 'Change cookie choices' }).click();
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole('heading')).toBeFocused();
  await expect(banner(page)).toContainText('You said no to cookies.');
  await banner(page)
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expect.poll(() => traffic.requests.length).toBeGreaterThan(0);
  // Events after the change of mind arrive; those before it were dropped, never replayed.
  await page.getByRole('button', { name: HERO_BUTTON }).click();
  await expect
    .poll(() => gaEvents(page).then((events) => events.map(([name]) => name)))
    .toEqual(['button_click', 'sign_up_start']);
});

test('opt-out: the providers load once the page is interactive, and Reject stops them', async ({ page, context }) => {
  const traffic = await interceptProviders(context);
  await page.goto(`${optOut.url}/`);
  await expect(banner(page)).toContainText('You can say no');
  await expect.poll(() => gaEvents(page).then((events) => events.map(([name]) => name))).toEqual(['page_view']);
  expect(traffic.requests.filter((url) => /googletagmanager|posthog|facebook/.test(url)).length).toBeGreaterThanOrEqual(
    3,
  );

  await banner(page)
    .getByRole('button', { name: /^Reject/ })
    .click();
  await page.getByRole('button', { name: HERO_BUTTON }).click();
  await page.getByRole('button', { name: 'Maybe Later' }).click();
  expect((await gaEvents(page)).map(([name]) => name)).toEqual(['page_view']);
  expect(await page.evaluate(() => localStorage.getItem('scamsavvy.consent'))).toContain('rejected');
});

test('Global Privacy Control keeps the pixel and the session recorder off, even after Accept', async ({
  page,
  context,
}) => {
  await context.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
  );
  const traffic = await interceptProviders(context);
  await page.goto(`${optIn.url}/`);
  await expect(banner(page)).toContainText('cookies from Google Analytics to learn');
  await banner(page)
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expect.poll(() => gaEvents(page).then((events) => events.length)).toBe(1);
  expect(traffic.requests.some((url) => PROVIDER_SCRIPTS.ga4.test(url))).toBe(true);
  expect(traffic.requests.filter((url) => /posthog|facebook/.test(url))).toEqual([]);
});

test('a provider whose script cannot load stops neither the others nor the sign-up', async ({
  page,
  context,
  console: consoleWatch,
}) => {
  consoleWatch.expectError(/Failed to load resource/);
  const traffic = await interceptProviders(context);
  traffic.failScript(PROVIDER_SCRIPTS.metaPixel);
  await page.goto(`${optIn.url}/`);
  await banner(page)
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expect.poll(() => gaEvents(page).then((events) => events.length)).toBe(1);
  await signUp(page, 'blocked.pixel@example.com');
  await expect
    .poll(() => gaEvents(page).then((events) => events.map(([name]) => name).slice(-2)))
    .toEqual(['sign_up', 'form_submission']);
  expect(await pixelCalls(page)).not.toContainEqual(['track', 'CompleteRegistration']);
});

test("a family member's ?ref= code reaches no provider: gone from the address before anything reads it; a share is an event with its method only", async ({
  page,
  context,
}) => {
  const code = '7kq2m9x4hz3p';
  const traffic = await interceptProviders(context);
  await page.addInitScript(() => Object.defineProperty(navigator, 'share', { value: undefined }));
  await page.goto(`${optIn.url}/?ref=${code}`);
  await expect(banner(page)).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
  await page.getByRole('button', { name: HERO_BUTTON }).click();
  await page.getByLabel('Your Name').fill('Rosa Díaz');
  await page.getByLabel('Phone Number').fill('+15551234567');
  await page.getByLabel('Email Address').fill(`shared.${randomUUID()}@example.com`);
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  await page.getByRole('button', { name: 'Tell a family member' }).click();
  await page
    .getByRole('link', { name: 'Send an email' })
    .evaluate((link) => link.addEventListener('click', (event) => event.preventDefault()));
  await page.getByRole('link', { name: 'Send an email' }).click();
  // Nothing new reaches a provider before consent.
  expect(traffic.requests).toEqual([]);
  await page.getByRole('button', { name: 'Got it - Keep my family safe!' }).click();
  await banner(page)
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expect.poll(() => gaEvents(page).then((events) => events.map(([name]) => name))).toContain('share');
  const events = await gaEvents(page);
  expect(events.find(([name]) => name === 'share')?.[1]).toEqual({
    page_name: 'home',
    page_language: 'en',
    method: 'email',
  });
  expect(events.find(([name]) => name === 'page_view')?.[1]).toMatchObject({ page_location: `${optIn.url}/` });
  // The code is nowhere in what the providers were handed or fetched.
  const handed = JSON.stringify([await dataLayer(page), await pixelCalls(page), await posthogCalls(page)]);
  expect(handed).not.toContain(code);
  expect(traffic.requests.filter((url) => url.includes(code))).toEqual([]);
});

test('the 404 page and the way home each record a page view with the spec page name', async ({
  page,
  context,
  console: consoleWatch,
}) => {
  consoleWatch.expectError(/404/); // the 404 answer itself, and the spec's console error naming the path
  await interceptProviders(context);
  await page.goto(`${optIn.url}/missing.html`);
  await banner(page)
    .getByRole('button', { name: /^Accept/ })
    .click();
  const pageViews = () =>
    gaEvents(page).then((events) => events.filter(([name]) => name === 'page_view').map(([, p]) => p.page_name));
  await expect.poll(pageViews).toEqual(['missing.html']);
  expect(await pixelCalls(page)).toContainEqual([
    'track',
    'PageView',
    { page_name: 'missing.html', page_language: 'en' },
  ]);
  // The way home is a plain link (each page is its own load, decisions/038): the landing page records its own view.
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(`${optIn.url}/`);
  await expect.poll(pageViews).toEqual(['home']);
  const views = (await gaEvents(page)).filter(([name]) => name === 'page_view');
  expect(views[0]?.[1]?.page_title).toBe(await page.title());
  expect(await pixelCalls(page)).toContainEqual(['track', 'PageView', { page_name: 'home', page_language: 'en' }]);
});

test('the first-party funnel: events reach our database without a cookie, and signups:stats shows them', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000); // a server of its own and two commands: up to 28 s with a CPU load beside the suite
  // A server of its own, so the counts below are this visit's alone.
  const file = path.join(dataDir, `funnel-${test.info().workerIndex}.db`);
  const server = await startBuiltServer(4380 + test.info().workerIndex, {
    ...TEST_IDS,
    DATABASE_URL: `sqlite:${file}`,
    SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
  });
  try {
    await interceptProviders(context);
    const beacons: { cookie: string | undefined; body: string }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/events')) {
        beacons.push({ cookie: request.headers()['cookie'], body: request.postData() ?? '' });
      }
    });
    await page.goto(`${server.url}/`);
    await banner(page)
      .getByRole('button', { name: /^Reject/ })
      .click(); // our own counts need no consent
    await scrollToBottom(page);
    await signUp(page, 'funnel@example.com');
    await page.goto('about:blank'); // leaving the page sends what is waiting
    await expect.poll(() => beacons.length).toBeGreaterThan(0);
    expect(beacons.every((beacon) => beacon.cookie === undefined)).toBe(true);
    expect(beacons.map((beacon) => beacon.body).join('')).not.toMatch(/funnel@example|Rosa|5551234567/);

    const stats = async () =>
      (
        await run('node', ['dist/node/cli/signups-stats.js', '--days', '2'], {
          env: { ...process.env, DATABASE_URL: `sqlite:${file}` },
        })
      ).stdout;
    // The day the server stamped them on, whichever: two days shown, in case midnight passed between.
    const day = '\\d{4}-\\d{2}-\\d{2}';
    // Day, views, opens, sign-ups, conversion, failed saves, downloads.
    // Each poll runs a command; a loaded machine takes seconds for one: the limit only catches a hang.
    await expect.poll(stats, { timeout: 30_000 }).toMatch(new RegExp(`^  ${day} +1 +1 +1 +100(\\.0)?% +0 +0 +0$`, 'm'));
    // Scroll depth: each mark reached once, by the one landing-page view.
    expect(await stats()).toMatch(new RegExp(`^  ${day}( +1 +100%){4}$`, 'm'));
  } finally {
    await server.stop();
  }
});
