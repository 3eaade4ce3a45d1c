// Issue 45, en español, in real Chromium against the real built server: a Spanish-speaking visitor is
// offered the Spanish page, signs up on /es/, gets the Spanish confirmation email at a real SMTP server
// on loopback, uses its link pages in Spanish, says SÍ to the joining text, gets the launch email and
// text in Spanish, and stops texts with "Alto" (a Spanish answer). Every Spanish page passes axe, keeps
// 44 px targets and scrolls nowhere sideways at 320 and 1280 px and at 200% zoom.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { twilioSignature } from '../src/server/messaging/twilio-sms-provider';
import { startSmtpSink, type SmtpSink } from '../src/server/test/smtp-sink';
import { startTwilioStandIn, type TwilioStandIn } from '../src/server/test/twilio-stand-in';
import { LANGUAGE_STORAGE_KEY } from '../src/shared/languages';
import { MIN_FORM_TIME_MS, type SignupRecord } from '../src/shared/signup-schema';
import { startBuiltServer, type RunningServer } from '../scripts/built-server.mjs';
import { expect, test } from './fixtures';
import { expectLabelsInNames, expectNoHorizontalOverflow, expectNoViolations, smallTargets } from './support/a11y';
import { randomUUID } from 'node:crypto';

const ACCOUNT_SID = `AC${'1'.repeat(32)}`;
const AUTH_TOKEN = 'f'.repeat(32);
const FROM = '+15550001111';

let server: RunningServer;
let sink: SmtpSink;
let twilio: TwilioStandIn;
let dataDir: string;

/** The settings the server and the owner's commands share: one database, one mail server, one Twilio. */
let settings: Record<string, string>;

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-spanish-'));
  sink = await startSmtpSink();
  twilio = await startTwilioStandIn({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  const port = 4460 + test.info().workerIndex;
  settings = {
    DATABASE_URL: `sqlite:${path.join(dataDir, 'signups.db')}`,
    SITE_URL: `http://127.0.0.1:${port}`,
    SECRET_KEY: 'e2e-secret-key-that-is-long-enough-1234',
    SMTP_URL: sink.url,
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
    MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_FROM: FROM,
    TWILIO_API_BASE_URL: twilio.baseUrl,
    APP_STORE_URL: 'https://apps.apple.com/app/id000000000',
    PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=example.scamsavvy',
  };
  server = await startBuiltServer(port, {
    ...settings,
    SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
    SIGNUP_RATE_LIMIT_PER_HOUR: '0',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await sink?.stop();
  await twilio?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const run = promisify(execFile);
/** A documented command, against this server's database and providers. */
async function npm(...args: string[]): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', ...args], { env: { ...process.env, ...settings } });
  return stdout;
}

async function exported(email: string): Promise<SignupRecord[]> {
  const stdout = await npm('signups:export', '--', '--format', 'json');
  return (JSON.parse(stdout) as SignupRecord[]).filter((record) => record.email === email);
}

const unique = (label: string) => `${label}.${randomUUID()}@example.com`;
const uniquePhone = () => `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/** A text from the phone to our number, signed as Twilio signs it. */
function textFrom(phone: string) {
  let sent = 0;
  const url = `${server.url}/api/sms/inbound`;
  return (body: string) => {
    sent += 1;
    const params = {
      MessageSid: `SM${phone.slice(-7)}${String(sent).padStart(25, '3')}`,
      AccountSid: ACCOUNT_SID,
      From: phone,
      To: FROM,
      Body: body,
    };
    return fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(AUTH_TOKEN, url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
  };
}

/** The email to this address whose subject matches, with its links. */
async function emailTo(email: string, subject: RegExp) {
  const mail = await sink.waitFor(
    (received) => received.envelope.to.includes(email) && subject.test(received.parsed.subject ?? ''),
    15_000,
  );
  const text = mail.parsed.text ?? '';
  const link = (kind: string) => text.match(new RegExp(`${server.url}/${kind}/[A-Za-z0-9_-]+`))?.[0] ?? '';
  return {
    mail,
    text,
    html: typeof mail.parsed.html === 'string' ? mail.parsed.html : '',
    confirm: link('confirm'),
    preferences: link('preferences'),
    unsubscribe: link('unsubscribe'),
  };
}

async function signUpOnTheSpanishPage(page: Page, email: string, phone: string) {
  await page.getByRole('button', { name: 'Proteja a su familia: avísenme cuando salga la aplicación' }).click();
  await page.getByLabel('Su nombre').fill('Rosa Díaz');
  await page.getByLabel('Número de teléfono').fill(phone);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.waitForTimeout(MIN_FORM_TIME_MS);
  await page.getByRole('button', { name: 'Proteger a mi familia: avísenme' }).click();
  await expect(page.getByRole('heading', { name: '¡Ya está en la lista de protección!' })).toBeFocused();
}

test.describe('a browser that asks for Spanish first', () => {
  test.use({ locale: 'es-MX' });

  test('is offered the Spanish page, signs up on it, and gets everything in Spanish, from the email to the launch text and "Alto"', async ({
    page,
  }) => {
    test.setTimeout(240_000); // 98 s in a CI run on a slow day: a hang guard, not a speed check
    const email = unique('rosa');
    const phone = uniquePhone();

    // The English page offers the Spanish one, in Spanish: an offer, never a redirect.
    await page.goto(server.url);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByText('¿Prefiere leer en español?')).toBeVisible();
    await expectNoViolations(page, 'the English page with the offer of Spanish');
    await page.getByRole('link', { name: 'Ver esta página en español' }).first().click();
    await expect(page).toHaveURL(`${server.url}/es/`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    // No offer of the page the visitor is on.
    await expect(page.getByText('Would you rather read in English?')).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Muy pronto...');
    await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', `${server.url}/`);
    await expect(page.locator('link[rel="alternate"][hreflang="es"]')).toHaveAttribute('href', `${server.url}/es/`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${server.url}/es/`);

    await signUpOnTheSpanishPage(page, email, phone);
    await expect(page.getByRole('dialog')).toContainText('Para seguir en la lista, toque el botón de ese correo.');
    await expectNoViolations(page, 'the Spanish success view');
    const [record] = await exported(email);
    expect(record?.language).toBe('es');

    // The confirmation email, in Spanish, and its pages.
    const confirmation = await emailTo(email, /^Confirme que quiere recibir noticias de ScamSavvy$/);
    expect(confirmation.html).toMatch(/<html lang="es"/);
    expect(confirmation.text).toContain('Sí, quiero seguir en la lista:');
    expect(confirmation.text).toContain(`${server.url}/es/?ref=${record?.referralCode ?? ''}`);
    await page.goto(confirmation.confirm);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.getByRole('button', { name: 'Sí, quiero seguir en la lista' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gracias. Ya está confirmado.');
    await page.goto(confirmation.preferences);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lo que le enviamos');
    await expect(page.getByRole('checkbox', { name: 'Un mensaje de texto cuando salga la aplicación' })).toBeChecked();

    // The joining text, in Spanish; SÍ from the phone says yes, and the answer is in Spanish.
    await twilio.waitFor((sent) => sent.to === phone && /^ScamSavvy: responda SI\b/.test(sent.body), 15_000);
    const text = textFrom(phone);
    expect((await text('Sí')).status).toBe(200);
    await twilio.waitFor((sent) => sent.to === phone && /^ScamSavvy: gracias\./.test(sent.body), 10_000);

    // Launch day: the owner's command says who gets which language; each person gets theirs.
    const created = await npm(
      'broadcast',
      '--',
      'create',
      '--name',
      'launch',
      '--template',
      'launch',
      '--channels',
      'email,sms',
    );
    expect(created).toMatch(/by language: Spanish 1/);
    const previewed = await npm('broadcast', '--', 'preview', 'launch', '--out', path.join(dataDir, 'launch.html'));
    expect(previewed).toContain('Subject: ScamSavvy is here: our app is ready');
    expect(previewed).toContain('Subject: Ya está aquí ScamSavvy: la aplicación está lista');
    await npm('broadcast', '--', 'send', 'launch', '--not-ready');
    const launch = await emailTo(email, /^Ya está aquí ScamSavvy/);
    expect(launch.html).toMatch(/<html lang="es"/);
    expect(launch.text).toContain('Descargarla para iPhone o iPad:');
    await twilio.waitFor((sent) => sent.to === phone && sent.body.includes('¡la app ya esta lista!'), 15_000);

    // "Alto" stops texts, with a Spanish answer.
    expect((await text('Alto')).status).toBe(200);
    await twilio.waitFor(
      (sent) => sent.to === phone && /^No le enviaremos mas mensajes de ScamSavvy\./.test(sent.body),
      10_000,
    );
    await page.goto(confirmation.preferences);
    await expect(
      page.getByRole('checkbox', { name: 'Un mensaje de texto cuando salga la aplicación' }),
    ).not.toBeChecked();
    await expect(page.getByText(/respondió ALTO \(o STOP\)/)).toBeVisible();

    // The owner's figures split by language: the Spanish page's own events, and the person.
    await page.goto('about:blank'); // leaving the page sends what is waiting
    await expect
      .poll(() => npm('signups:stats', '--', '--days', '1'), { timeout: 30_000 })
      .toMatch(/Page funnel by language[^\n]*\n[^\n]*\n(?: {2}English[^\n]*\n)? {2}Spanish +[1-9]/);
    expect(await npm('signups:stats', '--', '--days', '1')).toMatch(
      /People by language[^\n]*\n {2}English +\d+ +\d+%\n {2}Spanish +[1-9]/,
    );
    // Their own page lets them choose the language we write in: English, and the page says so in it.
    await page.goto(confirmation.preferences);
    await page.getByRole('radio', { name: 'English' }).check();
    await page.getByRole('button', { name: 'Guardar el idioma' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('status')).toHaveText('Saved. We will write to you in English.');
    expect((await exported(email))[0]?.language).toBe('en');
  });
});

test('the language link remembers the choice on this device, with no cookie: the next visit opens the chosen page', async ({
  page,
  context,
}) => {
  await page.goto(`${server.url}/?utm_source=radio`);
  // An English browser is offered nothing.
  await expect(page.getByText('¿Prefiere leer en español?')).toBeHidden();
  await page.getByRole('banner').getByRole('link', { name: 'Ver esta página en español' }).click();
  await expect(page).toHaveURL(`${server.url}/es/`);
  expect(await page.evaluate((key) => localStorage.getItem(key), LANGUAGE_STORAGE_KEY)).toBe('es');
  // Back to the English home: the kept choice takes the visitor to the Spanish page, address and all.
  await page.goto(`${server.url}/?utm_source=radio`);
  await expect(page).toHaveURL(`${server.url}/es/?utm_source=radio`);
  await page.getByRole('banner').getByRole('link', { name: 'Read this page in English' }).click();
  await expect(page).toHaveURL(`${server.url}/`);
  await page.goto(`${server.url}/es/`);
  await expect(page).toHaveURL(`${server.url}/`);
  expect(await context.cookies()).toEqual([]);
});

test('/es/ and the sitemap name both languages; a Spanish address that is not a page is a Spanish 404', async ({
  page,
  console: consoleWatch,
}) => {
  consoleWatch.expectError(/404/);
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  expect(sitemap).toContain(`<loc>${server.url}/es/</loc>`);
  expect(sitemap).toContain(`hreflang="es" href="${server.url}/es/"`);
  const missing = await page.goto(`${server.url}/es/no-existe`);
  expect(missing?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByText('Vaya, no encontramos esta página')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Volver al inicio' })).toHaveAttribute('href', '/es/');
});

/** A phone held upright, a desktop window, and a 1280 × 900 window at 200% zoom (640 × 450 CSS pixels). */
const SCREENS = [
  ['320 px', 320, 640],
  ['1280 px', 1280, 900],
  ['200% zoom', 640, 450],
] as const;

for (const [label, width, height] of SCREENS) {
  test(`every Spanish page at ${label}: axe finds nothing, nothing scrolls sideways, targets stay 44 px`, async ({
    page,
    console: consoleWatch,
  }) => {
    // Ten pages, each checked by axe: a hang guard, not a speed check (a loaded machine takes longer).
    test.setTimeout(180_000);
    consoleWatch.expectError(/404/);
    await page.setViewportSize({ width, height });
    const email = unique(`screen${width}`);
    const check = async (state: string) => {
      await expectNoViolations(page, `${state} at ${label}`);
      await expectNoHorizontalOverflow(page, `${state} at ${label}`);
      await expectLabelsInNames(page, `${state} at ${label}`);
      expect(await smallTargets(page), `${state} at ${label}`).toEqual([]);
    };
    await page.goto(`${server.url}/es/`);
    await check('the Spanish page');
    await signUpOnTheSpanishPage(page, email, uniquePhone());
    await check('the Spanish success view');
    await page.goto(`${server.url}/es/404`);
    await check('the Spanish 404 page');
    const { confirm, preferences, unsubscribe } = await emailTo(email, /^Confirme que quiere/);
    for (const [state, url] of [
      ['the Spanish confirm page', confirm],
      ['the Spanish preferences page', preferences],
      ['the Spanish unsubscribe page', unsubscribe],
    ] as const) {
      await page.goto(url);
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      await check(state);
    }
    await page.goto(preferences);
    await page.getByRole('button', { name: 'Borrar mis datos' }).click();
    await check('the Spanish delete question');
    // Deleting goes by a button emailed at that moment (issue 54): the page that says so, and the
    // page the emailed button opens, in Spanish.
    await page.getByRole('button', { name: 'Sí, envíenme el botón' }).click();
    await expect(page.getByRole('status')).toContainText('Le enviamos un botón');
    await check('the Spanish page after asking for the button');
    const { text } = await emailTo(email, /^¿Borrar sus datos/);
    const button = text.match(new RegExp(`${server.url}/button/\\S+`))?.[0] ?? '';
    await page.goto(button);
    await expect(page.getByRole('button', { name: 'Sí, borrar mis datos' })).toBeVisible();
    await check('the Spanish emailed button page');
  });
}
