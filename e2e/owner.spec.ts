// The owner's dashboard in real Chromium against the real built server, on SQLite and (where
// TEST_DATABASE_URL is set, as in CI) PostgreSQL: an owner added from the terminal signs in with a
// link that arrives through a real SMTP server on loopback, finds a sign-up made a moment before on
// the public page, exports, deletes that person, watches a broadcast go out, and signs out. Every
// page's layout is owner-pages.spec.ts's.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { SmtpSink } from '../src/server/test/smtp-sink';
import { MIN_FORM_TIME_MS } from '../src/shared/signup-schema';
import { expect, test } from './fixtures';
import type { RunningServer } from '../scripts/built-server.mjs';
import {
  databaseUrl,
  EMAIL_RATE,
  engines,
  OTHERS,
  OWNER,
  signUpPeople,
  startOwnerSite,
  type OwnerSite,
} from './support/owner-site';

for (const [index, engine] of engines.entries()) {
  test.describe(`the owner's dashboard on ${engine.name}`, () => {
    test.skip(engine.name === 'postgres' && !databaseUrl, 'needs PostgreSQL: set TEST_DATABASE_URL');
    test.describe.configure({ mode: 'serial' });

    let site: OwnerSite;
    let server: RunningServer;
    let sink: SmtpSink;
    test.beforeAll(async () => {
      site = await startOwnerSite(engine, 4500 + index * 10 + test.info().workerIndex, EMAIL_RATE);
      ({ server, sink } = site);
    });
    test.afterAll(async () => site?.stop());
    const npm = (...args: string[]) => site.npm(...args);

    async function signUpOnThePage(page: Page, email: string) {
      await page.goto(server.url);
      await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
      await page.getByLabel('Your Name').fill('Rosa Díaz');
      await page.getByLabel('Phone Number').fill('+1 (555) 123-4567');
      await page.getByLabel('Email Address').fill(email);
      await page.waitForTimeout(MIN_FORM_TIME_MS);
      await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
      await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
    }

    /** Asks for a link on the sign-in page, with the keyboard alone, and follows it from the email. */
    async function signIn(page: Page) {
      await page.goto(`${server.url}/owner/sign-in`);
      await page.keyboard.press('Tab'); // the skip link
      await page.keyboard.press('Tab'); // ScamSavvy
      await page.keyboard.press('Tab');
      await expect(page.getByLabel('Your email address')).toBeFocused();
      const toOwner = () => sink.messages().filter((received) => received.envelope.to.includes(OWNER));
      const before = toOwner().length;
      await page.keyboard.type(OWNER);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
      await expect.poll(() => toOwner().length, { timeout: 15_000 }).toBe(before + 1);
      const link = toOwner()
        .at(-1)
        ?.parsed.text?.match(/http:\/\/127\.0\.0\.1:\d+\/owner\/sign-in\/[A-Za-z0-9_-]{43}/)?.[0];
      expect(link, 'the sign-in link in the email').toBeTruthy();
      await page.goto(link ?? '');
      await page.getByRole('button', { name: 'Sign me in' }).click();
      await expect(page.getByRole('heading', { name: 'How the list is growing' })).toBeVisible();
    }

    async function downloaded(page: Page, name: string): Promise<string> {
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name }).click();
      return readFileSync(await (await download).path(), 'utf8');
    }

    test('an owner added from the terminal signs in by email, finds, exports and deletes a sign-up, runs a broadcast, and signs out', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      expect(await npm('owner:add', '--', '--email', OWNER)).toContain(`${OWNER} is an owner now.`);
      const email = `rosa.${randomUUID()}@example.com`;
      await signUpOnThePage(page, email);

      await signIn(page);
      await expect(page.locator('[data-figure="people"] .figure__value')).toHaveText('1');
      await expect(page.locator('[data-figure="today"] .figure__value')).toHaveText('1');
      await expect(page.getByRole('img', { name: /Bar chart of new people per day/ })).toBeVisible();

      // Find the person, and look at their record.
      await page.getByRole('link', { name: 'People', exact: true }).click();
      await page.getByLabel('Search by email or phone').fill(email.slice(0, 12));
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByRole('heading', { name: /1 person matches/ })).toBeVisible();
      await page.getByRole('link', { name: 'Open Rosa Díaz’s record' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Rosa Díaz' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Consent history' })).toContainText('The sign-up form');
      await expect(page.getByRole('region', { name: 'Their details' })).toContainText('+15551234567');

      // Export: the person is in it.
      await page.getByRole('link', { name: 'People', exact: true }).click();
      expect(await downloaded(page, 'Download CSV')).toContain(email);

      // Delete them (the data request): the question first, then the button.
      await page.getByLabel('Search by email or phone').fill(email);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: 'Open Rosa Díaz’s record' }).click();
      await page.getByRole('link', { name: 'Delete this person…' }).click();
      await expect(page.getByRole('heading', { name: 'Delete this person?' })).toBeVisible();
      await page.getByRole('button', { name: 'Yes, delete them' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Deleted' })).toBeVisible();
      expect(await downloaded(page, 'Download CSV')).not.toContain(email);
      expect(JSON.parse(await downloaded(page, 'Download JSON'))).toEqual([]);

      // Launch day: people to tell, a broadcast made from the terminal, sent from here.
      await signUpPeople(server, OTHERS);
      await npm('broadcast', '--', 'create', '--name', 'launch', '--template', 'launch', '--channels', 'email');
      await page.getByRole('link', { name: 'Launch day' }).click();
      await page.getByRole('link', { name: 'Open “launch”' }).click();
      await expect(page.locator('[data-live="state"]')).toHaveText('Ready to send');
      // One real test message first, to an address the owner types.
      await page.getByLabel('Email address or phone number to send one test message to').fill('me@example.com');
      await page.getByRole('button', { name: 'Send a test…' }).click();
      await page.getByRole('button', { name: 'Yes, send the test' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Sent a test to m•••@example.com.' })).toBeVisible();
      expect(sink.messages().filter((received) => received.envelope.to.includes('me@example.com'))).toHaveLength(1);

      await page.getByRole('link', { name: 'Send to everyone…' }).click();
      await expect(
        page.getByRole('heading', { name: /Send “launch” to everyone in it \(16 messages\)/ }),
      ).toBeVisible();
      // This test's site is no one's domain: the launch checks are red, and the question says so.
      await expect(page.getByText('Not ready for launch: these checks are red.')).toBeVisible();
      await page.getByRole('button', { name: 'Yes, send it' }).click();
      await expect(page.getByRole('heading', { name: /Send “launch” to everyone in it/ })).toBeVisible(); // the box is required
      await page.getByLabel('Send anyway, knowing these are red (recorded in the audit log)').check();
      await page.getByRole('button', { name: 'Yes, send it' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Sending has started.' })).toBeVisible();
      // The counts move without a reload: the page's own marker survives while they do.
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      const sent = page.locator('[data-live="email.sent"]');
      const state = page.locator('[data-live="state"]');
      await expect(sent).not.toHaveText('0', { timeout: 15_000 });
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

      // Pause: the count stops (at most the message in flight goes), then resume to the end.
      await page.getByRole('link', { name: 'Pause…' }).click();
      await expect(page.getByRole('heading', { name: /Pause “launch”\?/ })).toBeVisible();
      await page.getByRole('button', { name: 'Yes, pause' }).click();
      await expect(state).toHaveText('Paused');
      // The sender stops once the message in flight at the pause is recorded (the product says when,
      // however long that takes here); from then on the count stands still.
      await expect(page.locator('[data-live="senders"]')).toHaveText('0', { timeout: 30_000 });
      const atPause = Number(await sent.textContent());
      await page.waitForTimeout(4_000);
      expect(Number(await sent.textContent())).toBe(atPause);
      expect(atPause).toBeLessThan(OTHERS);
      await page.getByRole('link', { name: 'Resume sending…' }).click();
      await page.getByRole('button', { name: 'Yes, resume' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Sending has resumed.' })).toBeVisible();
      await expect(state).toHaveText('Finished', { timeout: 30_000 });
      await expect(sent).toHaveText(String(OTHERS));
      // Everyone got the launch news, once.
      const told = sink
        .messages()
        .flatMap((received) => received.envelope.to)
        .filter((to) => to.startsWith('person'));
      expect(told).toHaveLength(OTHERS);
      expect(new Set(told).size).toBe(OTHERS);

      // The audit log has every look at, export and deletion of people's data.
      await page.getByRole('link', { name: 'Audit log' }).click();
      for (const action of ['Signed in', 'Looked at a person', 'Exported the list', 'Deleted a person', 'Launch day'])
        await expect(page.getByRole('cell', { name: action }).first()).toBeVisible();

      // Sign out: the back button shows nothing of the dashboard.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page.getByRole('heading', { name: 'Signed out' })).toBeVisible();
      await page.goBack();
      await expect(page.getByRole('heading', { name: 'Sign in to the dashboard' })).toBeVisible();
      await expect(page.locator('body')).not.toContainText('Signed in as');
      await page.goto(`${server.url}/owner/people`);
      await expect(page).toHaveURL(/\/owner\/sign-in$/);
    });

    test('the dashboard works with the keyboard alone, focus always visible', async ({ page }) => {
      await signIn(page);
      for (const url of ['/owner', '/owner/people?q=person', '/owner/broadcasts/launch', '/owner/audit']) {
        await page.goto(`${server.url}${url}`);
        const seen: { name: string; width: number; style: string }[] = [];
        for (let step = 0; step < 40; step += 1) {
          await page.keyboard.press('Tab');
          const focused = await page.evaluate(() => {
            const element = document.activeElement as HTMLElement;
            if (element === document.body) return null;
            const style = getComputedStyle(element);
            return {
              name: `${element.tagName} ${element.textContent?.trim().slice(0, 30) ?? ''}`,
              width: parseFloat(style.outlineWidth),
              style: style.outlineStyle,
            };
          });
          if (!focused) break;
          seen.push(focused);
        }
        expect(seen.length, url).toBeGreaterThan(5);
        expect(
          seen.filter((focus) => focus.width < 2 || focus.style === 'none'),
          url,
        ).toEqual([]);
      }
      // Search and open a record without the mouse.
      await page.goto(`${server.url}/owner/people`);
      await page.getByLabel('Search by email or phone').focus();
      await page.keyboard.type('person1');
      await page.keyboard.press('Enter');
      await page
        .getByRole('link', { name: /Open Person 1/ })
        .first()
        .focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 2, name: 'Consent history' })).toBeVisible();
    });
  });
}

// 200% zoom of a 1280 x 900 window lays a page out in 640 x 450 CSS pixels.
