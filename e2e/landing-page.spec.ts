import {
  carousel,
  closingCallToAction,
  hero,
  scamStatistics,
  showSections,
  simpleSafeLearning,
} from '../src/client/content-en';
import { expect, test } from './fixtures';
import { readFileSync } from 'node:fs';

test('the server sends the hero, statistics and steps in its HTML, before any script runs', async ({ request }) => {
  const response = await request.get('/');
  expect(response.status()).toBe(200);
  const html = await response.text();
  for (const text of [
    'Coming soon...',
    'Protect My Family — Notify Me On App Release!',
    '$16.6 Billion Lost to Scams',
    '$33,915',
    'Simple, Safe Learning',
    'Family Updates',
  ]) {
    expect(html).toContain(text);
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the page still reads in full', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(hero.comingSoon);
    await expect(page.getByRole('heading', { name: scamStatistics.heading })).toBeVisible();
    await expect(page.getByRole('heading', { name: simpleSafeLearning.heading })).toBeVisible();
  });
});

test('shows every visible section of the spec with its texts', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/ScamSavvy/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('banner').getByText('ScamSavvy')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`ScamSavvy: ${hero.comingSoon}`);
  await expect(page.getByText(hero.description[0] ?? '')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' })).toBeVisible();
  await expect(page.getByRole('region', { name: carousel.label })).toBeVisible();

  const statistics = page.getByRole('region', { name: '$16.6 Billion Lost to Scams' });
  for (const [figure, caption] of [
    ['1 in 5', 'seniors targeted yearly'],
    ['$33,915', 'average loss per victim'],
    ['1 in 2', 'successful scams go unreported'],
  ] as const) {
    const item = statistics.getByRole('list').first().getByRole('listitem').filter({ hasText: caption });
    await expect(item).toContainText(figure);
  }
  await expect(statistics.getByText(/Sources/)).toBeVisible();
  await expect(statistics.getByRole('link', { name: /2024 Internet Crime Report/ })).toBeVisible();

  const steps = page.getByRole('region', { name: 'Simple, Safe Learning' }).getByRole('listitem');
  await expect(steps).toHaveCount(3);
  for (const [index, title] of ['Practice Scenarios', 'Get Feedback', 'Family Updates'].entries()) {
    await expect(steps.nth(index)).toContainText(String(index + 1));
    await expect(steps.nth(index).getByRole('heading')).toHaveText(`Step ${index + 1}: ${title}`);
  }

  // The year the page was built, by the build's clock (scripts/build.mjs records when).
  const { builtAt } = JSON.parse(readFileSync('dist/build-info.json', 'utf8')) as { builtAt: string };
  const year = new Date(builtAt).getFullYear();
  await expect(page.getByRole('contentinfo')).toContainText(`© ${year} ScamSavvy. All rights reserved.`);
});

const hiddenSections = [
  { id: 'founder-story', flag: 'founderStory', heading: 'Why We Are Building ScamSavvy' },
  {
    id: 'how-it-protects',
    flag: 'howItProtects',
    heading: 'How ScamSavvy Protects Your Family',
    texts: ['Interactive Learning', 'Scam Protection', 'Family Connection'],
  },
  { id: 'real-protection', flag: 'realProtection', heading: 'Real Protection, Gentle Learning' },
  {
    id: 'built-for-families',
    flag: 'builtForFamilies',
    heading: 'Built for Families Who Care',
    texts: ['For Adult Children', 'For Seniors'],
  },
  {
    id: 'closing-call-to-action',
    flag: 'closingCallToAction',
    heading: closingCallToAction.heading,
    texts: [closingCallToAction.signupButton],
  },
] as const;

// A section the owner has switched on in content.ts is no longer expected to be hidden.
for (const section of hiddenSections.filter(({ flag }) => !showSections[flag])) {
  test(`keeps the "${section.heading}" section in the page but hidden from sight and from screen readers`, async ({
    page,
  }) => {
    await page.goto('/');
    const element = page.locator(`#${section.id}`);
    await expect(element).toHaveCount(1);
    await expect(element).toBeHidden();
    await expect(element).toContainText(section.heading);
    for (const text of 'texts' in section ? section.texts : []) await expect(element).toContainText(text);
    await expect(page.getByRole('heading', { name: section.heading })).toHaveCount(0);
  });
}

test('the hidden "Real Protection" list has five items', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('#real-protection li')).toHaveCount(5);
});

for (const width of [320, 390, 1440]) {
  test(`fits a ${width} px wide screen without sideways scrolling`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('body text is at least 18 px with a line height of at least 1.5', async ({ page }) => {
  await page.goto('/');
  const { fontSize, lineHeight } = await page
    .locator('.steps__text')
    .first()
    .evaluate((element) => {
      const style = getComputedStyle(element);
      return { fontSize: parseFloat(style.fontSize), lineHeight: parseFloat(style.lineHeight) };
    });
  expect(fontSize).toBeGreaterThanOrEqual(18);
  expect(lineHeight / fontSize).toBeGreaterThanOrEqual(1.5);
});
