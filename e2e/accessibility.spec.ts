// WCAG 2.2 AA in every state of the page, proved in Chromium: axe, the keyboard, zoom and sizes.
import type { Page } from '@playwright/test';
import { MIN_FORM_TIME_MS } from '../src/shared/signup-schema';
import { expect, test } from './fixtures';
import { expectNoHorizontalOverflow, expectNoViolations } from './support/a11y';
import { interceptProviders, TEST_IDS } from './support/providers';
import { startBuiltServer, type RunningServer } from '../scripts/built-server.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const HERO_BUTTON = 'Protect My Family — Notify Me On App Release!';

async function openDialog(page: Page) {
  await page.getByRole('button', { name: HERO_BUTTON }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
}

async function fillValid(page: Page, email: string) {
  await page.getByLabel('Your Name').fill('Rosa Díaz');
  await page.getByLabel('Phone Number').fill('555 123 4567');
  await page.getByLabel('Email Address').fill(email);
  // No waiting: the page itself waits out the bot check's minimum time before it sends.
}

const unique = (label: string) => `${label}.${randomUUID()}@example.com`;

test.describe('axe: no violations', () => {
  test('the check itself finds an AA problem and text below 7:1 contrast, in its one pass', async ({ page }) => {
    // #767676 on white is 4.54:1: enough for AA, not for the enhanced 7:1; an image without alt fails AA.
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1>' +
        '<p style="color:#767676;background:#fff">Grey on white.</p><img src="data:,"></main></body></html>',
    );
    const failure = await expectNoViolations(page, 'made to fail').then(
      () => '',
      (error: Error) => error.message,
    );
    expect(failure).toContain('color-contrast-enhanced');
    expect(failure).toContain('image-alt');
    expect(failure).not.toContain('color-contrast:');
  });

  test('the landing page, with motion', async ({ page }) => {
    await page.goto('/');
    await expectNoViolations(page, 'landing page');
  });

  test('the landing page, with reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await expectNoViolations(page, 'landing page, reduced motion');
  });

  // One state of the dialog a test, each reached from a fresh page.
  test('the dialog, open', async ({ page }) => {
    await page.goto('/');
    await openDialog(page);
    await expectNoViolations(page, 'dialog open');
  });

  test('the dialog, every required field missing', async ({ page }) => {
    await page.goto('/');
    await openDialog(page);
    await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toBeFocused();
    await expectNoViolations(page, 'dialog, required errors');
  });

  test('the dialog, every field in the wrong form', async ({ page }) => {
    await page.goto('/');
    await openDialog(page);
    await page.getByLabel('Your Name').fill('R');
    await page.getByLabel('Phone Number').fill('0123');
    await page.getByLabel('Email Address').fill('rosa@');
    await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
    await expect(page.getByText('Name must be at least 2 characters').first()).toBeVisible();
    await expect(page.getByText('Please enter a valid phone number').first()).toBeVisible();
    await expect(page.getByText('Please enter a valid email address').first()).toBeVisible();
    await expectNoViolations(page, 'dialog, format errors');
  });

  test('the dialog, submitting', async ({ page }) => {
    // Hold the request (it still reaches the real server) to look at the submitting state.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/signups', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await openDialog(page);
    await fillValid(page, unique('axe'));
    await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
    await expect(page.getByRole('button', { name: 'Adding to Protection List...' })).toBeDisabled();
    await expectNoViolations(page, 'dialog, submitting');
    release();
    await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
  });

  test('the dialog, the success view', async ({ page }) => {
    await page.goto('/');
    await openDialog(page);
    await fillValid(page, unique('axe'));
    await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
    await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeFocused();
    await expectNoViolations(page, 'dialog, success view');
  });

  test('the 404 page', async ({ page, console: consoleWatch }) => {
    consoleWatch.expectError(/404/);
    await page.goto('/missing.html');
    await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
    await expectNoViolations(page, '404 page');
  });

  test('every hidden section, switched on', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    // The owner's switch (content.ts) does exactly this: the sections are in the page, marked hidden.
    const switched = await page.evaluate(() => {
      const sections = Array.from(document.querySelectorAll('main section[hidden]'));
      for (const section of sections) section.removeAttribute('hidden');
      return sections.map((section) => section.id);
    });
    expect(switched).toEqual([
      'founder-story',
      'how-it-protects',
      'real-protection',
      'built-for-families',
      'closing-call-to-action',
    ]);
    await expectNoViolations(page, 'hidden sections switched on');
  });
});

test.describe('with analytics providers configured', () => {
  let server: RunningServer;
  let dataDir: string;
  test.beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-a11y-'));
    server = await startBuiltServer(4370 + test.info().workerIndex, {
      ...TEST_IDS,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'a11y.db')}`,
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the consent banner has no violations', async ({ page, context }) => {
    await interceptProviders(context);
    await page.goto(`${server.url}/`);
    await expect(page.getByRole('button', { name: /^Accept/ })).toBeVisible();
    await expectNoViolations(page, 'consent banner');
  });

  test('the privacy notice, opened from the banner, has no violations', async ({ page, context }) => {
    await interceptProviders(context);
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Read our privacy notice' }).click();
    await expect(page.getByRole('heading', { name: 'When you sign up' })).toBeVisible();
    await expectNoViolations(page, 'privacy notice open');
  });

  test('no control that takes focus is hidden behind the banner (WCAG 2.4.11)', async ({ page, context }) => {
    await interceptProviders(context);
    await page.setViewportSize({ width: 390, height: 700 });
    await page.goto(`${server.url}/`);
    const banner = page.getByRole('region', { name: 'May we use cookies?' });
    await expect(banner).toBeVisible();
    let visited = 0;
    for (let step = 0; step < 80; step++) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        const bannerElement = document.querySelector('.consent-banner');
        if (!element || element === document.body || !bannerElement) return null;
        if (element.dataset.a11yVisited) return 'lap';
        element.dataset.a11yVisited = 'yes';
        const box = element.getBoundingClientRect();
        const cover = bannerElement.getBoundingClientRect();
        return {
          label: `${element.tagName} ${element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40)}`,
          inBanner: bannerElement.contains(element),
          hidden: box.bottom > cover.top + 1,
        };
      });
      if (focus === null || focus === 'lap') break;
      visited++;
      if (!focus.inBanner) expect(focus.hidden, `${focus.label} is behind the banner`).toBe(false);
    }
    expect(visited).toBeGreaterThan(10);
  });
});

test('the whole sign-up with the keyboard alone: focus is where it should be at every step', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/');
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      return element.getAttribute('aria-label') ?? element.id ?? '';
    });
  const focusedName = () => page.evaluate(() => (document.activeElement as HTMLElement).innerText.trim());

  // The skip link comes first and takes the visitor to the main content.
  await page.keyboard.press('Tab');
  expect(await focusedName()).toBe('Skip to main content');

  // Focus order follows the page from top to bottom until the hero's button.
  const tops: number[] = [];
  for (let step = 0; step < 20 && (await focusedName()) !== HERO_BUTTON; step++) {
    await page.keyboard.press('Tab');
    tops.push(await page.evaluate(() => (document.activeElement as HTMLElement).getBoundingClientRect().top + scrollY));
  }
  expect(await focusedName()).toBe(HERO_BUTTON);
  expect(tops).toEqual([...tops].sort((a, b) => a - b));

  // Enter opens the dialog; focus moves into it.
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);

  // Focus stays inside: a full lap of Tab, and one of Shift+Tab, never leaves the dialog.
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let step = 0; step < 12; step++) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
  }

  // Submitting empty: the error summary takes focus, and its links lead to the fields.
  await page.getByLabel('Your Name').focus();
  for (let step = 0; step < 12 && (await focusedName()) !== 'Protect My Family - Notify Me!'; step++) {
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await focusedName()).toBe('Name is required');
  await page.keyboard.press('Enter');
  expect(await focused()).toBe('signup-name');
  await expect(page.getByLabel('Your Name')).toHaveAttribute('aria-invalid', 'true');

  // Fix every error, move on with Tab, tick the box with Space.
  await page.keyboard.type('Rosa Díaz');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('signup-phone');
  await page.keyboard.type('555 123 4567');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('signup-email');
  await page.keyboard.type(unique('keyboard'));
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('signup-beta-testing');
  await page.keyboard.press('Space');
  await expect(page.getByLabel('Check if you would like to participate in beta testing')).toBeChecked();
  // The consent text's link to the privacy notice comes before the button that sends.
  await page.keyboard.press('Tab');
  expect(await focusedName()).toBe('Read our privacy notice.');
  await page.keyboard.press('Tab');
  expect(await focusedName()).toBe('Protect My Family - Notify Me!');
  await page.waitForTimeout(MIN_FORM_TIME_MS);
  await page.keyboard.press('Enter');

  // The success view is announced: focus on its heading, inside a status region.
  const heading = page.getByRole('heading', { name: "You're On the Protection List!" });
  await expect(heading).toBeFocused();
  await expect(page.getByRole('status')).toContainText("You're On the Protection List!");
  // Then "Tell a family member" (its panel stays closed), then the button that closes the dialog.
  await page.keyboard.press('Tab');
  expect(await focusedName()).toBe('Tell a family member');
  await page.keyboard.press('Tab');
  expect(await focusedName()).toBe('Got it - Keep my family safe!');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  // Radix hands focus back a task after the dialog leaves the page: wait for it, do not race it.
  await expect.poll(focusedName).toBe(HERO_BUTTON);

  // Escape closes it too, and focus returns to the button again.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(focusedName).toBe(HERO_BUTTON);
});

test.describe('zoom, small screens and sizes', () => {
  // 200% zoom of a 1280 x 900 window lays the page out in 640 x 450 CSS pixels.
  for (const [label, width, height] of [
    ['320 px wide', 320, 640],
    ['200% zoom', 640, 450],
  ] as const) {
    test(`nothing overflows sideways at ${label}: page, dialog with errors, 404`, async ({
      page,
      console: consoleWatch,
    }) => {
      consoleWatch.expectError(/404/);
      await page.setViewportSize({ width, height });
      await page.goto('/');
      await expectNoHorizontalOverflow(page, `${label}: landing page`);
      await openDialog(page);
      await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
      await expect(page.getByText('There is a problem')).toBeVisible();
      await expectNoHorizontalOverflow(page, `${label}: dialog with errors`);
      await page.goto('/missing.html');
      await expectNoHorizontalOverflow(page, `${label}: 404 page`);
    });
  }

  test('body text is at least 18 px with a line height of at least 1.5, set in rem', async ({ page }) => {
    await page.goto('/');
    const text = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('main p, main li, footer p'))
        .filter((element) => element.offsetParent !== null && element.innerText.trim() !== '')
        .map((element) => {
          const style = getComputedStyle(element);
          return {
            text: element.innerText.slice(0, 30),
            size: parseFloat(style.fontSize),
            lineHeight: parseFloat(style.lineHeight) / parseFloat(style.fontSize),
          };
        }),
    );
    expect(text.length).toBeGreaterThan(10);
    const small = text.filter((item) => item.size < 18 || item.lineHeight < 1.5);
    expect(small).toEqual([]);
    // In rem: a visitor's larger browser text size makes it larger.
    await page.evaluate(() => (document.documentElement.style.fontSize = '125%'));
    const body = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
    expect(body).toBeGreaterThanOrEqual(24);
  });

  test('every control is at least 44 x 44 CSS px, the carousel pickers included', async ({ page }) => {
    await page.goto('/');
    await openDialog(page);
    await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
    await expect(page.getByText('There is a problem')).toBeVisible();
    const measure = () =>
      page.evaluate(() =>
        Array.from(
          document.querySelectorAll<HTMLElement>(
            'button, input:not([type="hidden"]), summary, a[href], [role="button"]',
          ),
        )
          .filter((element) => element.offsetParent !== null && !element.closest('[aria-hidden="true"]'))
          // A link in running text is exempt (WCAG 2.5.8's inline exception: the sentence's line
          // height sets its size); a link alone in its paragraph or list item counts like any control.
          .filter((element) => {
            if (element.tagName !== 'A' || element.classList.contains('button')) return true;
            const block = element.closest('p, li');
            return !block || block.textContent?.trim() === element.textContent?.trim();
          })
          .map((element) => {
            const box = element.getBoundingClientRect();
            return {
              name: `${element.tagName} ${element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30)}`,
              width: box.width,
              height: box.height,
            };
          }),
      );
    const inDialog = await measure();
    await page.keyboard.press('Escape');
    const onPage = await measure();
    const all = [...inDialog, ...onPage];
    expect(all.some((target) => target.name.includes('Show preview 1'))).toBe(true);
    expect(all.filter((target) => target.width < 44 || target.height < 44)).toEqual([]);
  });

  test('focus is always visible: at least a 2 px outline on every control', async ({ page }) => {
    await page.goto('/');
    const outlines: { name: string; width: number; style: string }[] = [];
    for (let step = 0; step < 25; step++) {
      await page.keyboard.press('Tab');
      const outline = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        if (element === document.body) return null; // past the last control
        const style = getComputedStyle(element);
        return {
          name: `${element.tagName} ${element.textContent?.trim().slice(0, 30)}`,
          width: parseFloat(style.outlineWidth),
          style: style.outlineStyle,
        };
      });
      if (!outline) break;
      outlines.push(outline);
    }
    expect(outlines.length).toBeGreaterThan(10);
    expect(outlines.filter((outline) => outline.width < 2 || outline.style === 'none')).toEqual([]);
  });
});
