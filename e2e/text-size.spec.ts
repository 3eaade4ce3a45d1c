// The Text size control in real Chromium against the real built server: each size at 320 and 1280 px
// passes axe and scrolls nowhere sideways, every target stays 44 px, the choice survives a reload and is
// applied before the first paint, and without script the page reads as before with no control.
// The launched page and the link pages have their own checks (launch-mode.spec.ts, messaging.spec.ts).
import type { Page } from '@playwright/test';
import { TEXT_SIZE_STORAGE_KEY, TEXT_SIZES, textSizeWords } from '../src/shared/text-size';
import { expect, test } from './fixtures';
import { expectLabelsInNames, expectNoHorizontalOverflow, expectNoViolations, smallTargets } from './support/a11y';

const control = (page: Page) => page.getByRole('group', { name: 'Text size' });

/** The root font size in px: 16 at Normal. */
const rootFontSize = (page: Page) =>
  page.evaluate(() => Number.parseFloat(getComputedStyle(document.documentElement).fontSize));

for (const width of [320, 1280]) {
  for (const size of TEXT_SIZES) {
    test(`${textSizeWords.en.names[size.id]} (${size.percent}%) at ${width} px: axe finds nothing, nothing scrolls sideways, targets stay 44 px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/');
      const choice = control(page).getByRole('button', {
        name: `${size.label} ${textSizeWords.en.names[size.id]}`,
        exact: true,
      });
      await choice.click();
      await expect(choice).toHaveAttribute('aria-pressed', 'true');
      expect(await rootFontSize(page)).toBe((16 * size.percent) / 100);
      await expectNoHorizontalOverflow(page, `${textSizeWords.en.names[size.id]} at ${width} px`);
      expect(await smallTargets(page)).toEqual([]);
      await expectLabelsInNames(page, `${textSizeWords.en.names[size.id]} at ${width} px`);
      await expectNoViolations(page, `${textSizeWords.en.names[size.id]} at ${width} px`);
    });
  }
}

test('the choice is remembered on this device, with no cookie, and applied before the first paint', async ({
  page,
  context,
}) => {
  await page.goto('/');
  // Pressed at once: a press before the page's script runs is applied once it does (early-press.ts).
  await control(page).getByRole('button', { name: 'A++ Largest', exact: true }).click();
  await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), TEXT_SIZE_STORAGE_KEY)).toBe('largest');
  expect(await context.cookies()).toEqual([]);
  // The size is on the page before anything is drawn: read from the first layout the document makes.
  await page.addInitScript(() => {
    document.addEventListener(
      'readystatechange',
      () => {
        const size = getComputedStyle(document.documentElement).fontSize;
        (window as unknown as { firstSize?: string }).firstSize ??= size;
      },
      { once: true },
    );
  });
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { firstSize?: string }).firstSize)).toBe('32px');
  await expect(control(page).getByRole('button', { name: 'A++ Largest', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(control(page).getByRole('button', { name: 'A Normal', exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  // Back to Normal: forgotten, and the next visit starts at 100%.
  await control(page).getByRole('button', { name: 'A Normal', exact: true }).click();
  await page.reload();
  expect(await rootFontSize(page)).toBe(16);
});

test('the control works from the keyboard, and on the 404 page too', async ({ page, console: watch }) => {
  watch.expectError(/non-existent route|status of 404/);
  await page.goto('/no-such-page');
  // The page's script has started (the press would otherwise wait for it, as early-press.ts does for clicks).
  await page.waitForFunction(
    () => (window as unknown as { __scamsavvyStart?: { hydrating: boolean } }).__scamsavvyStart?.hydrating,
  );
  const large = control(page).getByRole('button', { name: 'A+ Large', exact: true });
  await large.focus();
  await page.keyboard.press('Enter');
  expect(await rootFontSize(page)).toBe(24);
  await page.keyboard.press('Tab');
  await expect(control(page).getByRole('button', { name: 'A++ Largest', exact: true })).toBeFocused();
  await page.keyboard.press('Space');
  expect(await rootFontSize(page)).toBe(32);
  await expectNoHorizontalOverflow(page, '404 page at Largest');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the control is absent, and the page reads at the browser size', async ({ page }) => {
    await page.goto('/');
    await expect(control(page)).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Coming soon...');
    expect(await rootFontSize(page)).toBe(16);
  });
});
