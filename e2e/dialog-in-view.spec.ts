// The sign-up dialog's submit button and consent line are inside the first view of the dialog on every
// screen from 320 x 568 up, at every text size, in both languages (decision 059): the fields scroll
// above them. A keyboard still reaches everything in order, and no heading breaks inside a word.
import type { Locator, Page } from '@playwright/test';
import { signupDialog as signupEn } from '../src/client/signup-content-en';
import { signupDialog as signupEs } from '../src/client/signup-content-es';
import { hero as heroEn } from '../src/client/content-en';
import { hero as heroEs } from '../src/client/content-es';
import { TEXT_SIZE_STORAGE_KEY, TEXT_SIZES } from '../src/shared/text-size';
import { expect, test } from './fixtures';
import { wordsBrokenInside } from './support/a11y';

const SCREENS = [
  { width: 320, height: 568 },
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const LANGUAGES = [
  { path: '/', hero: heroEn, words: signupEn },
  { path: '/es/', hero: heroEs, words: signupEs },
];

/** Wholly inside the window's first view: not merely visible somewhere after a scroll. */
async function expectInView(page: Page, element: Locator, what: string) {
  const box = await element.boundingBox();
  const view = page.viewportSize();
  expect(box, what).not.toBeNull();
  if (!box || !view) return;
  expect(box.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${what}: bottom`).toBeLessThanOrEqual(view.height);
  expect(box.x, `${what}: left`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right`).toBeLessThanOrEqual(view.width);
}

for (const language of LANGUAGES) {
  for (const screen of SCREENS) {
    test(`${language.path} at ${screen.width}x${screen.height}: the submit button and consent line are in the first view at every text size`, async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(screen);
      for (const size of TEXT_SIZES) {
        const state = `${language.path} ${screen.width}x${screen.height} at ${size.percent}%`;
        await page.addInitScript(([key, id]) => localStorage.setItem(key, id), [
          TEXT_SIZE_STORAGE_KEY,
          size.id,
        ] as const);
        await page.goto(language.path);
        expect(await wordsBrokenInside(page, 'h1, h2, h3'), `${state}: the page's headings`).toEqual([]);
        await page.getByRole('button', { name: language.hero.signupButton }).first().click();
        const dialog = page.getByRole('dialog');
        await expect(dialog).toBeVisible();
        const submit = dialog.getByRole('button', { name: language.words.submit });
        await expect(submit).toBeVisible();
        await expectInView(page, submit, `${state}: the submit button`);
        await expectInView(page, dialog.getByText(language.words.consent), `${state}: the consent line`);
        await expectInView(
          page,
          dialog.getByRole('button', { name: language.words.maybeLater }),
          `${state}: Maybe Later`,
        );
        // Within the dialog's 90% of the window (spec section 9), its foot included.
        const box = await dialog.boundingBox();
        expect(box?.height ?? Infinity, `${state}: the dialog's height`).toBeLessThanOrEqual(screen.height * 0.9 + 1);
        expect(await wordsBrokenInside(page, 'h1, h2, h3'), `${state}: the dialog's title`).toEqual([]);
        await testInfo.attach(`dialog ${state}`, { body: await page.screenshot(), contentType: 'image/png' });
      }
    });
  }
}

test('at the largest text on the smallest phone, a keyboard reaches every field, the consent and both buttons in order', async ({
  page,
}) => {
  await page.setViewportSize({ width: 320, height: 568 });
  await page.addInitScript((key) => localStorage.setItem(key, 'largest'), TEXT_SIZE_STORAGE_KEY);
  await page.goto('/');
  await page.getByRole('button', { name: heroEn.signupButton }).first().click();
  const dialog = page.getByRole('dialog');
  // Radix focuses the first control: the close button in the corner; then the form, top to bottom.
  await expect(dialog.getByRole('button', { name: signupEn.close })).toBeFocused();
  const order = [
    dialog.getByLabel('Your Name'),
    dialog.getByLabel('Phone Number'),
    dialog.getByLabel('Email Address'),
    dialog.getByRole('checkbox', { name: signupEn.betaTesting.label }),
    dialog.getByRole('link', { name: signupEn.privacyLink }),
    dialog.getByRole('button', { name: signupEn.submit }),
    dialog.getByRole('button', { name: signupEn.maybeLater }),
  ];
  for (const next of order) {
    await page.keyboard.press('Tab');
    await expect(next).toBeFocused();
    // What has focus is scrolled into the dialog's view, never hidden behind its foot.
    await expectInView(page, next, `focus on ${await next.evaluate((element) => element.outerHTML.slice(0, 60))}`);
  }
});
