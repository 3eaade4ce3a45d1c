// `npm run screenshots`: pictures of the built page at phone and desktop widths, for docs/: the
// coming-soon page (with its cookie question, privacy notice, sign-up form, "Tell a family member"
// and the largest text size), the Spanish page (its offer, the page, its form), then the launched page.
import { chromium } from '@playwright/test';
import { startBuiltServer } from './built-server.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';

const { base, stop } = await startBuiltServer(4390, {
  // Stand-in IDs so the cookie banner shows; the providers' hosts are blocked below.
  GA_MEASUREMENT_ID: 'G-SCREENSHOT1',
  POSTHOG_KEY: 'phc_screenshotscreenshotscreenshot',
  META_PIXEL_ID: '100000000000001',
});

const browser = await chromium.launch(chromiumLaunchOptions());
try {
  for (const [name, width, height] of [
    ['phone-390', 390, 844],
    ['desktop-1280', 1280, 900],
  ]) {
    const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());

    // The cookie question as a first-time visitor sees it, and the privacy notice it links to.
    const first = await context.newPage();
    await first.goto(base, { waitUntil: 'networkidle' });
    await first.getByRole('button', { name: /^Accept/ }).waitFor();
    await first.screenshot({ path: `docs/screenshots/consent-banner-${name}.png` });
    await first.getByRole('link', { name: 'Read our privacy notice' }).click();
    await first.locator('#privacy-notice').evaluate((element) => element.scrollIntoView());
    await first.screenshot({ path: `docs/screenshots/privacy-notice-${name}.png` });
    await first.close();

    // The page itself, for a visitor who has already answered.
    await context.addInitScript(`localStorage.setItem("scamsavvy.consent", JSON.stringify({ choice: "rejected" }))`);
    const page = await context.newPage();
    await page.goto(base, { waitUntil: 'networkidle' });
    await page.screenshot({ path: `docs/screenshots/landing-${name}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
    await page.getByRole('dialog').waitFor();
    await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
    await page.getByText('There is a problem').waitFor();
    await page.screenshot({ path: `docs/screenshots/dialog-errors-${name}.png` });
    // After joining, on a computer without a share sheet: "Tell a family member" opens the panel.
    await page.evaluate(() => Object.defineProperty(globalThis.navigator, 'share', { value: undefined }));
    await page.getByLabel('Your Name').fill('Rosa Díaz');
    await page.getByLabel('Phone Number').fill('+15551234567');
    await page.getByLabel('Email Address').fill(`rosa.${name}@example.com`);
    await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
    await page.getByRole('button', { name: 'Tell a family member' }).click();
    await page.getByRole('button', { name: 'Copy the link' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `docs/screenshots/share-panel-${name}.png` });

    // The page at the largest text size.
    const large = await context.newPage();
    await large.goto(base, { waitUntil: 'networkidle' });
    await large.getByRole('button', { name: 'A++ Largest', exact: true }).click();
    await large.screenshot({ path: `docs/screenshots/text-size-largest-${name}.png` });
    await context.close();

    // The Spanish page (issue 45), offered at the top of the English one to a browser that asks for
    // Spanish first, and its sign-up form.
    const spanish = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce', locale: 'es-MX' });
    await spanish.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    await spanish.addInitScript(`localStorage.setItem("scamsavvy.consent", JSON.stringify({ choice: "rejected" }))`);
    const offered = await spanish.newPage();
    await offered.goto(base, { waitUntil: 'networkidle' });
    await offered.screenshot({ path: `docs/screenshots/spanish-offer-${name}.png` });
    await offered.goto(`${base}/es/`, { waitUntil: 'networkidle' });
    await offered.screenshot({ path: `docs/screenshots/landing-es-${name}.png`, fullPage: true });
    await offered.getByRole('button', { name: 'Proteja a su familia: avísenme cuando salga la aplicación' }).click();
    await offered.getByRole('dialog').waitFor();
    await offered.getByRole('button', { name: 'Proteger a mi familia: avísenme' }).click();
    await offered.getByText('Hay un problema').waitFor();
    await offered.screenshot({ path: `docs/screenshots/dialog-errors-es-${name}.png` });
    await spanish.close();
    console.log(
      `docs/screenshots/{landing,dialog-errors,share-panel,text-size-largest,consent-banner,privacy-notice,spanish-offer,landing-es,dialog-errors-es}-${name}.png`,
    );
  }
} finally {
  await browser.close();
  await stop();
}

// The launched page (SITE_MODE=launched), for a visitor without analytics configured.
const launched = await startBuiltServer(4391, {
  SITE_MODE: 'launched',
  APP_STORE_URL: 'https://apps.apple.com/app/id0000000000',
  PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=example.screenshots',
});
const launchedBrowser = await chromium.launch(chromiumLaunchOptions());
try {
  for (const [name, width, height] of [
    ['phone-390', 390, 844],
    ['desktop-1280', 1280, 900],
  ]) {
    const context = await launchedBrowser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(launched.base, { waitUntil: 'networkidle' });
    await page.screenshot({ path: `docs/screenshots/launched-${name}.png`, fullPage: true });
    await context.close();
    console.log(`docs/screenshots/launched-${name}.png`);
  }
} finally {
  await launchedBrowser.close();
  await launched.stop();
}
