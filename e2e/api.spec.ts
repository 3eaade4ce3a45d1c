// The API and webhooks from outside (issue 56), in real Chromium and curl against the real built
// server: a key made on the dashboard's API keys page is shown once and reads the list with curl; a
// write key made with the documented command adds a sign-up from another channel with its evidence,
// which the person's page on the dashboard then shows; revoking on the page stops the key at once;
// an endpoint made on the Webhooks page gets a sign-up made as the page makes it, signed as Standard
// Webhooks says (verified with the official package).
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
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

  test('an endpoint made on the Webhooks page gets a sign-up made as the page makes it, signed', async ({ page }) => {
    const received: { headers: Record<string, string>; body: string; at: number }[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ headers: request.headers as Record<string, string>, body, at: machineClock.ms() });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const link = (await site.npm('owner:link', '--', '--email', OWNER)).match(/http:\/\/\S+/)?.[0] ?? '';
      await page.goto(link);
      await page.getByRole('button', { name: 'Sign me in' }).click();
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Name (what it is, such as the CRM)').fill('CRM');
      await page.getByLabel('Address (https://…)').fill(url);
      await page.getByRole('checkbox', { name: 'signup.created' }).check();
      await page.getByRole('button', { name: 'Make the endpoint' }).click();
      await expect(page.getByRole('status')).toContainText('The endpoint “CRM” is made.');
      const secret = (await page.locator('code.secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      await page.setViewportSize({ width: 390, height: 900 });
      await expectNoViolations(page, 'the endpoint just made at 390 px');

      const [person] = await signUpPeople(site.server, 1);
      const signedUpAt = machineClock.ms();
      // A hang guard, not a speed limit: the time it took is reported beside the test.
      await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
      test.info().annotations.push({ type: 'delivered after', description: `${received[0]!.at - signedUpAt} ms` });
      const [delivery] = received;
      const payload = new Webhook(secret).verify(delivery!.body, delivery!.headers) as {
        type: string;
        data: Record<string, unknown>;
      };
      expect(payload.type).toBe('signup.created');
      expect(delivery!.body).not.toContain(person);
      await page.goto(`${site.server.url}/owner/webhooks`);
      await expect(page.getByRole('cell', { name: 'signup.created' })).toBeVisible();
      await page.getByRole('button', { name: 'Send “CRM” a test' }).click();
      await expect(page.getByRole('status')).toContainText('The test to “CRM” was accepted (204).');
    } finally {
      server.close();
    }
  });
});
