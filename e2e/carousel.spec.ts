import type { Page } from '@playwright/test';
import { carousel } from '../src/client/content-en';
import { expect, test } from './fixtures';
import { DAYTIME } from '../src/server/test/clock';

const INTERVAL = carousel.intervalMs;

function picker(page: Page, position: number) {
  return page.getByRole('button', { name: new RegExp(`^Show preview ${position}:`) });
}

async function expectCurrent(page: Page, position: number) {
  await expect(picker(page, position)).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('group', { name: `${position} of 7` })).toBeVisible();
  await expect(page.locator('button[aria-current="true"]')).toHaveCount(1);
}

/** Moves the pointer off the carousel and focus out of it, so rotation may run. */
async function leaveCarousel(page: Page) {
  await page.mouse.move(1, 1);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test.beforeEach(async ({ page }) => {
  await page.clock.install({ time: DAYTIME });
  await page.goto('/');
  // Stop the clock, then restart the slideshow's timer from zero by showing image 1 and leaving.
  // A minute ahead: the page's clock runs on while this is asked, and pausing at a time already
  // past fails; a jump fires each due timer at most once, and showing image 1 restarts it anyway.
  await page.clock.pauseAt(Date.parse(DAYTIME) + 60_000);
  await picker(page, 1).click();
  await leaveCarousel(page);
});

test('has 7 images, each with alt text, and one picker button each', async ({ page }) => {
  const region = page.getByRole('region', { name: carousel.label });
  await expect(region).toHaveAttribute('aria-roledescription', 'carousel');
  const images = region.locator('img');
  await expect(images).toHaveCount(7);
  for (const [index, item] of carousel.items.entries()) {
    await expect(images.nth(index)).toHaveAttribute('alt', item.alt);
    await expect(picker(page, index + 1)).toBeVisible();
  }
  await expect(images.first()).toHaveAttribute('loading', 'eager'); // put in once the page runs, after the words paint
  await expect(images.nth(1)).toHaveAttribute('loading', 'lazy');
  // Every image actually loads.
  for (const [index] of carousel.items.entries()) {
    expect(await images.nth(index).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(
      true,
    );
  }
});

test("the Spanish page shows the app in Spanish: none of the English pictures' words is left in its pictures", async ({
  page,
}) => {
  /** Each picture's words (texts with a word of three letters, less addresses and names), by position. */
  await page.clock.resume(); // the page puts in its other six pictures once it runs
  const wordsOf = async (path: string) => {
    await page.goto(path);
    const images = page.locator('.carousel img');
    await expect(images).toHaveCount(7);
    const sources = await images.evaluateAll((list) => list.map((image) => (image as HTMLImageElement).src));
    return Promise.all(
      sources.map(async (source) => {
        const svg = await (await page.request.get(source)).text();
        const texts = [...svg.matchAll(/>([^<>]+)</g)].map((match) => match[1]?.trim() ?? '');
        return {
          svg,
          texts: texts.filter((text) => /\p{L}{3}/u.test(text) && !/@|\.co|ScamSavvy|Joan|USPS|min$/.test(text)),
        };
      }),
    );
  };
  const english = await wordsOf('/');
  const spanish = await wordsOf('/es/');
  for (const [index, picture] of spanish.entries()) {
    expect(picture.svg, `picture ${index + 1}`).toContain('xml:lang="es"');
    expect(picture.texts.length, `picture ${index + 1} has words`).toBeGreaterThan(3);
    expect(
      picture.texts.filter((text) => english[index]?.texts.includes(text)),
      `picture ${index + 1}`,
    ).toEqual([]);
  }
});

test('advances every 3000 ms and wraps from the last image to the first', async ({ page }) => {
  await expectCurrent(page, 1);
  await page.clock.runFor(INTERVAL - 100);
  await expectCurrent(page, 1);
  await page.clock.runFor(100);
  await expectCurrent(page, 2);
  await page.clock.runFor(INTERVAL * 5);
  await expectCurrent(page, 7);
  await page.clock.runFor(INTERVAL);
  await expectCurrent(page, 1);
});

test('a picker jumps to its image; previous and next step and wrap', async ({ page }) => {
  await picker(page, 5).click();
  await expectCurrent(page, 5);
  await page.getByRole('button', { name: 'Next preview' }).click();
  await expectCurrent(page, 6);
  await page.getByRole('button', { name: 'Next preview' }).click();
  await page.getByRole('button', { name: 'Next preview' }).click();
  await expectCurrent(page, 1);
  await page.getByRole('button', { name: 'Previous preview' }).click();
  await expectCurrent(page, 7);
});

test('the pause button stops rotation and play starts it again', async ({ page }) => {
  await page.getByRole('button', { name: 'Pause slideshow' }).click();
  await leaveCarousel(page);
  await page.clock.runFor(INTERVAL * 3);
  await expectCurrent(page, 1);
  await expect(page.locator('.carousel__slides')).toHaveAttribute('aria-live', 'polite');

  await page.getByRole('button', { name: 'Play slideshow' }).click();
  await leaveCarousel(page);
  await expect(page.locator('.carousel__slides')).toHaveAttribute('aria-live', 'off');
  await page.clock.runFor(INTERVAL);
  await expectCurrent(page, 2);
});

test('rotation stops while the pointer is over the carousel', async ({ page }) => {
  await page.getByRole('group', { name: '1 of 7' }).hover();
  await page.clock.runFor(INTERVAL * 2);
  await expectCurrent(page, 1);
  await leaveCarousel(page);
  await page.clock.runFor(INTERVAL);
  await expectCurrent(page, 2);
});

test('rotation stops while focus is inside the carousel', async ({ page }) => {
  await picker(page, 3).focus();
  await page.clock.runFor(INTERVAL * 2);
  await expectCurrent(page, 1);
  await leaveCarousel(page);
  await page.clock.runFor(INTERVAL);
  await expectCurrent(page, 2);
});

test('rotation stops while the sign-up dialog is open, and goes on once it closes', async ({ page }) => {
  await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.clock.runFor(INTERVAL * 3);
  // The dialog hides the page from the accessibility tree: the pickers are read by their place.
  const pickers = page.locator('.carousel__picker');
  await expect(pickers.nth(0)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await leaveCarousel(page);
  await page.clock.runFor(INTERVAL);
  await expectCurrent(page, 2);
});

test('its controls are at least 44 by 44 pixels', async ({ page }) => {
  const controls = page.getByRole('region', { name: carousel.label }).getByRole('button');
  await expect(controls).toHaveCount(10);
  for (const control of await controls.all()) {
    const box = await control.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);
  }
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });
  test('starts paused, and the visitor may still play it', async ({ page }) => {
    await page.reload();
    await page.clock.runFor(1000); // the clock is paused: let the page's script start (src/client/start.ts)
    await leaveCarousel(page);
    await expect(page.getByRole('button', { name: 'Play slideshow' })).toBeVisible();
    await page.clock.runFor(INTERVAL * 3);
    await expectCurrent(page, 1);
    await page.getByRole('button', { name: 'Play slideshow' }).click();
    await leaveCarousel(page);
    await page.clock.runFor(INTERVAL);
    await expectCurrent(page, 2);
  });
});
