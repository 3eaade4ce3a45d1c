// Reads and checks the environment once at start-up; every bad variable is reported together.
import path from 'node:path';
import { z } from 'zod';
import type { PublicConfig } from '../shared/public-config.js';
import {
  DEFAULT_BACKUP_EVERY_HOURS,
  DEFAULT_BACKUP_KEEP,
  DEFAULT_PG_POOL_SIZE,
  DEFAULT_SQLITE_FILE,
  environmentSchema,
  type SiteMode,
} from './environment.js';
import { messagingFrom, type MessagingConfig } from './messaging-config.js';
import { siteFactsFrom, type SiteFacts } from './site-facts.js';
import { unknownSettings, type UnknownSetting } from './unknown-settings.js';

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolSize: number };

/**
 * `DATABASE_URL`: unset is `data/signups.db`; `sqlite:<path>` is that file; `postgres://` or
 * `postgresql://` is that PostgreSQL database.
 */
export function parseDatabaseUrl(
  value: string | undefined,
  cwd = process.cwd(),
  poolSize = DEFAULT_PG_POOL_SIZE,
): DatabaseConfig {
  if (value === undefined || value.trim() === '') {
    return { kind: 'sqlite', file: path.resolve(cwd, DEFAULT_SQLITE_FILE) };
  }
  const url = value.trim();
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new Error('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:data/signups.db');
    return { kind: 'sqlite', file: path.resolve(cwd, file) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url, poolSize };
  throw new Error(
    'DATABASE_URL must be unset, sqlite:<path> (for example sqlite:data/signups.db), or postgres://user@host:5432/database.',
  );
}

/**
 * `TRUST_PROXY`: unset or "false" trusts no proxy (the client is the socket's address); "true"
 * trusts every hop; a number trusts that many hops; otherwise a comma-separated list of proxy
 * addresses or CIDR ranges ("127.0.0.1,10.0.0.0/8").
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export interface RateLimitConfig {
  /** Sign-ups allowed per client address per minute; 0 turns this limit off. */
  perMinute: number;
  /** Sign-ups allowed per client address per hour; 0 turns this limit off. */
  perHour: number;
  /** Shared counters for several instances; unset counts in this process's memory. */
  redisUrl: string | undefined;
  /** First-party event batches (POST /api/events) allowed per client address per minute; 0 turns it off. */
  eventsPerMinute: number;
  /** Provider reports (the webhook routes) allowed per client address per minute; 0 turns it off. */
  webhooksPerMinute?: number;
  /** Requests through /api/v1 allowed per API key per minute (API_RATE_LIMIT_PER_MINUTE). */
  apiPerMinute?: number;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  rateLimit: RateLimitConfig;
  trustProxy: boolean | number | string[];
  /** The analytics providers switched on and the consent mode: all the page is told. */
  publicConfig: PublicConfig;
  /** Where the built site is: dist/client (assets) and dist/pages (prerendered HTML). */
  distDir: string;
  /**
   * The address visitors use (no trailing slash), for the canonical link, the share tags and the
   * sitemap. `SITE_URL`; unset, it is this server's own local address (`siteUrlIsDefault`).
   */
  siteUrl: string;
  siteUrlIsDefault: boolean;
  /** Email and text messages: what is configured (both parts may be off). */
  messaging: MessagingConfig;
  /** The page's mode and the links launch messages and the launched page point to. */
  launch: LaunchConfig;
  /** How broadcasts send (rates are per second, shared by every sender of one broadcast). */
  broadcast: BroadcastConfig;
  /** Automatic backups; absent while BACKUP_DIR is unset. */
  backup?: BackupConfig;
  /** DNS_RESOLVER: the DNS server the launch checks ask (host or host:port); absent: the system's. */
  dnsResolver?: string;
  /** READY_SEED_*: the mailbox the launch check's seed message goes to and is read back from. */
  readySeed?: { address: string; imapUrl: string; waitMs: number };
  /** The privacy contact and the statistics as the owner set them (site-facts.ts). */
  siteFacts?: SiteFacts;
  /** Names set that are not settings of ours (a misspelling): warned of at start and on the Ready page. */
  unknownSettings?: UnknownSetting[];
}

export interface BackupConfig {
  /** BACKUP_DIR, absolute. */
  dir: string;
  everyHours: number;
  keep: number;
  /** BACKUP_COMMAND: run with each new backup's path, to copy it off the machine. */
  command?: string;
  /** BACKUP_COMMAND_ENV: the variables the command gets besides PATH, HOME and BACKUP_FILE. */
  commandEnv?: string[];
}

/**
 * How long a backup may hold someone who deleted their details: the oldest kept backup's age, in
 * whole days (BACKUP_KEEP backups, one every BACKUP_EVERY_HOURS), as the privacy notice promises.
 * Without automatic backups, the defaults: the owner's copies by hand are to be kept no longer.
 */
export function backupDays(backup: Pick<BackupConfig, 'everyHours' | 'keep'> | undefined): number {
  const { everyHours, keep } = backup ?? { everyHours: DEFAULT_BACKUP_EVERY_HOURS, keep: DEFAULT_BACKUP_KEEP };
  return Math.ceil((everyHours * keep) / 24);
}

export interface LaunchConfig {
  mode: SiteMode;
  appStoreUrl?: string;
  playStoreUrl?: string;
  betaIosUrl?: string;
  betaAndroidUrl?: string;
}

export interface BroadcastConfig {
  emailRate: number;
  smsRate: number;
  /** Tries per message while the channel otherwise gets through (one person's server is down). */
  maxAttempts: number;
  /** A channel failing "for now" this long with nothing getting through pauses (BROADCAST_GIVE_UP_AFTER_SECONDS). */
  giveUpAfterSeconds: number;
  /**
   * A running broadcast pauses itself when, after at least 1,000 messages, hard bounces or complaints
   * pass these shares (BROADCAST_MAX_BOUNCE_RATE, BROADCAST_MAX_COMPLAINT_RATE), as fractions.
   */
  maxBounceRate: number;
  maxComplaintRate: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** `inFiles`: the names the settings files hold (settings-files.ts), each checked for being ours. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  inFiles: Iterable<string> = [],
): Config {
  const problems: string[] = [];
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
  }
  let database: DatabaseConfig | undefined;
  try {
    database = parseDatabaseUrl(env.DATABASE_URL, cwd, parsed.success ? parsed.data.PG_POOL_SIZE : undefined);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const messaging = parsed.success ? messagingFrom(parsed.data, problems) : undefined;
  if (parsed.success && parsed.data.SITE_MODE === 'launched') {
    for (const name of ['APP_STORE_URL', 'PLAY_STORE_URL'] as const)
      if (!parsed.data[name]) problems.push(`${name}: required when SITE_MODE=launched (the page's store buttons)`);
  }
  if (parsed.success && Boolean(parsed.data.READY_SEED_ADDRESS) !== Boolean(parsed.data.READY_SEED_IMAP_URL))
    problems.push(
      'READY_SEED_ADDRESS, READY_SEED_IMAP_URL: set both (where the seed goes, and where it is read back), or neither',
    );
  const siteFacts = parsed.success ? siteFactsFrom(parsed.data, problems) : undefined;
  if (parsed.success && parsed.data.BACKUP_COMMAND && !parsed.data.BACKUP_DIR)
    problems.push('BACKUP_COMMAND: needs BACKUP_DIR (it runs after each automatic backup, with its file)');
  if (!parsed.success || !database || !messaging || problems.length > 0) throw new ConfigError(problems);
  return {
    port: parsed.data.PORT,
    host: parsed.data.HOST,
    database,
    logLevel: parsed.data.LOG_LEVEL,
    rateLimit: {
      perMinute: parsed.data.SIGNUP_RATE_LIMIT_PER_MINUTE,
      perHour: parsed.data.SIGNUP_RATE_LIMIT_PER_HOUR,
      redisUrl: parsed.data.REDIS_URL,
      eventsPerMinute: parsed.data.EVENTS_RATE_LIMIT_PER_MINUTE,
      webhooksPerMinute: parsed.data.WEBHOOK_RATE_LIMIT_PER_MINUTE,
      apiPerMinute: parsed.data.API_RATE_LIMIT_PER_MINUTE,
    },
    trustProxy: parseTrustProxy(parsed.data.TRUST_PROXY),
    publicConfig: publicConfigFrom(parsed.data, messaging),
    distDir: path.resolve(cwd, 'dist'),
    siteUrl: (parsed.data.SITE_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/$/, ''),
    siteUrlIsDefault: parsed.data.SITE_URL === undefined,
    unknownSettings: unknownSettings(env, inFiles),
    ...(siteFacts ? { siteFacts } : {}),
    messaging,
    launch: {
      mode: parsed.data.SITE_MODE,
      ...(parsed.data.APP_STORE_URL ? { appStoreUrl: parsed.data.APP_STORE_URL } : {}),
      ...(parsed.data.PLAY_STORE_URL ? { playStoreUrl: parsed.data.PLAY_STORE_URL } : {}),
      ...(parsed.data.BETA_IOS_URL ? { betaIosUrl: parsed.data.BETA_IOS_URL } : {}),
      ...(parsed.data.BETA_ANDROID_URL ? { betaAndroidUrl: parsed.data.BETA_ANDROID_URL } : {}),
    },
    broadcast: {
      emailRate: parsed.data.BROADCAST_EMAIL_RATE,
      smsRate: parsed.data.BROADCAST_SMS_RATE,
      maxAttempts: parsed.data.BROADCAST_MAX_ATTEMPTS,
      giveUpAfterSeconds: parsed.data.BROADCAST_GIVE_UP_AFTER_SECONDS,
      maxBounceRate: parsed.data.BROADCAST_MAX_BOUNCE_RATE,
      maxComplaintRate: parsed.data.BROADCAST_MAX_COMPLAINT_RATE,
    },
    ...(parsed.data.DNS_RESOLVER ? { dnsResolver: parsed.data.DNS_RESOLVER } : {}),
    ...(parsed.data.READY_SEED_ADDRESS && parsed.data.READY_SEED_IMAP_URL
      ? {
          readySeed: {
            address: parsed.data.READY_SEED_ADDRESS,
            imapUrl: parsed.data.READY_SEED_IMAP_URL,
            waitMs: parsed.data.READY_SEED_WAIT_SECONDS * 1000,
          },
        }
      : {}),
    ...(parsed.data.BACKUP_DIR
      ? {
          backup: {
            dir: path.resolve(cwd, parsed.data.BACKUP_DIR),
            everyHours: parsed.data.BACKUP_EVERY_HOURS,
            keep: parsed.data.BACKUP_KEEP,
            ...(parsed.data.BACKUP_COMMAND ? { command: parsed.data.BACKUP_COMMAND } : {}),
            ...(parsed.data.BACKUP_COMMAND_ENV
              ? { commandEnv: parsed.data.BACKUP_COMMAND_ENV.split(/[\s,]+/).filter(Boolean) }
              : {}),
          },
        }
      : {}),
  };
}

function publicConfigFrom(env: z.infer<typeof environmentSchema>, messaging: MessagingConfig): PublicConfig {
  return {
    consentMode: env.CONSENT_MODE,
    ...(env.GA_MEASUREMENT_ID ? { ga4: { measurementId: env.GA_MEASUREMENT_ID } } : {}),
    ...(env.POSTHOG_KEY ? { posthog: { key: env.POSTHOG_KEY, host: env.POSTHOG_HOST.replace(/\/$/, '') } } : {}),
    ...(env.META_PIXEL_ID ? { metaPixel: { pixelId: env.META_PIXEL_ID } } : {}),
    // The success view then says an email is on its way, and the privacy notice when the unconfirmed are deleted.
    ...(messaging.emailConfirmation
      ? {
          emailConfirmation: true,
          unconfirmedRetentionDays: messaging.unconfirmedRetentionDays,
          // Only when the one reminder will come (loadConfig refuses one after the deletion): the success view says so.
          ...(messaging.confirmationReminderDays > 0
            ? { confirmationReminderDays: messaging.confirmationReminderDays }
            : {}),
        }
      : {}),
    ...(messaging.postalAddress ? { postalAddress: messaging.postalAddress } : {}),
  };
}
