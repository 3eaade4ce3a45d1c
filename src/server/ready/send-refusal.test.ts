// Each red launch check refuses a first send, by name: from a world where every check is green (a DNS
// server on loopback with the domain's records, the Twilio stand-in, a built page of the owner's own,
// backups, an owner), one thing is broken at a time, and the command's start refuses naming that
// check, and only it; put right, the start goes on.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBroadcastControl } from '../compose.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Db } from '../db/open-database.js';
import { startDnsServer, type DnsServer } from '../test/dns-server.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { tempDatabaseFile } from '../test/temp-database.js';
import { startTwilioStandIn, type TwilioStandIn } from '../test/twilio-stand-in.js';
import { dkimPublicKey } from './mail-checks.js';
import { keptDetail } from './ready-checks.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const SECRET = 'k'.repeat(40);
const ACCOUNT = `AC${'1'.repeat(32)}`;
const TOKEN = 'a'.repeat(32);
const SERVICE = `MG${'3'.repeat(32)}`;
const OWN_PAGE = '<p>Write to privacy@ourfamilyfirm.org.</p>';

let dns: DnsServer;
let smtp: SmtpSink;
let twilio: TwilioStandIn;
let store: Db;
let dist: string;

function page(html: string, spanish = html) {
  mkdirSync(path.join(dist, 'pages'), { recursive: true });
  writeFileSync(path.join(dist, 'pages', 'home.html'), html);
  writeFileSync(path.join(dist, 'pages', 'home-es.html'), spanish);
}

function configWith(env: Record<string, string> = {}, change: Partial<Config> = {}): Config {
  return {
    ...loadConfig(
      {
        SITE_URL: 'https://rosas-family-safety.test',
        PRIVACY_EMAIL: 'privacy@ourfamilyfirm.org',
        SECRET_KEY: SECRET,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
        DKIM_DOMAIN: 'scamsavvy.example',
        DKIM_SELECTOR: 'mail',
        DKIM_PRIVATE_KEY: KEY.replace(/\n/g, '\\n'),
        MAIL_POSTAL_ADDRESS: '12 Harbor Road, Portland, ME 04101',
        EMAIL_CONFIRMATION: 'off',
        APP_STORE_URL: 'https://apps.apple.com/app/id000000',
        PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=example.app',
        TWILIO_ACCOUNT_SID: ACCOUNT,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_MESSAGING_SERVICE_SID: SERVICE,
        TWILIO_API_BASE_URL: twilio.baseUrl,
        BACKUP_DIR: path.join(dist, 'backups'),
        BACKUP_COMMAND: 'true',
        DNS_RESOLVER: dns.address,
        ...env,
      },
      '/',
    ),
    distDir: dist,
    ...change,
  };
}

/** The command's start of "launch" under these settings: the refusal's words, or undefined when it starts. */
async function start(config: Config): Promise<string | undefined> {
  const control = createBroadcastControl(config, store);
  if (!(await control.find('launch')))
    await control.create({ name: 'launch', template: 'launch', channels: ['email'] });
  try {
    await control.startFromCommand('launch', { workers: 1, resume: false, resendUnknown: false });
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

beforeEach(async () => {
  dns = await startDnsServer({
    'scamsavvy.example': ['v=spf1 ip4:127.0.0.1 -all'],
    'mail._domainkey.scamsavvy.example': [`v=DKIM1; k=rsa; p=${dkimPublicKey(KEY)}`],
    '_dmarc.scamsavvy.example': ['v=DMARC1; p=none'],
  });
  smtp = await startSmtpSink();
  twilio = await startTwilioStandIn({ accountSid: ACCOUNT, authToken: TOKEN });
  twilio.addService(SERVICE, true);
  store = await openDatabase({ kind: 'sqlite', file: tempDatabaseFile() });
  await store.owners.add('owner@scamsavvy.example');
  await store.owners.audit({ ownerEmail: 'owner@scamsavvy.example', action: 'key_kept', detail: keptDetail(SECRET) });
  await store.signups.add({ name: 'Rosa', email: 'rosa@example.com', phone: '+12125550142', betaTesting: false });
  dist = mkdtempSync(path.join(tmpdir(), 'refusal-'));
  page(OWN_PAGE);
});

afterEach(async () => {
  await store.close();
  await twilio.stop();
  await smtp.stop();
  await dns.close();
});

type Breakage = {
  check: string;
  title: RegExp;
  env?: Record<string, string>;
  change?: Partial<Config>;
  before?: () => void;
};
const breakages: Breakage[] = [
  { check: 'mail-spf', title: /SPF for scamsavvy\.example/, before: () => dns.set('scamsavvy.example', undefined) },
  {
    check: 'mail-dkim',
    title: /DKIM key mail\._domainkey\.scamsavvy\.example/,
    before: () => dns.set('mail._domainkey.scamsavvy.example', ['v=DKIM1; k=rsa; p=AAAA']),
  },
  {
    check: 'mail-dmarc',
    title: /DMARC for scamsavvy\.example/,
    before: () => dns.set('_dmarc.scamsavvy.example', undefined),
  },
  {
    check: 'mail-alignment',
    title: /The From domain \(scamsavvy\.example\) is aligned/,
    env: { DKIM_DOMAIN: 'other.example', BOUNCE_ADDRESS: 'bounces@other.example', SECRET_KEY: SECRET },
    before: () => dns.set('mail._domainkey.other.example', [`v=DKIM1; k=rsa; p=${dkimPublicKey(KEY)}`]),
  },
  { check: 'texts-account', title: /Twilio takes our sign-in/, before: () => twilio.setAccountStatus('suspended') },
  { check: 'texts-a2p', title: /Registered for A2P 10DLC/, before: () => twilio.addService(SERVICE, false) },
  {
    check: 'site-page',
    title: /The page is built/,
    change: {},
    before: () => (dist = mkdtempSync(path.join(tmpdir(), 'unbuilt-'))),
  },
  {
    check: 'site-contact',
    title: /The privacy contact is yours/,
    before: () => page('<p>Write to privacy@scamsavvy.example.</p>'),
  },
  {
    check: 'site-statistics',
    title: /Every statistic has its source/,
    before: () =>
      page(
        `${OWN_PAGE}<span data-fact="statistic-1-figure">1 in 5</span>: <span data-fact="statistic-1-source">a survey</span><span data-fact="statistic-1-unconfirmed"> (we are still confirming the original study)</span>`,
      ),
  },
  {
    check: 'site-postal-address',
    title: /Your postal address is set/,
    env: { MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701' },
  },
  {
    check: 'site-https',
    title: /SITE_URL is your https address/,
    change: { siteUrl: 'http://rosas-family-safety.test' },
  },
  { check: 'site-backups', title: /Backups are on and copied off this machine/, env: { BACKUP_COMMAND: '' } },
];

describe('a first send waits for the launch checks', () => {
  it('starts when every check is green or amber', async () => {
    expect(await start(configWith())).toBeUndefined();
  });

  it.each(breakages.map((one) => [one.check, one] as const))(
    '%s red: refused, naming it and only it',
    async (_id, breakage) => {
      breakage.before?.();
      const refused = await start(configWith(breakage.env, breakage.change));
      expect(refused).toMatch(/^Not ready for launch: /);
      expect(refused).toMatch(breakage.title);
      // Only this check: no other check's title is in the refusal.
      const named = breakages.filter((other) => other.title.test(refused!)).map((other) => other.check);
      expect(named).toEqual([breakage.check]);
      expect(refused).not.toContain('An owner can sign in');
    },
  );

  it('with no owner: refused, naming it', async () => {
    const other = await openDatabase({ kind: 'sqlite', file: tempDatabaseFile() });
    const previous = store;
    store = other;
    try {
      expect(await start(configWith())).toMatch(/An owner can sign in to the dashboard \(no owner yet\)/);
    } finally {
      store = previous;
      await other.close();
    }
  });
});
