// The launch checks against a DNS server on loopback with good and broken SPF, DKIM and DMARC
// records, the Twilio stand-in, and a built page with and without the examples: each check's level,
// what it found and its fix; `sudo scamsavvy ready` prints the same list and exits 1 while one is red.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Db } from '../db/open-database.js';
import { startDnsServer, type DnsServer } from '../test/dns-server.js';
import { startTwilioStandIn } from '../test/twilio-stand-in.js';
import { tempDatabaseFile } from '../test/temp-database.js';
import { dkimPublicKey } from './mail-checks.js';
import { isReady, keptDetail, readyChecks, readyFacts } from './ready-checks.js';
import type { ReadyCheck } from './ready-check.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const OURS = dkimPublicKey(KEY);
const GOOD = {
  'scamsavvy.example': ['v=spf1 include:_spf.mail.example ~all', 'google-site-verification=abc'],
  'mail._domainkey.scamsavvy.example': [`v=DKIM1; k=rsa; p=${OURS}`],
  '_dmarc.scamsavvy.example': ['v=DMARC1; p=none; rua=mailto:dmarc@scamsavvy.example'],
};

let dns: DnsServer;
let file: string;
let store: Db;
let dist: string;

/** The built page as visitors get it: with the examples this repository ships, or with the owner's own. */
function page(html: string, spanish = html) {
  mkdirSync(path.join(dist, 'pages'), { recursive: true });
  writeFileSync(path.join(dist, 'pages', 'home.html'), html);
  writeFileSync(path.join(dist, 'pages', 'home-es.html'), spanish);
}

/** A statistic as the built page marks it (client/sections/scam-statistics.tsx), confirmed or not. */
const statistic = (figure: string, source: string, note = '') =>
  `<li><span data-fact="statistic-1-figure">${figure}</span>: <span data-fact="statistic-1-source">${source}</span>${
    note ? `<span data-fact="statistic-1-unconfirmed"> (${note})</span>` : ''
  }.</li>`;
const OWNERS_OWN = `<p>Write to privacy@ourfamilyfirm.org.</p>${statistic('$33,915', 'FBI IC3')}`;
const EXAMPLES = `<p>Write to privacy@scamsavvy.example.</p>${statistic('1 in 5', 'a survey', 'we are still confirming the original study')}`;

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: `sqlite:${file}`,
    SITE_URL: 'https://rosas-family-safety.test',
    PRIVACY_EMAIL: 'privacy@ourfamilyfirm.org',
    SECRET_KEY: 'k'.repeat(40),
    SMTP_URL: 'smtp://127.0.0.1:9',
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
    DKIM_DOMAIN: 'scamsavvy.example',
    DKIM_SELECTOR: 'mail',
    DKIM_PRIVATE_KEY: KEY.replace(/\n/g, '\\n'),
    MAIL_POSTAL_ADDRESS: '12 Harbor Road, Portland, ME 04101',
    BACKUP_DIR: path.join(dist, 'backups'),
    BACKUP_COMMAND: 'true',
    DNS_RESOLVER: dns.address,
    ...extra,
  };
}

async function checksWith(extra: Record<string, string> = {}): Promise<Map<string, ReadyCheck>> {
  const config: Config = { ...loadConfig(env(extra), '/'), distDir: dist };
  const checks = await readyChecks(readyFacts(config, store));
  return new Map(checks.map((one) => [one.id, one]));
}

beforeEach(async () => {
  dns = await startDnsServer(GOOD);
  file = tempDatabaseFile();
  store = await openDatabase({ kind: 'sqlite', file });
  await store.owners.add('owner@scamsavvy.example');
  dist = mkdtempSync(path.join(tmpdir(), 'ready-'));
  page(OWNERS_OWN);
});

afterEach(async () => {
  await store.close();
  await dns.close();
  vi.unstubAllEnvs();
});

describe('the launch checks', () => {
  it('are all green, but what cannot be checked from here, when the domain and the site are set up', async () => {
    const checks = await checksWith();
    const notGreen = [...checks.values()].filter((one) => one.level !== 'green').map((one) => one.id);
    // No store links yet: they are needed at the launch, not before.
    expect(notGreen).toEqual(['mail-seed', 'texts-on', 'site-store-links', 'site-secret-key', 'site-tests']);
    expect(checks.get('mail-spf')?.found).toBe('v=spf1 include:_spf.mail.example ~all');
    expect(checks.get('mail-dkim')?.found).toMatch(/matches DKIM_PRIVATE_KEY/);
    expect(isReady([...checks.values()])).toBe(true);
  });

  it('remember that SECRET_KEY is kept with the backups, for this key only, and that a test of each channel went', async () => {
    const KEY_NOW = 'k'.repeat(40);
    await store.owners.audit({
      ownerEmail: 'the command line (sudo scamsavvy ready)',
      action: 'key_kept',
      detail: keptDetail('another-key-another-key-another-key-1'),
    });
    await store.owners.audit({
      ownerEmail: 'owner@scamsavvy.example',
      action: 'broadcast',
      subject: 'launch',
      detail: 'Sent a test to o•••@scamsavvy.example',
    });
    let checks = await checksWith();
    expect(checks.get('site-secret-key')).toMatchObject({
      level: 'amber',
      fix: expect.stringContaining('sudo scamsavvy ready --key-kept'),
    });
    expect(checks.get('site-tests')).toMatchObject({ level: 'green', found: 'an email test went' });
    await store.owners.audit({
      ownerEmail: 'the command line (sudo scamsavvy ready)',
      action: 'key_kept',
      detail: keptDetail(KEY_NOW),
    });
    checks = await checksWith();
    expect(checks.get('site-secret-key')).toMatchObject({
      level: 'green',
      found: expect.stringMatching(
        /^you said so on \d{4}-\d\d-\d\d, for the key now set \(fingerprint [0-9a-f]{16}\)$/,
      ),
    });
    // With texts on, a text test is wanted too.
    const twilio = {
      TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'a'.repeat(32),
      TWILIO_FROM: '+12125550100',
      TWILIO_API_BASE_URL: 'http://127.0.0.1:9',
    };
    expect((await checksWith(twilio)).get('site-tests')).toMatchObject({
      level: 'amber',
      found: 'an email test went; no text test yet',
    });
    await store.owners.audit({
      ownerEmail: 'owner@scamsavvy.example',
      action: 'broadcast',
      subject: 'launch',
      detail: 'Sent a test to a phone ending 0100',
    });
    expect((await checksWith(twilio)).get('site-tests')?.level).toBe('green');
  });

  it('say red, with the exact fix, for a missing SPF, a DKIM key that is not ours, a missing DMARC and two SPF records', async () => {
    dns.set('scamsavvy.example', undefined);
    dns.set('_dmarc.scamsavvy.example', undefined);
    dns.set('mail._domainkey.scamsavvy.example', [
      'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotours',
    ]);
    let checks = await checksWith();
    expect(checks.get('mail-spf')).toMatchObject({ level: 'red', found: 'no SPF record on scamsavvy.example' });
    expect(checks.get('mail-dkim')).toMatchObject({
      level: 'red',
      found: expect.stringMatching(/is not the one DKIM_PRIVATE_KEY signs with/),
    });
    expect(checks.get('mail-dkim')?.fix).toContain(`p=${OURS}`);
    expect(checks.get('mail-dmarc')).toMatchObject({
      level: 'red',
      fix: expect.stringMatching(/_dmarc\.scamsavvy\.example: v=DMARC1; p=none/),
    });
    dns.set('scamsavvy.example', ['v=spf1 -all', 'v=spf1 include:other ~all']);
    dns.set('mail._domainkey.scamsavvy.example', undefined);
    checks = await checksWith();
    expect(checks.get('mail-spf')).toMatchObject({ level: 'red', found: expect.stringMatching(/2 SPF records/) });
    expect(checks.get('mail-dkim')).toMatchObject({
      level: 'red',
      found: expect.stringMatching(/no DKIM key published at mail\._domainkey/),
    });
    expect(isReady([...checks.values()])).toBe(false);
  });

  it('say amber, not red, when the DNS server does not answer: the check could not be made', async () => {
    await dns.close();
    const silent = await startDnsServer();
    // The good server starts while the silent one still holds its port, so it can never be given that
    // port again; then the silent one closes: a port nothing answers on.
    dns = await startDnsServer(GOOD);
    await silent.close();
    const checks = await checksWith({ DNS_RESOLVER: silent.address });
    expect(checks.get('mail-spf')).toMatchObject({ level: 'amber', found: expect.stringMatching(/did not answer/) });
    expect(checks.get('mail-dmarc')?.level).toBe('amber');
  });

  it('say red when the From domain is aligned with neither the envelope sender nor the signing domain', async () => {
    dns.set('mail._domainkey.other.example', [`v=DKIM1; k=rsa; p=${OURS}`]);
    const checks = await checksWith({ DKIM_DOMAIN: 'other.example', BOUNCE_ADDRESS: 'bounces@other.example' });
    expect(checks.get('mail-alignment')).toMatchObject({
      level: 'red',
      found: expect.stringMatching(/is not aligned.*is not aligned/),
    });
    dns.set('mail._domainkey.mail.scamsavvy.example', [`v=DKIM1; k=rsa; p=${OURS}`]);
    const relaxed = await checksWith({ DKIM_DOMAIN: 'mail.scamsavvy.example' });
    expect(relaxed.get('mail-alignment')?.level).toBe('green');
  });

  it('say amber while a webhook endpoint is paused, with why, and nothing while there is none', async () => {
    expect((await checksWith()).has('site-webhooks')).toBe(false);
    await store.webhooks.create({
      name: 'CRM',
      kind: 'standard',
      url: 'https://crm.example/hook',
      secret: 'whsec_c2VjcmV0',
      events: '*',
      withPersonalData: false,
      createdBy: 'owner@scamsavvy.example',
    });
    expect((await checksWith()).get('site-webhooks')).toMatchObject({
      level: 'green',
      found: '1 endpoint, none paused',
    });
    const [crm] = await store.webhooks.list();
    await store.webhooks.pause(crm!.id, 'It answered 410: the address is gone. Check it, then resume.');
    expect((await checksWith()).get('site-webhooks')).toMatchObject({
      level: 'amber',
      found: 'CRM is paused: It answered 410: the address is gone. Check it, then resume.',
    });
  });

  it('say amber for a setting name that is not ours, naming the closest real one', async () => {
    const checks = await checksWith({ SMS_TRANPORT: 'folder:/tmp/x' });
    expect(checks.get('site-setting-names')).toMatchObject({
      level: 'amber',
      found: 'SMS_TRANPORT is not a setting; did you mean SMS_TRANSPORT?',
    });
    expect((await checksWith()).get('site-setting-names')?.level).toBe('green');
  });

  it("say red for the site's examples: the privacy contact, unconfirmed statistics, the example postal address, http, no backups, no owner", async () => {
    page(EXAMPLES);
    const store2 = await openDatabase({ kind: 'sqlite', file: tempDatabaseFile() });
    onTestFinished(() => store2.close());
    const config: Config = {
      ...loadConfig(env({ MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701', BACKUP_COMMAND: '' }), '/'),
      distDir: dist,
      siteUrl: 'http://scamsavvy.example',
    };
    const checks = new Map((await readyChecks(readyFacts(config, store2))).map((one) => [one.id, one]));
    expect(checks.get('site-contact')).toMatchObject({
      level: 'red',
      found: expect.stringContaining('privacy@scamsavvy.example'),
    });
    expect(checks.get('site-statistics')).toMatchObject({
      level: 'red',
      found: '1 statistic says its source is still being confirmed: 1 in 5: a survey (still being confirmed)',
    });
    expect(checks.get('site-postal-address')).toMatchObject({ level: 'red', found: expect.stringMatching(/example/) });
    expect(checks.get('site-https')?.level).toBe('red');
    expect(checks.get('site-backups')).toMatchObject({
      level: 'red',
      found: expect.stringMatching(/nothing copies them off/),
    });
    expect(checks.get('site-owner')).toMatchObject({ level: 'red', fix: expect.stringContaining('owner:add') });
    // Not built at all: the page the server would send is missing.
    const unbuilt = await readyChecks(
      readyFacts({ ...config, distDir: mkdtempSync(path.join(tmpdir(), 'unbuilt-')) }, store2),
    );
    expect(unbuilt.find((one) => one.id === 'site-page')).toMatchObject({ level: 'red', fix: 'Run npm run build.' });
    // Issue 45: the Spanish page counts too. The English fixed, the Spanish still the example: red.
    page(
      OWNERS_OWN,
      `<p>Escríbanos: privacy@scamsavvy.example</p>${statistic('1 de cada 5', 'una encuesta', 'aún estamos confirmando el estudio original')}`,
    );
    const spanishLeft = new Map((await readyChecks(readyFacts(config, store2))).map((one) => [one.id, one]));
    expect(spanishLeft.get('site-contact')).toMatchObject({
      level: 'red',
      found: expect.stringContaining('privacy@scamsavvy.example'),
    });
    expect(spanishLeft.get('site-statistics')?.level).toBe('red');
    page(OWNERS_OWN, '<p>Escríbanos: privacy@ourfamilyfirm.org</p><p>Fuente: FBI IC3</p>');
    const both = new Map((await readyChecks(readyFacts(config, store2))).map((one) => [one.id, one]));
    expect(both.get('site-contact')?.level).toBe('green');
    expect(both.get('site-statistics')?.level).toBe('green');
  });

  it('turn green from the settings alone: the statistic sourced, the privacy contact and the site address set', async () => {
    page(statistic('1 in 5', 'a survey', 'we are still confirming the original study'));
    const before = await checksWith({ PRIVACY_EMAIL: '', SITE_URL: 'https://scamsavvy.example' });
    expect(before.get('site-contact')).toMatchObject({
      level: 'red',
      found: expect.stringMatching(/PRIVACY_EMAIL is not set/),
    });
    expect(before.get('site-statistics')?.level).toBe('red');
    expect(before.get('site-https')).toMatchObject({
      level: 'red',
      found: expect.stringMatching(/the example address/),
    });
    const after = await checksWith({
      STATISTIC_1_SOURCE: 'National Council on Aging, 2025 survey',
      STATISTIC_1_SOURCE_URL: 'https://www.ncoa.org/survey',
    });
    expect(after.get('site-contact')).toMatchObject({ level: 'green', found: 'privacy@ourfamilyfirm.org' });
    expect(after.get('site-statistics')).toMatchObject({
      level: 'green',
      found: 'every statistic names a confirmed source: 1 in 5: National Council on Aging, 2025 survey',
    });
    expect(after.get('site-https')).toMatchObject({ level: 'green', found: 'https://rosas-family-safety.test' });
  });

  it("ask Twilio: the sign-in, and a Messaging Service's A2P 10DLC registration", async () => {
    const ACCOUNT = `AC${'1'.repeat(32)}`;
    const TOKEN = 'a'.repeat(32);
    const SERVICE = `MG${'3'.repeat(32)}`;
    const twilio = await startTwilioStandIn({ accountSid: ACCOUNT, authToken: TOKEN });
    onTestFinished(() => twilio.stop());
    const texts = { TWILIO_ACCOUNT_SID: ACCOUNT, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_API_BASE_URL: twilio.baseUrl };
    twilio.addService(SERVICE, false);
    let checks = await checksWith({ ...texts, TWILIO_MESSAGING_SERVICE_SID: SERVICE });
    expect(checks.get('texts-account')?.level).toBe('green');
    expect(checks.get('texts-a2p')).toMatchObject({
      level: 'red',
      found: expect.stringMatching(/no registered US campaign/),
    });
    twilio.addService(SERVICE, true);
    checks = await checksWith({ ...texts, TWILIO_MESSAGING_SERVICE_SID: SERVICE });
    expect(checks.get('texts-a2p')?.level).toBe('green');
    expect(checks.get('texts-keywords')?.level).toBe('amber');
    checks = await checksWith({ ...texts, TWILIO_FROM: '+12125550100' });
    expect(checks.get('texts-a2p')).toMatchObject({ level: 'amber', found: expect.stringMatching(/does not say/) });
    twilio.setAccountStatus('suspended');
    checks = await checksWith({ ...texts, TWILIO_FROM: '+12125550100' });
    expect(checks.get('texts-account')).toMatchObject({ level: 'red', found: expect.stringMatching(/suspended/) });
  });

  it("say amber for a rehearsal (the folder transports send nothing, and a rehearsal's send may go), and never count a test written to a folder", async () => {
    const rehearsal = {
      SMTP_URL: '',
      MAIL_TRANSPORT: 'folder:rehearsal/email',
      SMS_TRANSPORT: 'folder:rehearsal/texts',
    };
    await store.owners.audit({
      ownerEmail: 'the command line',
      action: 'broadcast',
      subject: 'launch',
      // owner-words.ts, audit.broadcastDetail('test', …, true): a test the rehearsal wrote to a folder
      detail: 'Wrote a rehearsal test for o•••@scamsavvy.example to a folder',
    });
    const checks = await checksWith(rehearsal);
    expect(checks.get('mail-on')).toMatchObject({
      level: 'amber',
      found: expect.stringMatching(/^a rehearsal/),
      fix: expect.stringMatching(/unset MAIL_TRANSPORT/),
    });
    expect(checks.get('texts-on')).toMatchObject({ level: 'amber', found: expect.stringMatching(/^a rehearsal/) });
    expect(checks.get('site-tests')).toMatchObject({ level: 'amber', found: 'no email test yet; no text test yet' });
  });
});
