// Every page of the owner's dashboard in real Chromium against the real built server, one page a
// test at every size in turn: axe passes, it fits a small screen and 200% zoom, and at the largest
// text no heading or cell breaks inside a word (SQLite); on PostgreSQL each page opens signed in.
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectLabelsInNames, expectNoViolations, wordsBrokenInside } from './support/a11y';
import {
  databaseUrl,
  engines,
  expectReflow,
  OTHERS,
  OWNER,
  signUpPeople,
  startOwnerSite,
  type OwnerSite,
} from './support/owner-site';

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
  ['API keys', '/owner/api-keys'],
  ['webhooks', '/owner/webhooks'],
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
      await site.npm('api-keys', '--', 'create', '--name', 'Zapier', '--scope', 'read');
      await site.npm('webhooks', '--', 'create', '--name', 'CRM', '--url', 'https://crm.example/hooks/scamsavvy');
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
