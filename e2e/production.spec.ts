// The production setup of deploy/, tested as it runs: Debian's Caddy with the shipped Caddyfile in
// front of the built server, reached through HTTPS with Caddy's own certificate authority; and the
// shipped systemd unit, as systemd-analyze reads it.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, expect, test } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';
import { twilioSignature } from '../src/server/messaging/twilio-sms-provider';
import { startBuiltServer, type RunningServer } from '../scripts/built-server.mjs';

const DOMAIN = 'scamsavvy.test';
const APP_PORT = 4361;
const HTTP_PORT = 4461;
const HTTPS_PORT = 4462;
const SITE_URL = `https://${DOMAIN}:${HTTPS_PORT}`;
const TWILIO_AUTH_TOKEN = 'f'.repeat(32);
const hasCaddy = spawnSync('caddy', ['version']).status === 0;
// `npm run test:clock` moves this machine's clock with faketime; Caddy, a Go program, keeps the real
// one. Its certificates (issued for 7 days below) still hold on a clock moved less than 6 days away.
const movedDays = Math.abs(Number(process.env.FAKETIME ?? 0)) / 86_400;
const caddyOnAnotherClock = Number.isFinite(movedDays) && movedDays > 6;
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through Caddy: TLS checked against Caddy's root certificate, for the site's name. */
function viaHttps(
  ca: string,
  pathname: string,
  {
    method = 'GET',
    headers = {},
    body,
    from = '127.0.0.1',
  }: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: HTTPS_PORT,
        servername: DOMAIN,
        localAddress: from,
        ca,
        method,
        path: pathname,
        headers: { host: `${DOMAIN}:${HTTPS_PORT}`, ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const signUp = (ca: string, from: string, email: string, forwardedFor?: string) =>
  viaHttps(ca, '/api/signups', {
    method: 'POST',
    from,
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: JSON.stringify({ name: 'Rosa Díaz', phone: '+15551234567', email, openedForMs: 5000 }),
  });

test.describe('behind Caddy, through HTTPS', () => {
  // One server and one Caddy for these tests, in one worker, one after another.
  test.describe.configure({ mode: 'default' });
  test.skip(!hasCaddy, "needs Debian's caddy: apt-get install caddy (.ci/run installs it)");
  test.skip(
    caddyOnAnotherClock,
    `the clock is moved ${Math.round(movedDays)} days (npm run test:clock): Caddy keeps the real one, and its certificates do not reach that far`,
  );

  let dir: string;
  let server: RunningServer;
  let caddy: ChildProcess;
  let caddyOutput = '';
  let ca: string;
  let env: Record<string, string>;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-production-'));
    env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'signups.db')}`,
      SITE_URL,
      TRUST_PROXY: '127.0.0.1',
      SIGNUP_RATE_LIMIT_PER_MINUTE: '2',
      SECRET_KEY: 'a-test-secret-that-is-long-enough-for-the-check',
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN,
      TWILIO_FROM: '+15550001111',
      TWILIO_API_BASE_URL: 'http://127.0.0.1:9',
      // An https site shows a statistic still being confirmed only by the owner's choice (site-facts.spec.ts).
      SHOW_UNCONFIRMED_STATISTICS: 'yes',
    };
    server = await startBuiltServer(APP_PORT, env);
    // The shipped Caddyfile, with only the domain and the app's port changed, under the test's own
    // global options: its ports, its own certificate authority (not the machine's trust store), whose
    // certificates last 7 days (its intermediate's own) so a clock moved a day on still trusts them.
    const site = readFileSync('deploy/Caddyfile', 'utf8')
      .replaceAll('scamsavvy.example', DOMAIN)
      .replace('127.0.0.1:3000', `127.0.0.1:${APP_PORT}`);
    const storage = path.join(dir, 'caddy');
    writeFileSync(
      path.join(dir, 'Caddyfile'),
      `{\n\thttp_port ${HTTP_PORT}\n\thttps_port ${HTTPS_PORT}\n\tcert_issuer internal {\n\t\tlifetime 168h\n\t}\n\tskip_install_trust\n\tadmin off\n\tstorage file_system {\n\t\troot ${storage}\n\t}\n}\n${site}`,
    );
    caddy = spawn('caddy', ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy.stdout?.on('data', (chunk: Buffer) => (caddyOutput += chunk.toString()));
    caddy.stderr?.on('data', (chunk: Buffer) => (caddyOutput += chunk.toString()));
    // Caddy makes its authority and the site's certificate as it starts: wait for the page through HTTPS.
    const deadline = performance.now() + 60_000; // a hang guard, on the monotonic clock
    for (;;) {
      if (caddy.exitCode !== null) throw new Error(`Caddy exited: ${caddyOutput}`);
      try {
        ca = readFileSync(path.join(storage, 'pki/authorities/local/root.crt'), 'utf8');
        if ((await viaHttps(ca, '/')).status === 200) break;
      } catch (error) {
        if (performance.now() > deadline)
          throw new Error(`Caddy did not serve the page: ${String(error)}\n${caddyOutput}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  test.afterAll(async () => {
    caddy?.kill('SIGTERM');
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the page and the API answer through HTTPS, with HSTS; plain HTTP is sent to HTTPS', async () => {
    const page = await viaHttps(ca, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Protect My Family');
    expect(page.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    const ready = await viaHttps(ca, '/api/ready');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready' });

    const plain = await new Promise<Answer>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: HTTP_PORT, path: '/?x=1', headers: { host: DOMAIN } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
      })
        .on('error', reject)
        .end();
    });
    expect(plain.status).toBe(308);
    expect(plain.headers.location).toBe(`https://${DOMAIN}/?x=1`);
  });

  test("each visitor's own address reaches the rate limiter: two are counted apart, and a forged X-Forwarded-For is not believed", async () => {
    // The limit is 2 a minute per visitor. 127.0.0.2 uses its two, each time claiming another address.
    expect((await signUp(ca, '127.0.0.2', 'one@example.com', '203.0.113.1')).status).toBe(201);
    expect((await signUp(ca, '127.0.0.2', 'two@example.com', '203.0.113.2')).status).toBe(201);
    const third = await signUp(ca, '127.0.0.2', 'three@example.com', '203.0.113.3');
    expect(third.status).toBe(429);
    // Another visitor is not held back by the first one's count.
    expect((await signUp(ca, '127.0.0.3', 'four@example.com')).status).toBe(201);
  });

  test("a text provider's signed request verifies against SITE_URL behind the proxy; one signed for another address is refused", async () => {
    const params = { From: '+15557654321', To: '+15550001111', Body: 'Hello', MessageSid: `SM${'1'.repeat(32)}` };
    const body = new URLSearchParams(params).toString();
    const post = (signedFor: string) =>
      viaHttps(ca, '/api/sms/inbound', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(TWILIO_AUTH_TOKEN, signedFor, params),
        },
        body,
      });
    expect((await post(`${SITE_URL}/api/sms/inbound`)).status).toBe(200);
    // Signed for the address the app listens on behind Caddy: not the address Twilio calls.
    expect((await post(`http://127.0.0.1:${APP_PORT}/api/sms/inbound`)).status).toBe(403);
  });

  test('a visitor signs up in Chromium through Caddy, over HTTPS, and nothing on the page complains', async () => {
    // Chromium finds the site's name on loopback; it cannot be told Caddy's authority without a
    // certificate database, so it is told to go on (the requests above check the chain itself).
    const browser = await chromium.launch({
      ...chromiumLaunchOptions(),
      args: [...(chromiumLaunchOptions().args ?? []), `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`],
    });
    try {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${SITE_URL}/`);
      expect(await page.evaluate(() => [window.isSecureContext, location.protocol])).toEqual([true, 'https:']);
      await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
      await page.getByLabel('Your Name').fill('Rosa Díaz');
      await page.getByLabel('Phone Number').fill('+1 (555) 123-4567');
      await page.getByLabel('Email Address').fill('through-caddy@example.com');
      await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
      await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test("the owner's sign-in cookie is Secure through HTTPS", async () => {
    const run = promisify(execFile);
    const cli = { env: { ...process.env, ...env } };
    await run(process.execPath, ['dist/node/cli/owners.js', 'add', '--email', 'owner@example.com'], cli);
    const { stdout } = await run(
      process.execPath,
      ['dist/node/cli/owners.js', 'link', '--email', 'owner@example.com'],
      cli,
    );
    const link = /https:\/\/\S+\/owner\/sign-in\/\S+/.exec(stdout)?.[0];
    expect(link, stdout).toBeDefined();
    expect(link?.startsWith(`${SITE_URL}/owner/sign-in/`)).toBe(true);
    const signedIn = await viaHttps(ca, new URL(link ?? '').pathname, {
      method: 'POST',
      headers: { origin: SITE_URL },
    });
    expect(signedIn.status).toBe(303);
    const cookies = [signedIn.headers['set-cookie'] ?? []].flat();
    const session = cookies.find((cookie) => cookie.startsWith('scamsavvy_owner='));
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
  });
});

test.describe('the systemd unit', () => {
  test.skip(!hasSystemdAnalyze, "needs systemd-analyze (Debian's systemd package)");

  const verify = (file: string) =>
    promisify(execFile)('systemd-analyze', ['verify', file]).catch(
      (error: { stdout: string; stderr: string; code: number }) => error,
    );

  test('deploy/scamsavvy.service passes systemd-analyze verify, which does find a mistake in a unit', async () => {
    const shipped = await verify('deploy/scamsavvy.service');
    // verify warns (and still exits 0) about a key it does not know: the unit must draw no word at all.
    expect(`${shipped.stdout}${shipped.stderr}`).not.toContain('scamsavvy.service');
    expect('code' in shipped ? shipped.code : 0).toBe(0);

    const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-unit-'));
    try {
      const broken = path.join(dir, 'scamsavvy.service');
      writeFileSync(
        broken,
        readFileSync('deploy/scamsavvy.service', 'utf8').replace('ProtectSystem=strict', 'ProtectSystm=strict'),
      );
      const result = await verify(broken);
      expect(`${result.stdout}${result.stderr}`).toContain("Unknown key 'ProtectSystm'");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("sudo scamsavvy runs an owner's command as the service would, with the settings file's variables", async () => {
    test.skip(process.getuid?.() !== 0, 'needs root, as sudo scamsavvy does');
    const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-wrapper-'));
    try {
      const settings = path.join(dir, 'scamsavvy.env');
      writeFileSync(
        settings,
        [
          '# as deploy/scamsavvy.env.example',
          `DATABASE_URL=sqlite:${dir}/signups.db`,
          "MAIL_POSTAL_ADDRESS='1 Example Street, Springfield'",
          // Unquoted, with spaces: the line as systemd reads it, now read the same way by every door.
          `BACKUP_DIR=${dir}/backups`,
          'BACKUP_COMMAND=true copy {file} offsite:scamsavvy-backups',
          '',
        ].join('\n'),
      );
      const env = { ...process.env, SCAMSAVVY_HOME: process.cwd(), SCAMSAVVY_ENV: settings, SCAMSAVVY_USER: 'root' };
      const run = promisify(execFile);
      const wrapper = path.resolve('deploy/scamsavvy');
      await run(wrapper, ['db:migrate'], { env });
      // Typed in another folder: a relative --out is found there, not in the project's folder.
      const { stdout } = await run(wrapper, ['db:backup', '--out', 'first.sqlite'], { env, cwd: dir });
      expect(stdout).toContain(`Backed up the SQLite file ${dir}/signups.db to ${dir}/first.sqlite`);
      // npm's "--" typed out of habit means the same.
      const again = await run(wrapper, ['db:backup', '--', '--out', 'second.sqlite'], { env, cwd: dir });
      expect(again.stdout).toContain(`Backed up the SQLite file ${dir}/signups.db to ${dir}/second.sqlite`);
      const usage = await run('deploy/scamsavvy', [], { env }).catch(
        (error: { code: number; stdout: string }) => error,
      );
      expect(usage).toMatchObject({ code: 2, stdout: expect.stringContaining('Usage: sudo scamsavvy COMMAND') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the unit runs as its own user, sandboxed, with only the data and backup folders writable, restarting on failure, stopped by SIGTERM', () => {
    const unit = readFileSync('deploy/scamsavvy.service', 'utf8');
    for (const line of [
      'User=scamsavvy',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'StateDirectory=scamsavvy',
      'ReadWritePaths=-/var/backups/scamsavvy',
      'Restart=on-failure',
      'KillSignal=SIGTERM',
    ])
      expect(unit.split('\n')).toContain(line);
    const env = readFileSync('deploy/scamsavvy.env.example', 'utf8');
    expect(env).toMatch(/^DATABASE_URL=sqlite:\/var\/lib\/scamsavvy\//m);
    expect(env).toMatch(/^BACKUP_DIR=\/var\/backups\/scamsavvy$/m);
  });
});
