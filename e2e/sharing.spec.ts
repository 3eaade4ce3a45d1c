// "Tell a family member" in real Chromium against the real built server: the phone's share sheet where
// the browser has one, the panel where it does not, a sign-up through a family member's ?ref= link
// recorded for the owner (export, signups:stats, the dashboard), and a made-up or deleted person's code
// attributing to nobody.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { shareLinks, shareWordsIn } from '../src/shared/share-content';

const shareWords = shareWordsIn.en;
import type { SignupRecord } from '../src/shared/signup-schema';
import { expect, test } from './fixtures';
import { expectNoViolations } from './support/a11y';
import { randomUUID } from 'node:crypto';

const run = promisify(execFile);
const HERO_BUTTON = 'Protect My Family — Notify Me On App Release!';
const database = () => `sqlite:${process.env.E2E_DATABASE_FILE}`;

/** An owner's documented command against the test server's database. */
async function npmRun(script: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', script, '--', ...args], {
    env: { ...process.env, DATABASE_URL: database(), ...env },
  });
  return stdout;
}

/** The export as JSON, and one person's record in it. */
async function exportedAll(): Promise<{ text: string; of: (email: string) => SignupRecord }> {
  const text = await npmRun('signups:export', ['--format', 'json']);
  const records = JSON.parse(text) as SignupRecord[];
  return {
    text,
    of: (email) => {
      const found = records.find((record) => record.email === email);
      if (!found) throw new Error(`${email} is not in the export`);
      return found;
    },
  };
}

async function exported(email: string): Promise<SignupRecord> {
  return (await exportedAll()).of(email);
}

const unique = (label: string) => `${label}.${randomUUID()}@example.com`;

/** Signs up from the hero and stays on the success view. */
async function join(page: Page, email: string, path = '/') {
  await page.goto(path);
  await page.getByRole('button', { name: HERO_BUTTON }).click();
  await page.getByLabel('Your Name').fill('Rosa Díaz');
  await page.getByLabel('Phone Number').fill('+15551234567');
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
  await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
}

test('with the Web Share API, "Tell a family member" opens the phone\'s share sheet with the person\'s own link', async ({
  page,
  baseURL,
}) => {
  await page.addInitScript(() => {
    const calls: ShareData[] = [];
    (window as unknown as { shareCalls: ShareData[] }).shareCalls = calls;
    Object.defineProperty(navigator, 'share', {
      value: (data: ShareData) => {
        calls.push(data);
        return Promise.resolve();
      },
    });
  });
  const email = unique('sharer');
  await join(page, email);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: shareWords.prompt })).toBeVisible();
  // The share sheet is the phone's own: no panel of ours opens.
  await dialog.getByRole('button', { name: shareWords.button }).click();
  const { referralCode } = await exported(email);
  expect(referralCode).toMatch(/^[0-9a-z]{12}$/);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { shareCalls: ShareData[] }).shareCalls))
    .toEqual([{ title: shareWords.title, text: shareWords.text, url: `${baseURL}/?ref=${referralCode}` }]);
  await expect(dialog.getByRole('link', { name: shareWords.sms })).toBeHidden();
});

test('without it, the button opens a panel: a text message, an email and Copy, each carrying the link; Copy says so', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000); // 40 s in a CI run on a slow day: a hang guard, not a speed check
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL ?? '' });
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'share', { value: undefined });
  });
  const email = unique('panel');
  await join(page, email);
  const { referralCode } = await exported(email);
  const url = `${baseURL}/?ref=${referralCode}`;
  const dialog = page.getByRole('dialog');
  const button = dialog.getByRole('button', { name: shareWords.button });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const links = shareLinks(url, shareWords);
  await expect(dialog.getByRole('link', { name: shareWords.sms })).toHaveAttribute('href', links.sms);
  await expect(dialog.getByRole('link', { name: shareWords.email })).toHaveAttribute('href', links.email);
  expect(decodeURIComponent(links.sms)).toContain(url);
  expect(decodeURIComponent(links.email)).toContain(url);
  // Every control a 44 px target at least.
  for (const name of [shareWords.button, shareWords.copy]) {
    const box = await dialog.getByRole('button', { name }).boundingBox();
    expect(box?.height ?? 0, name).toBeGreaterThanOrEqual(44);
  }
  await dialog.getByRole('button', { name: shareWords.copy }).click();
  await expect(dialog.getByRole('status').filter({ hasText: shareWords.copied })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expectNoViolations(page, 'the success view with the share panel open');
});

for (const [width, height] of [
  [1280, 800],
  [1280, 720],
  [390, 844],
  [320, 568],
] as const) {
  test(`at ${width} × ${height} the dialog's close button stays whole in view, however far the open share panel is scrolled`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: undefined });
    });
    await join(page, unique('close'));
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: shareWords.button }).click();
    const close = dialog.getByRole('button', { name: 'Close' });
    for (const scroll of ['top', 'middle', 'bottom'] as const) {
      await dialog.evaluate((element, to) => {
        const end = element.scrollHeight - element.clientHeight;
        element.scrollTop = to === 'top' ? 0 : to === 'middle' ? end / 2 : end;
      }, scroll);
      const [box, frame] = [await close.boundingBox(), await dialog.boundingBox()];
      expect(box && frame, scroll).toBeTruthy();
      expect(box!.height, scroll).toBeGreaterThanOrEqual(44);
      expect(box!.y, `${scroll}: the button's top within the dialog`).toBeGreaterThanOrEqual(frame!.y);
      expect(box!.y + box!.height, `${scroll}: its bottom within the dialog`).toBeLessThanOrEqual(
        frame!.y + frame!.height,
      );
      expect(box!.x + box!.width, `${scroll}: its right edge within the dialog`).toBeLessThanOrEqual(
        frame!.x + frame!.width,
      );
      // Nothing else of the dialog is drawn over it: its middle is the button itself.
      expect(
        await close.evaluate((button) => {
          const rect = button.getBoundingClientRect();
          const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
          return top !== null && button.contains(top);
        }),
        scroll,
      ).toBe(true);
    }
  });
}

test("a sign-up through a family member's link is theirs in the export, signups:stats and the dashboard; a made-up or deleted person's code attributes to nobody", async ({
  page,
  browser,
  baseURL,
}) => {
  // Seven owner's commands (each starts npm, the build check and node) and four pages: 40 s alone on
  // two cores, over two minutes beside the busy suite. A limit to catch a hang, not to time the machine.
  test.setTimeout(300_000);
  const rosa = unique('rosa');
  await join(page, rosa);
  const { referralCode, id: rosaId } = await exported(rosa);

  // A visitor through Rosa's link sees the ordinary page, and the code leaves the address bar at once.
  const visitor = await browser.newPage();
  const sam = unique('sam');
  await join(visitor, sam, `/?ref=${referralCode}&utm_source=family`);
  expect(new URL(visitor.url()).search).toBe('?utm_source=family');
  await expect(visitor.getByText(/invited you/i)).toHaveCount(0);

  // A code of the right form that is nobody's (each visitor their own browser: a visit keeps where it first came from).
  const other = await browser.newPage();
  const lee = unique('lee');
  await join(other, lee, '/?ref=abcdefghjkmn');
  const before = await exportedAll();
  expect(before.of(sam)).toMatchObject({ referredBy: referralCode, utmSource: 'family' });
  expect(before.of(sam).referralCode).not.toBe(referralCode);
  expect(before.of(lee)).toMatchObject({ referredBy: null });

  // The owner sees it: signups:stats, and the dashboard's overview and Rosa's page.
  expect(await npmRun('signups:stats', [])).toMatch(/Through family link\s+[1-9]/);
  await npmRun('owner:add', ['--email', 'family-owner@example.com']);
  const link = (await npmRun('owner:link', ['--email', 'family-owner@example.com'], { SITE_URL: baseURL ?? '' }))
    .split(/\s+/)
    .find((word) => word.startsWith('http'));
  const owner = await browser.newPage();
  await owner.goto(link ?? '');
  await owner.getByRole('button', { name: 'Sign me in' }).click();
  const figure = owner.locator('[data-figure="family"]');
  await expect(figure).toContainText("Came through a family member's link");
  expect(Number((await figure.locator('.figure__value').textContent())?.replace(/,/g, ''))).toBeGreaterThanOrEqual(1);
  await owner.goto(`${baseURL}/owner/people/${rosaId}`);
  await expect(owner.getByRole('row', { name: /People who joined through their link/ })).toContainText('1');

  // Rosa deletes her details: her code stops attributing, and leaves the export.
  await npmRun('signups:delete', ['--email', rosa]);
  const nina = unique('nina');
  const late = await browser.newPage();
  await join(late, nina, `/?ref=${referralCode}`);
  const after = await exportedAll();
  expect(after.of(sam)).toMatchObject({ referredBy: null });
  expect(after.of(nina)).toMatchObject({ referredBy: null });
  expect(after.text).not.toContain(referralCode);
  await Promise.all([visitor.close(), other.close(), late.close(), owner.close()]);
});
