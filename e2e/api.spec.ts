// The API from outside (issue 56), in real Chromium and curl against the real built server: a key
// made on the dashboard's API keys page is shown once and reads the list with curl; a write key made
// with the documented command adds a sign-up from another channel with its evidence, which the
// person's page on the dashboard then shows; revoking on the page stops the key at once.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from './fixtures';
import { expectNoViolations } from './support/a11y';
import { machineClock } from '../src/server/test/clock';
import { engines, OWNER, signUpPeople, startOwnerSite, type OwnerSite } from './support/owner-site';

const run = promisify(execFile);

test.describe('the API and its keys', () => {
  test.describe.configure({ mode: 'serial' });
  let site: OwnerSite;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    site = await startOwnerSite(engines[0]!, 4860 + test.info().workerIndex, '50');
    await signUpPeople(site.server, 2);
    await site.npm('owner:add', '--', '--email', OWNER);
  });
  test.afterAll(async () => site?.stop());

  const curl = async (...args: string[]) => (await run('curl', ['-sS', '-w', '\n%{http_code}', ...args])).stdout;

  test('a key made on the dashboard is shown once, reads the list with curl, and stops when revoked', async ({
    page,
  }) => {
    const link = (await site.npm('owner:link', '--', '--email', OWNER)).match(/http:\/\/\S+/)?.[0] ?? '';
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign me in' }).click();
    await page.getByRole('link', { name: 'API keys' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
    await page.getByLabel('Name (what uses it, such as Zapier)').fill('Zapier');
    await page.getByRole('radio', { name: 'Read the list' }).check();
    await page.getByRole('button', { name: 'Make the key' }).click();
    await expect(page.getByRole('status')).toContainText('Copy it now: it is shown only this once.');
    const key = (await page.locator('code.secret').textContent()) ?? '';
    expect(key).toMatch(/^ssk_[A-Za-z0-9_]{43}$/);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoViolations(page, `the key just made at ${width} px`);
    }

    const answer = await curl('-H', `Authorization: Bearer ${key}`, `${site.server.url}/api/v1/signups?limit=1`);
    const [body, status] = [answer.slice(0, answer.lastIndexOf('\n')), answer.slice(answer.lastIndexOf('\n') + 1)];
    expect(status).toBe('200');
    const page1 = JSON.parse(body) as { data: { email: string }[]; nextCursor: string | null };
    expect(page1.data).toHaveLength(1);
    expect(page1.nextCursor).not.toBeNull();

    await page.goto(`${site.server.url}/owner/api-keys`);
    await expect(page.locator('body')).not.toContainText(key);
    await page.getByRole('button', { name: 'Revoke “Zapier”' }).click();
    await expect(page.getByRole('status')).toContainText('The key “Zapier” no longer works.');
    expect(await curl('-H', `Authorization: Bearer ${key}`, `${site.server.url}/api/v1/signups`)).toMatch(/\n401$/);
    await page.goto(`${site.server.url}/owner/audit`);
    await expect(page.getByRole('cell', { name: 'API key "Zapier"' }).first()).toBeVisible();
  });

  test('a write key from the command adds a sign-up from another channel; its page shows where it came from', async ({
    page,
  }) => {
    const made = await site.npm('api-keys', '--', 'create', '--name', 'Library tablet', '--scope', 'write');
    const key = made.split('\n')[0] ?? '';
    expect(key).toMatch(/^ssk_/);
    const answer = await curl(
      '-X',
      'POST',
      '-H',
      `Authorization: Bearer ${key}`,
      '-H',
      'Content-Type: application/json',
      '--data',
      JSON.stringify({
        name: 'Tablet Person',
        email: 'tablet.person@example.com',
        phone: '+1 212 555 0199',
        consent: {
          words: 'Yes, tell me when ScamSavvy launches.',
          at: new Date(machineClock.ms() - 60_000).toISOString(),
          source: 'Tablet at the Springfield library',
        },
      }),
      `${site.server.url}/api/v1/signups`,
    );
    expect(answer).toBe('{"status":"accepted"}\n202');
    const link = (await site.npm('owner:link', '--', '--email', OWNER)).match(/http:\/\/\S+/)?.[0] ?? '';
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign me in' }).click();
    await page.goto(`${site.server.url}/owner/people?q=tablet.person`);
    await page.getByRole('link', { name: /^Open Tablet Person/ }).click();
    await expect(page.getByRole('cell', { name: /through the API/ })).toBeVisible();
  });
});
