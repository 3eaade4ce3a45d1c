// SITE_MODE=launched, in Chromium against a built server of its own: the page says the app is here,
// its store buttons record the download intent and lead to the stores, there is no way to sign up
// anywhere, and /app sends each phone to its store. The stores' hosts are intercepted in the browser.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContextOptions, Page, Request } from '@playwright/test';
import { launchedHero, launchedSite } from '../src/client/launch-content-en';
import { expect, test } from './fixtures';
import { expectNoHorizontalOverflow, expectNoViolations } from './support/a11y';
import { interceptProviders, TEST_IDS } from './support/providers';
import { startBuiltServer, type RunningServer } from '../scripts/built-server.mjs';
import { startStoreStandIn, type StoreStandIn } from './support/store-stand-in';

const APP_STORE = 'https://apps.apple.com/us/app/scamsavvy/id1234567890';
const PLAY_STORE = 'https://play.google.com/store/apps/details?id=com.scamsavvy.app';
const BETA_IOS = 'https://testflight.apple.com/join/AbCdEf12';
const BETA_ANDROID = 'https://play.google.com/apps/testing/com.scamsavvy.app';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

/** The same 80 kB of gzipped script before any interaction as the coming-soon page (performance.spec.ts). */
const INITIAL_JS_GZIP_BUDGET = 80_000;
const FIRST_LOAD_BUDGET = 110_000;
const SIGNUP_WORDS = /notify me|protect my family|sign up|join the list|coming soon/i;

let launched: RunningServer;
/** The same, with the analytics providers configured (opt-out: they load without a question answered). */
let withProviders: RunningServer;
let dataDir: string;
/** A browser in which the stores' hosts answer locally (support/store-stand-in.ts). */
let stores: StoreStandIn;

test.beforeAll(async () => {
  stores = await startStoreStandIn(['apps.apple.com', 'play.google.com', 'testflight.apple.com']);
  dataDir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-launched-'));
  const port = 4600 + test.info().workerIndex * 2;
  const env = {
    SITE_MODE: 'launched',
    APP_STORE_URL: APP_STORE,
    PLAY_STORE_URL: PLAY_STORE,
    BETA_IOS_URL: BETA_IOS,
    BETA_ANDROID_URL: BETA_ANDROID,
  };
  [launched, withProviders] = await Promise.all([
    startBuiltServer(port, {
      ...env,
      SITE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `sqlite:${launchedDatabase()}`,
    }),
    startBuiltServer(port + 1, {
      ...env,
      ...TEST_IDS,
      CONSENT_MODE: 'opt-out',
      DATABASE_URL: `sqlite:${path.join(dataDir, 'providers.db')}`,
    }),
  ]);
});

test.afterAll(async () => {
  await Promise.all([launched?.stop(), withProviders?.stop(), stores?.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Waits until React has taken the page over (start.ts's hand-over, then the network at rest). */
async function waitUntilRunning(page: Page) {
  await page.waitForFunction(() => window.__scamsavvyStart?.hydrating === true);
  await page.waitForLoadState('networkidle');
}

/**
 * A page in the browser that reaches the stores' stand-in. Not the fixtures' page, so it watches for
 * console errors itself, as e2e/fixtures.ts does for every other test.
 */
async function withStoreBrowser(options: BrowserContextOptions, visit: (page: Page) => Promise<void>) {
  stores.visits.length = 0;
  const context = await stores.browser.newContext(options);
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`Uncaught: ${error.message}`));
    await visit(page);
  } finally {
    await context.close();
  }
  expect(errors, 'console errors').toEqual([]);
}

const launchedDatabase = () => path.join(dataDir, 'launched.db');

/** The download intents the launched server stored (first-party events, beaconed as the page is left). */
function storedDownloadIntents(): { name: string; params: Record<string, unknown> }[] {
  const database = new Database(launchedDatabase(), { readonly: true, fileMustExist: true });
  try {
    const rows = database
      .prepare("SELECT name, params FROM analytics_events WHERE name = 'download_intent' ORDER BY id")
      .all() as { name: string; params: string }[];
    return rows.map((row) => ({ name: row.name, params: JSON.parse(row.params) as Record<string, unknown> }));
  } finally {
    database.close();
  }
}

test('the launched page says the app is here, with both store buttons, the carousel and the statistics', async ({
  page,
}) => {
  const response = await page.goto(`${launched.url}/`);
  expect(response?.status()).toBe(200);
  await waitUntilRunning(page);
  await expect(page).toHaveTitle(launchedSite.title);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(launchedHero.heading);
  const hero = page.locator('.hero');
  await expect(hero.getByRole('link', { name: /App Store/ })).toBeVisible();
  await expect(hero.getByRole('link', { name: /App Store/ })).toHaveAttribute('href', '/app/ios');
  await expect(hero.getByRole('link', { name: /Google Play/ })).toBeVisible();
  await expect(hero.getByRole('link', { name: /Google Play/ })).toHaveAttribute('href', '/app/android');
  await expect(page.getByRole('region', { name: 'App previews' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '$16.6 Billion Lost to Scams' })).toBeVisible();
  await expect(page.locator('.statistics__figure')).toHaveCount(3);
  await expect(page.locator('.statistics__figure').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Simple, Safe Learning' })).toBeVisible();
  // The share tags say it too.
  const meta = (selector: string) => page.locator(selector).getAttribute('content');
  expect(await meta('meta[property="og:title"]')).toBe(launchedSite.title);
  expect(await meta('meta[property="og:description"]')).toBe(launchedSite.description);
  expect(await meta('meta[name="description"]')).toBe(launchedSite.description);
  expect(await meta('meta[property="og:image"]')).toBe(`${launched.url}${launchedSite.shareImage.path}`);
  expect(await meta('meta[property="og:image:alt"]')).toBe(launchedSite.shareImageAlt);
  const picture = await page.request.get(`${launched.url}${launchedSite.shareImage.path}`);
  expect([picture.status(), picture.headers()['content-type']]).toEqual([200, 'image/png']);
});

test('there is no way to sign up anywhere: no button, shown or hidden, no form, no dialog, no dialog code', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`${launched.url}/`);
  await waitUntilRunning(page);
  // What used to fetch the dialog's code: pointing at the buttons, a scroll, a key.
  await page
    .locator('.hero')
    .getByRole('link', { name: /App Store/ })
    .hover();
  await page.mouse.wheel(0, 800);
  await page.keyboard.press('Tab');
  await page.waitForTimeout(1500);

  // Every button in the page, hidden sections included: none is about signing up.
  const buttons = await page.locator('button').allTextContents();
  expect(buttons.filter((text) => SIGNUP_WORDS.test(text))).toEqual([]);
  await expect(page.locator('form, dialog, [role="dialog"], input')).toHaveCount(0);
  expect(await page.locator('#root').textContent()).not.toMatch(SIGNUP_WORDS);
  expect(scripts.filter((url) => /\/assets\/(signup-dialog|zod)-/.test(url))).toEqual([]);
  // The closing call to action (hidden unless switched on) asks for the download instead.
  const closing = page.locator('#closing-call-to-action');
  await expect(closing.locator('a[href="/app/ios"]')).toHaveCount(1);
  await expect(closing.locator('a[href="/app/android"]')).toHaveCount(1);
});

test('React takes over the prerendered launched page as it is (hydration keeps every element)', async ({ page }) => {
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${launched.url}/`, { waitUntil: 'domcontentloaded' });
  const heading = await page.getByRole('heading', { level: 1 }).elementHandle();
  const link = await page
    .locator('.hero')
    .getByRole('link', { name: /Google Play/ })
    .elementHandle();
  release();
  await waitUntilRunning(page);
  // A mismatch would make React throw the server's HTML away (and log an error, which fails the test).
  expect(await heading?.evaluate((element) => element.isConnected)).toBe(true);
  expect(await link?.evaluate((element) => element.isConnected)).toBe(true);
});

for (const [store, platform, url] of [
  ['App Store', 'ios', APP_STORE],
  ['Google Play', 'android', PLAY_STORE],
] as const) {
  test(`pressing "${store}" records the download intent (${platform}, landing_page) and lands on the store`, async () => {
    await withStoreBrowser({}, async (page) => {
      const before = storedDownloadIntents().length;
      await page.goto(`${launched.url}/`);
      await waitUntilRunning(page);
      await page
        .locator('.hero')
        .getByRole('link', { name: new RegExp(store) })
        .click();
      await page.waitForURL(url);
      await expect(page.getByRole('heading', { name: 'A store' })).toBeVisible();
      expect(stores.visits).toEqual([url]); // straight there: our /app/… address answered with a redirect
      // Leaving the page sent what was waiting (a beacon), and our server stored it.
      await expect
        .poll(() => storedDownloadIntents().slice(before), { timeout: 10_000 })
        .toEqual([
          {
            name: 'download_intent',
            params: {
              page_name: 'home',
              page_language: 'en',
              platform,
              source: 'landing_page',
              location: 'hero_section',
              element_name: 'store_button',
            },
          },
        ]);
    });
  });
}

test('the analytics providers get the download intent too, with its platform and source', async ({ page, context }) => {
  await interceptProviders(context);
  // The visitor stays on the page (a 204 answer to a navigation changes nothing), so the providers' calls can be read.
  await page.route('**/app/android', (route) => route.fulfill({ status: 204 }));
  await page.goto(`${withProviders.url}/`);
  await waitUntilRunning(page);
  await page.waitForFunction(() => 'dataLayer' in window);
  await page
    .locator('.hero')
    .getByRole('link', { name: /Google Play/ })
    .click();
  const gaEvents = () =>
    page.evaluate(() =>
      ((window as unknown as { dataLayer?: ArrayLike<unknown>[] }).dataLayer ?? [])
        .map((entry) => Array.from(entry))
        .filter((entry) => entry[0] === 'event' && entry[1] === 'download_intent'),
    );
  await expect
    .poll(gaEvents)
    .toEqual([['event', 'download_intent', expect.objectContaining({ platform: 'android', source: 'landing_page' })]]);
  const posthog = () =>
    page.evaluate(() =>
      Array.from((window as unknown as { posthog?: unknown[][] }).posthog ?? []).filter(
        (call) => Array.isArray(call) && call[0] === 'capture' && call[1] === 'download_intent',
      ),
    );
  await expect
    .poll(posthog)
    .toEqual([
      ['capture', 'download_intent', expect.objectContaining({ platform: 'android', source: 'landing_page' })],
    ]);
});

for (const [phone, userAgent, url] of [
  ['an iPhone', IPHONE, APP_STORE],
  ['an Android phone', ANDROID, PLAY_STORE],
] as const) {
  test(`/app from ${phone} (the launch message's link) lands on its store, with no page between`, async () => {
    await withStoreBrowser({ userAgent }, async (page) => {
      const documents: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents.push(request.url());
      });
      const response = await page.goto(`${launched.url}/app`);
      expect(page.url()).toBe(url);
      await expect(page.getByRole('heading', { name: 'A store' })).toBeVisible();
      expect(response?.status()).toBe(200);
      expect(response?.request().redirectedFrom()?.url()).toBe(`${launched.url}/app`);
      // Our /app answered with a redirect, and the browser went straight on: no page of ours between.
      expect(documents).toEqual([`${launched.url}/app`, url]);
      expect(stores.visits).toEqual([url]);
    });
  });
}

test('/app from a computer shows the launched page with both buttons; /beta/ios leads to the beta', async () => {
  await withStoreBrowser({}, async (page) => {
    await page.goto(`${launched.url}/app`);
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(launchedHero.heading);
    await expect(page.locator('.hero').getByRole('link')).toHaveCount(2);
    expect(stores.visits).toEqual([]);
    await page.goto(`${launched.url}/beta/ios`);
    expect(page.url()).toBe(BETA_IOS);
    expect(stores.visits).toEqual([BETA_IOS]);
  });
});

test('the 404 page has the launched title, and its way home leads to the launched page', async ({ page, console }) => {
  console.expectError(/non-existent route|status of 404/);
  const response = await page.goto(`${launched.url}/spring/offer`);
  expect(response?.status()).toBe(404);
  await waitUntilRunning(page);
  await expect(page).toHaveTitle(`Page not found: ${launchedSite.title}`);
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(launchedHero.heading);
  await expect(page).toHaveTitle(launchedSite.title);
  await expect(page.locator('.hero').getByRole('link', { name: /App Store/ })).toBeVisible();
  await expect(page.locator('button', { hasText: SIGNUP_WORDS })).toHaveCount(0);
});

test('the first load stays within its budgets in launched mode too: 80 kB of script gzipped, 110 kB in all', async ({
  page,
}) => {
  const own: Request[] = [];
  page.on('requestfinished', (request) => {
    if (request.url().startsWith(launched.url)) own.push(request);
  });
  await page.goto(`${launched.url}/`);
  await waitUntilRunning(page);
  await page.waitForTimeout(1000); // the browser's idle time
  const scripts = own
    .filter((request) => request.resourceType() === 'script')
    .map((request) => new URL(request.url()).pathname);
  expect(scripts.some((url) => /\/assets\/start-/.test(url))).toBe(false); // the starter is in the page
  expect(scripts.some((url) => /\/assets\/index-/.test(url))).toBe(true);
  // Measured as performance.spec.ts measures the coming-soon page: the build's gzip files, and
  // everything as Chromium received it.
  const gzipBytes = scripts.reduce((sum, url) => sum + statSync(path.join('dist/client', `${url}.gz`)).size, 0);
  let sentBytes = 0;
  for (const request of own) {
    const sizes = await request.sizes();
    sentBytes += sizes.responseBodySize + sizes.responseHeadersSize;
  }
  test.info().annotations.push({
    type: 'budget',
    description: `launched: script before interaction ${gzipBytes} B gzip (${scripts.join(', ')}); first load ${sentBytes} B sent in ${own.length} requests`,
  });
  expect(gzipBytes).toBeLessThanOrEqual(INITIAL_JS_GZIP_BUDGET);
  expect(sentBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
});

test('the launched page takes the largest text size at 320 px: nothing sideways, axe finds nothing', async ({
  page,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`${launched.url}/`);
  await waitUntilRunning(page);
  await page
    .getByRole('group', { name: 'Text size' })
    .getByRole('button', { name: 'A++ Largest', exact: true })
    .click();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('32px');
  await expectNoHorizontalOverflow(page, 'launched page at Largest, 320 px');
  await expectNoViolations(page, 'launched page at Largest, 320 px');
});

for (const [width, height] of [
  [390, 844],
  [1280, 900],
] as const) {
  test(`axe finds nothing on the launched page at ${width} px, and its store buttons are big enough`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await page.goto(`${launched.url}/`);
    await waitUntilRunning(page);
    await expectNoViolations(page, `launched page at ${width} px`);
    await expectNoHorizontalOverflow(page, `launched page at ${width} px`);
    // The store buttons are big enough to press (WCAG 2.5.8, and this page's own 44 px rule).
    for (const link of await page.locator('.hero').getByRole('link').all()) {
      const box = await link.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
      expect(box?.width).toBeGreaterThanOrEqual(44);
    }
  });

  test(`axe finds nothing in the launched page's hidden sections switched on, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto(`${launched.url}/`);
    await waitUntilRunning(page);
    // What an owner's switch shows (content.ts showSections), the download call to action among them.
    await page.evaluate(() =>
      document.querySelectorAll('main section[hidden]').forEach((s) => s.removeAttribute('hidden')),
    );
    await expect(page.locator('#closing-call-to-action').getByRole('link', { name: /App Store/ })).toBeVisible();
    await expectNoViolations(page, `launched page at ${width} px, hidden sections shown`);
    await expectNoHorizontalOverflow(page, `launched page at ${width} px, hidden sections shown`);
  });
}
