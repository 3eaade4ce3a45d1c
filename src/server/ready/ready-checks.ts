// "Ready for launch": one list of checks, each green, amber or red with the exact fix, the same for
// `npm run ready` and the dashboard's page (docs/production.md, "Before you go live"). Red: the launch
// would fail or break a rule; amber: worth a look, or a check that could not be made (it says so).
import { LANGUAGES, type Language } from '../../shared/languages.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { createTwilioSmsProvider } from '../messaging/twilio-sms-provider.js';
import { dnsLookup } from './dns-records.js';
import { keyFingerprint } from '../db/secret-keys-repository.js';
import { check, type ReadyCheck, type ReadyFacts } from './ready-check.js';
import { mailChecks } from './mail-checks.js';
import { textChecks, twilioLookup } from './text-checks.js';
import { seedRoundTrip } from './seed-message.js';
import { unknownSettingWords } from '../unknown-settings.js';
import { applySiteFacts, EXAMPLE_PRIVACY_EMAIL, isExampleAddress, statisticsOnPage } from '../site-facts.js';

export type { ReadyCheck, ReadyFacts } from './ready-check.js';

/** What the checks read, from the settings: DNS_RESOLVER's DNS server (or the system's), and Twilio. */
export function readyFacts(
  config: Config,
  db: ReadyFacts['db'],
  { seed = false }: { seed?: boolean } = {},
): ReadyFacts {
  const sms = config.messaging.sms;
  const email = config.messaging.email;
  const seedSettings = config.readySeed;
  return {
    config,
    db,
    dns: dnsLookup(config.dnsResolver),
    ...(sms?.provider === 'twilio' ? { twilio: twilioLookup(sms, createTwilioSmsProvider(sms)) } : {}),
    ...(seed && email?.smtpUrl && seedSettings
      ? { seed: () => seedRoundTrip(email, config.siteUrl, seedSettings, config.dnsResolver) }
      : {}),
  };
}

/** How many checks are of each level. */
export function levelCounts(checks: ReadyCheck[]): Record<ReadyCheck['level'], number> {
  const counts = { red: 0, amber: 0, green: 0 };
  for (const one of checks) counts[one.level] += 1;
  return counts;
}

/** Every check, mail first, then texts, then the site. */
export async function readyChecks(facts: ReadyFacts): Promise<ReadyCheck[]> {
  const [mail, texts, site] = await Promise.all([mailChecks(facts), textChecks(facts), siteChecks(facts)]);
  return [...mail, ...texts, ...site];
}

/** Nothing red: the launch may go. */
export function isReady(checks: ReadyCheck[]): boolean {
  return checks.every((one) => one.level !== 'red');
}

/** How far back the audit log is read for what the owner said (the newest entries). */
const AUDIT_READ = 1_000;
/** The audit line of a test message sent (owner-words.ts, audit.broadcastDetail): the dashboard's and the command's. */
const TEST_SENT = 'Sent a test to ';

/** The audit detail of `ready --key-kept` for this key: its fingerprint, never the key. */
export function keptDetail(secretKey: string): string {
  return `SECRET_KEY ${keyFingerprint(secretKey)} is kept with the backups`;
}

/** Words on the built page that are the examples this repository ships, not the owner's. */
const EXAMPLE_WORDS = [/[\w.+-]+@scamsavvy\.example\b/g, /[\w.+-]+@example\.(com|org|net)\b/g];

async function siteChecks({ config, db }: ReadyFacts): Promise<ReadyCheck[]> {
  const checks: ReadyCheck[] = [];
  // The page as the server sends it in the mode it is in (the build prerenders both), in each language.
  const pageFile = (language: Language) =>
    path.join(
      config.distDir,
      'pages',
      `home${config.launch.mode === 'launched' ? '-launched' : ''}${language === 'en' ? '' : `-${language}`}.html`,
    );
  const pages = await Promise.all(
    LANGUAGES.map(async (language) => ({
      language,
      file: pageFile(language),
      html: await readFile(pageFile(language), 'utf8').catch(() => undefined),
    })),
  );
  const missing = pages.filter((one) => one.html === undefined);
  if (missing.length > 0)
    checks.push(
      check(
        'site-page',
        'site',
        'red',
        'The page is built',
        `${missing.map((one) => one.file).join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing`,
        'Run npm run build.',
      ),
    );
  else {
    // The pages as the server sends them: the owner's facts written over the built words.
    const facts = config.siteFacts ?? { statistics: {}, showUnconfirmed: false };
    const served = pages.map((one) => ({ ...one, html: applySiteFacts(one.html ?? '', facts, one.language) }));
    const page = served.map((one) => one.html).join('\n');
    const examples = [...new Set(EXAMPLE_WORDS.flatMap((pattern) => page.match(pattern) ?? []))];
    const contact = facts.privacyEmail;
    const contactIsExample = !contact || isExampleAddress(contact);
    checks.push(
      check(
        'site-contact',
        'site',
        contactIsExample || examples.length > 0 ? 'red' : 'green',
        'The privacy contact is yours',
        !contact
          ? `PRIVACY_EMAIL is not set: the page says ${EXAMPLE_PRIVACY_EMAIL}, an example address`
          : contactIsExample
            ? `it is an example: ${contact}`
            : examples.length > 0
              ? `${contact}, but the page still says ${examples.join(', ')}, an example address`
              : contact,
        'Set PRIVACY_EMAIL to the inbox where people write about their details, then restart: sudo systemctl restart scamsavvy',
      ),
    );
    // Each statistic as the English page shows it, with its source; counted on each language's page.
    const english = statisticsOnPage(served.find((one) => one.language === 'en')?.html ?? '');
    const unconfirmed = Math.max(...served.map((one) => statisticsOnPage(one.html).filter((s) => !s.confirmed).length));
    checks.push(
      check(
        'site-statistics',
        'site',
        unconfirmed > 0 ? 'red' : 'green',
        'Every statistic has its source',
        `${
          unconfirmed > 0
            ? `${unconfirmed} ${unconfirmed === 1 ? 'statistic says its' : 'statistics say their'} source is still being confirmed`
            : 'every statistic names a confirmed source'
        }: ${english.map((one) => `${one.figure}: ${one.source}${one.confirmed ? '' : ' (still being confirmed)'}`).join('; ')}`,
        'Set each STATISTIC_N_SOURCE (and STATISTIC_N_SOURCE_URL) to the study, or change the figure with STATISTIC_N_FIGURE and STATISTIC_N_WORDS (and their _ES), then restart (docs/content.md, "Statistics").',
      ),
    );
  }
  const unknown = config.unknownSettings ?? [];
  checks.push(
    check(
      'site-setting-names',
      'site',
      unknown.length > 0 ? 'amber' : 'green',
      'Every setting is one we know',
      unknown.length > 0 ? unknown.map(unknownSettingWords).join('; ') : 'no setting name is misspelled',
      'Correct each name in the settings file (docs/production.md, "4. Set the variables"), then restart: sudo systemctl restart scamsavvy',
    ),
  );
  const address = config.messaging.postalAddress;
  checks.push(
    check(
      'site-postal-address',
      'site',
      !address || /\bexample\b/i.test(address) ? 'red' : 'green',
      'Your postal address is set',
      !address
        ? 'MAIL_POSTAL_ADDRESS is not set'
        : /\bexample\b/i.test(address)
          ? `it is the example: ${address}`
          : address,
      'Set MAIL_POSTAL_ADDRESS to your street address, PO box or registered private mailbox (CAN-SPAM requires it in every email).',
    ),
  );
  const site = new URL(config.siteUrl);
  checks.push(
    check(
      'site-https',
      'site',
      site.protocol === 'https:' && !isExampleAddress(site.hostname) ? 'green' : 'red',
      'SITE_URL is your https address',
      isExampleAddress(site.hostname) ? `${config.siteUrl} is the example address` : config.siteUrl,
      'Set SITE_URL to the https:// address visitors use (every link in every message points to it).',
    ),
  );
  const links = config.launch;
  const linkList = [
    ['APP_STORE_URL', links.appStoreUrl],
    ['PLAY_STORE_URL', links.playStoreUrl],
    ['BETA_IOS_URL', links.betaIosUrl],
    ['BETA_ANDROID_URL', links.betaAndroidUrl],
  ] as const;
  const storesSet = Boolean(links.appStoreUrl && links.playStoreUrl);
  checks.push(
    check(
      'site-store-links',
      'site',
      storesSet ? 'green' : 'amber',
      'The store and beta links are set',
      linkList.map(([name, url]) => `${name}: ${url ?? 'not set'}`).join('; '),
      'Set APP_STORE_URL and PLAY_STORE_URL before the launch (the launched page and the launch messages link to them), and BETA_IOS_URL and BETA_ANDROID_URL for beta testers.',
    ),
  );
  const backup = config.backup;
  checks.push(
    check(
      'site-backups',
      'site',
      backup?.command ? 'green' : 'red',
      'Backups are on and copied off this machine',
      !backup
        ? 'BACKUP_DIR is not set: no automatic backups'
        : !backup.command
          ? `backups go to ${backup.dir}, but nothing copies them off this machine`
          : `every ${backup.everyHours} h to ${backup.dir}, copied off by BACKUP_COMMAND`,
      'Set BACKUP_DIR and BACKUP_COMMAND (docs/production.md, "Backups").',
    ),
  );
  // Said once by the owner (sudo scamsavvy ready --key-kept), for this key: a new key asks again.
  const said = await db.owners.auditLog(AUDIT_READ);
  const secretKey = config.messaging.secretKey;
  const kept = secretKey
    ? said.find((entry) => entry.action === 'key_kept' && entry.detail === keptDetail(secretKey))
    : undefined;
  checks.push(
    check(
      'site-secret-key',
      'site',
      kept ? 'green' : 'amber',
      'SECRET_KEY is kept with the backups',
      kept
        ? `you said so on ${kept.at.slice(0, 10)}, for the key now set (fingerprint ${keyFingerprint(secretKey!)})`
        : 'a restore needs the same SECRET_KEY (the database refuses another); you have not said it is kept with the backups',
      'Keep a copy of SECRET_KEY where your backups are kept, apart from this machine (docs/production.md), then say so once: sudo scamsavvy ready --key-kept',
    ),
  );
  // A real test of each channel, sent to yourself (the command and the dashboard both record it).
  const tests = said.filter((entry) => entry.action === 'broadcast' && entry.detail?.startsWith(TEST_SENT));
  const emailTested = tests.some((entry) => entry.detail?.includes('@'));
  const textTested = tests.some((entry) => entry.detail?.includes('a phone ending'));
  const textsOn = config.messaging.sms !== undefined;
  checks.push(
    check(
      'site-tests',
      'site',
      emailTested && (textTested || !textsOn) ? 'green' : 'amber',
      'You sent yourself a test of each channel',
      [
        emailTested ? 'an email test went' : 'no email test yet',
        textsOn ? (textTested ? 'a text test went' : 'no text test yet') : '',
      ]
        .filter(Boolean)
        .join('; '),
      'Send yourself one of each and read it on your phone: sudo scamsavvy broadcast test NAME --to you@… (and --to +1…).',
    ),
  );
  const owners = await db.owners.list();
  checks.push(
    check(
      'site-owner',
      'site',
      owners.length > 0 ? 'green' : 'red',
      'An owner can sign in to the dashboard',
      owners.length > 0 ? `${owners.length} ${owners.length === 1 ? 'owner' : 'owners'}` : 'no owner yet',
      'Add yourself: sudo scamsavvy owner:add --email you@yourdomain (docs/owner-guide.md).',
    ),
  );
  // The owner's webhook endpoints, where there are any: one paused is never left unseen (issue 56).
  const endpoints = await db.webhooks.list();
  const paused = endpoints.filter((endpoint) => endpoint.pausedAt !== null);
  if (endpoints.length > 0)
    checks.push(
      check(
        'site-webhooks',
        'site',
        paused.length > 0 ? 'amber' : 'green',
        'The webhook endpoints take their events',
        paused.length > 0
          ? paused.map((endpoint) => `${endpoint.name} is paused: ${endpoint.pausedReason ?? ''}`).join('; ')
          : `${endpoints.length} ${endpoints.length === 1 ? 'endpoint' : 'endpoints'}, none paused`,
        'See why on the dashboard’s Webhooks page (or sudo scamsavvy webhooks list); once it answers again, resume it: what waited is sent then.',
      ),
    );
  return checks;
}
