// The owner's dashboard in real Chromium against the real built server, on SQLite and (where
// TEST_DATABASE_URL is set, as in CI) PostgreSQL: an owner added from the terminal signs in with a
// link that arrives through a real SMTP server on loopback, finds a sign-up made a moment before on
// the public page, exports, deletes that person, watches a broadcast go out, and signs out; and every
// page of the dashboard, one page a test at every size in turn, passes axe and fits a small screen.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from '@playwright/test';
import pg from 'pg';
import { startSmtpSink, type SmtpSink } from '../src/server/test/smtp-sink';
import { MIN_FORM_TIME_MS } from '../src/shared/signup-schema';
import { expect, test } from './fixtures';
import { expectLabelsInNames, expectNoViolations, wordsBrokenInside } from './support/a11y';
import { startBuiltServer, type RunningServer } from '../scripts/built-server.mjs';
import { randomUUID } from 'node:crypto';

const run = promisify(execFile);
const OWNER = 'owner@example.com';
/** Slow enough to watch the counts move, quick enough for a test. */
const EMAIL_RATE = '2';
const OTHERS = 16;

const databaseUrl = process.env.TEST_DATABASE_URL;

interface Engine {
  name: 'sqlite' | 'postgres';
  /** A fresh database: its DATABASE_URL, and how to remove it. */
  create: (dir: string) => Promise<{ url: string; drop: () => Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'sqlite',
    create: async (dir) => ({ url: `sqlite:${path.join(dir, 'signups.db')}`, drop: async () => undefined }),
  },
  {
    name: 'postgres',
    create: async () => {
      const schema = `e2e_owner_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client(databaseUrl);
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const url = new URL(databaseUrl ?? '');
      url.searchParams.set('options', `-c search_path=${schema}`);
      return {
        url: url.toString(),
        drop: async () => {
          const cleanup = new pg.Client(databaseUrl);
          await cleanup.connect();
          await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await cleanup.end();
        },
      };
    },
  },
];

/**
 * No sideways scrolling of the page, and nothing wider than the window, except a wide table inside
 * its own scrolling region (a data table may scroll in two directions: WCAG 1.4.10's exception).
 */
async function expectReflow(page: Page, state: string) {
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    wide: Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((element) => !element.closest('.table-scroll table'))
      .filter((element) => element.getClientRects().length > 0)
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((element) => `${element.tagName}.${String(element.className)}`)
      .slice(0, 5),
  }));
  expect(overflow, state).toEqual({ page: 0, wide: [] });
}

interface OwnerSite {
  server: RunningServer;
  sink: SmtpSink;
  /** The owner's documented command (`npm run --silent …`), against this server's database. */
  npm: (...args: string[]) => Promise<string>;
  stop: () => Promise<void>;
}

/** The built server on a fresh database of the engine, mailing a real SMTP server on loopback. */
async function startOwnerSite(engine: Engine, port: number, emailRate: string): Promise<OwnerSite> {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-owner-'));
  const database = await engine.create(dir);
  const sink = await startSmtpSink();
  const env = {
    DATABASE_URL: database.url,
    SITE_URL: `http://127.0.0.1:${port}`,
    SECRET_KEY: 'e2e-owner-secret-key-that-is-long-enough',
    SMTP_URL: sink.url,
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
    MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
    APP_STORE_URL: 'https://apps.apple.com/us/app/scamsavvy/id1234567890',
    PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=com.scamsavvy.app',
    BROADCAST_EMAIL_RATE: emailRate,
    // Everyone on the list is in the broadcast; the sink holds only sign-in links and launch news.
    EMAIL_CONFIRMATION: 'off',
    SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
    SIGNUP_RATE_LIMIT_PER_HOUR: '0',
  };
  const server = await startBuiltServer(port, env);
  return {
    server,
    sink,
    npm: async (...args) =>
      (await run('npm', ['run', '--silent', ...args], { env: { ...process.env, ...env } })).stdout,
    stop: async () => {
      await server.stop();
      await sink.stop();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs up people through the public API (as the form does), and returns their email addresses. */
async function signUpPeople(server: RunningServer, count: number): Promise<string[]> {
  const emails: string[] = [];
  for (let person = 0; person < count; person += 1) {
    const email = `person${person}.${randomUUID()}@example.com`;
    const response = await fetch(`${server.url}/api/signups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Person ${person}`,
        phone: `+1555000${String(person).padStart(4, '0')}`,
        email,
        betaTesting: false,
        openedForMs: 5000,
      }),
    });
    expect(response.status).toBe(201);
    emails.push(email);
  }
  return emails;
}

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
const SIZES = [
  ['1280 px', 1280, 900],
  ['320 px', 320, 640],
  ['200% zoom', 640, 450],
] as const;
/** Every page of the dashboard, by name; `{person}` is a person's record. */
const OWNER_PAGES = [
  ['the overview', '/owner'],
  ['people', '/owner/people'],
  ['a search', '/owner/people?q=person'],
  ['a person', '{person}'],
  ['deleting a person', '{person}/delete'],
  ['broadcasts', '/owner/broadcasts'],
  ['a finished broadcast', '/owner/broadcasts/launch'],
  ['pausing a broadcast', '/owner/broadcasts/launch/pause'],
  ['ready for launch', '/owner/ready'],
  ['suppressed addresses', '/owner/suppressions'],
  ['replies to our texts', '/owner/replies'],
  ['the audit log', '/owner/audit'],
] as const;

// One page (or one state) a test, at every size in turn on the one page, so each is reported on its
// own and none runs long on a busy machine. Each worker seeds its own server once: people, an owner,
// a broadcast sent.
for (const [index, engine] of engines.entries()) {
  const checks = engine.name === 'sqlite' ? 'axe, and no sideways scrolling at 320 px and 200% zoom' : 'each opens';
  test.describe(`every owner page on ${engine.name}: ${checks}`, () => {
    test.skip(engine.name === 'postgres' && !databaseUrl, 'needs PostgreSQL: set TEST_DATABASE_URL');

    let site: OwnerSite;
    let session: Awaited<ReturnType<BrowserContext['cookies']>>;
    /** The records of the first person (looked at) and the second (corrected). */
    let records: { look: string; correct: string };

    test.beforeAll(async ({ browser }) => {
      // A hang guard, not a speed limit: the seeding runs four owner commands (each an npm and a tsx
      // start) besides the server and fifty sign-ups, which takes over a minute on a slow machine.
      test.setTimeout(240_000);
      // 4700 up: no other spec's servers are there (launch-mode.spec.ts has 4600 up).
      site = await startOwnerSite(engine, 4700 + index * 50 + test.info().workerIndex, '50');
      const [first, second] = await signUpPeople(site.server, OTHERS);
      await site.npm('owner:add', '--', '--email', OWNER);
      await site.npm('broadcast', '--', 'create', '--name', 'launch', '--template', 'launch', '--channels', 'email');
      await site.npm('broadcast', '--', 'send', 'launch', '--not-ready');
      // Signed in once, with the owner's documented link command; every test reuses the session.
      const link = (await site.npm('owner:link', '--', '--email', OWNER)).match(/http:\/\/\S+/)?.[0];
      expect(link, 'owner:link prints a link').toBeTruthy();
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(link ?? '');
      await page.getByRole('button', { name: 'Sign me in' }).click();
      await expect(page.getByRole('heading', { name: 'How the list is growing' })).toBeVisible();
      const recordOf = async (email = '') => {
        await page.goto(`${site.server.url}/owner/people?q=${encodeURIComponent(email)}`);
        return (await page.getByRole('link', { name: /^Open Person/ }).getAttribute('href')) ?? '';
      };
      records = { look: await recordOf(first), correct: await recordOf(second) };
      session = await context.cookies();
      await context.close();
    });
    test.afterAll(async () => site?.stop());

    async function open(page: Page, context: BrowserContext, url: string) {
      await context.addCookies(session);
      await page.goto(`${site.server.url}${url}`);
      // Signed in, not sent to the sign-in page (which would pass axe in place of the page meant).
      await expect(page.locator('body')).toContainText('Signed in as');
    }

    // The layout is the same whatever the database: axe and the reflow at every size on SQLite. On
    // PostgreSQL each page is opened once, signed in, with its heading: its queries are the engine's.
    if (engine.name === 'sqlite') {
      for (const [name, url] of OWNER_PAGES) {
        test(`${name} (${url}) at ${SIZES.map(([label]) => label).join(', ')}`, async ({ page, context }) => {
          await open(page, context, url.replace('{person}', records.look));
          for (const [label, width, height] of SIZES) {
            await page.setViewportSize({ width, height });
            await expectNoViolations(page, `${url} at ${label}`);
            await expectLabelsInNames(page, `${url} at ${label}`);
            await expectReflow(page, `${url} at ${label}`);
          }
          // At the browser's text size doubled on a phone, no heading or table cell breaks inside a
          // word: a wide table scrolls sideways in its own box instead.
          await page.setViewportSize({ width: 320, height: 640 });
          await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
          expect(await wordsBrokenInside(page, 'h1, h2, h3, th, td'), `${url} at the largest text`).toEqual([]);
          await expectReflow(page, `${url} at the largest text`);
        });
      }
    } else {
      test('every page opens signed in, with its heading', async ({ page, context }) => {
        for (const [name, url] of OWNER_PAGES) {
          await open(page, context, url.replace('{person}', records.look));
          await expect(page.getByRole('heading', { level: 1 }), name).toBeVisible();
        }
      });
    }

    test('correcting a phone number: saved, and the consent history shows it, at 320 px', async ({ page, context }) => {
      await page.setViewportSize({ width: 320, height: 640 });
      await open(page, context, records.correct);
      await page.getByLabel('Phone number').fill('+1 555 987 4567');
      await page.getByRole('button', { name: 'Save the changes' }).click();
      await expect(page.getByRole('status')).toContainText('Saved. Their consent history below shows the change.');
      await expect(page.getByRole('cell', { name: 'Phone number changed' }).first()).toBeVisible();
      await expectNoViolations(page, 'the correction saved at 320 px');
      await expectReflow(page, 'the correction saved at 320 px');
    });

    // The refused correction, the chart and the pages before signing in do not touch the database's
    // engine beyond what the pages above read: checked once, on SQLite.
    if (engine.name === 'sqlite') {
      test('correcting a phone number: a wrong one is shown again with the problem beside it, at 320 px', async ({
        page,
        context,
        console: consoleWatch,
      }) => {
        consoleWatch.expectError(/400/); // the correction form with a wrong number is answered 400, as it should be
        await page.setViewportSize({ width: 320, height: 640 });
        await open(page, context, records.correct);
        await page.getByLabel('Phone number').fill('call me');
        await page.getByRole('button', { name: 'Save the changes' }).click();
        await expect(page.getByRole('alert')).toContainText('Nothing was changed');
        await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
        await expectNoViolations(page, 'the correction form with a problem at 320 px');
        await expectReflow(page, 'the correction form with a problem at 320 px');
      });

      test('the overview: the chart as a table, open, and with confirmation off no "Confirmed 0 %"', async ({
        page,
        context,
      }) => {
        await page.setViewportSize({ width: 1280, height: 900 });
        await open(page, context, '/owner');
        await expect(page.getByText('Email confirmation is off')).toBeVisible();
        await page.getByText('The chart as a table').click();
        await expect(page.getByRole('region', { name: 'The chart as a table' })).toBeVisible();
        await expectNoViolations(page, 'the chart table open');
      });

      for (const url of ['/owner/sign-in', '/owner/sign-in/sent', '/owner/sign-in?idle=1']) {
        test(`signed out: ${url} at ${SIZES.map(([label]) => label).join(', ')}`, async ({ page }) => {
          await page.goto(`${site.server.url}${url}`);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await expect(page.locator('body')).not.toContainText('Signed in as');
          for (const [label, width, height] of SIZES) {
            await page.setViewportSize({ width, height });
            await expectNoViolations(page, `${url} at ${label}`);
            await expectReflow(page, `${url} at ${label}`);
          }
        });
      }
    }
  });
}
