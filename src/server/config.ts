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
  type Environment,
  type SiteMode,
} from './environment.js';

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

export interface EmailConfig {
  smtpUrl: string;
  from: string;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}

export interface SmsConfig {
  provider: 'twilio';
  accountSid: string;
  authToken: string;
  /** One of the two: a number of the account's, or a Messaging Service that picks one. */
  from?: string;
  messagingServiceSid?: string;
  /** Twilio's API origin; tests point it at a local stand-in. */
  apiBaseUrl: string;
}

export interface MessagingConfig {
  email?: EmailConfig;
  sms?: SmsConfig;
  /** Signs the links in messages and keys the suppression hashes; set whenever email or sms is. */
  secretKey?: string;
  /** SECRET_KEY_PREVIOUS: the key before a rotation, still read (hashes, links), never written with. */
  previousSecretKey?: string;
  /** SMS_CONFIRMATION: a launch text needs the number's YES (reply), or only the joining text (notice). */
  smsConfirmation?: 'reply' | 'notice';
  /** New sign-ups get a confirmation email and count as confirmed only once they press its button. */
  emailConfirmation: boolean;
  /** Unconfirmed sign-ups are deleted after this many days (while confirmation is on). */
  unconfirmedRetentionDays: number;
  /** Days after the confirmation email that the one reminder goes; 0: none (CONFIRMATION_REMINDER_DAYS). */
  confirmationReminderDays: number;
  /** The sender's postal address (MAIL_POSTAL_ADDRESS), in every list email's footer (CAN-SPAM). */
  postalAddress?: string;
  /** What comes back after a send: each part off until its variables are set (docs/messaging.md, "Hearing back"). */
  feedback?: FeedbackConfig;
}

export interface FeedbackConfig {
  /** VERP: every message's envelope sender is bounces+<token>@… (BOUNCE_ADDRESS). */
  bounceAddress?: string;
  /** The bounce mailbox, read over IMAP (BOUNCE_IMAP_URL). */
  bounceImapUrl?: string;
  /** BOUNCE_MAX_BYTES: a larger message in the bounce mailbox is moved aside unread. */
  bounceMaxBytes?: number;
  mailgun?: { signingKey: string };
  /** Amazon SES through SNS: the topics whose messages are taken (SES_SNS_TOPIC_ARNS). */
  ses?: {
    topicArns: string[];
    /** Tests only: where SNS's own hosts are reached (certificates, subscription confirmations). */
    snsBaseUrl?: string;
  };
  postmark?: { user: string; password: string };
  sendgrid?: { publicKey: string };
  resend?: { secret: string };
}

export const DEFAULT_TWILIO_API_BASE_URL = 'https://api.twilio.com';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
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
    },
    trustProxy: parseTrustProxy(parsed.data.TRUST_PROXY),
    publicConfig: publicConfigFrom(parsed.data, messaging),
    distDir: path.resolve(cwd, 'dist'),
    siteUrl: (parsed.data.SITE_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/$/, ''),
    siteUrlIsDefault: parsed.data.SITE_URL === undefined,
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

/** Messaging settings; a half-configured part is a problem, named by its variables. */
function messagingFrom(env: Environment, problems: string[]): MessagingConfig {
  const email = emailFrom(env, problems);
  const sms = smsFrom(env, problems);
  if ((email || sms) && !env.SECRET_KEY)
    problems.push('SECRET_KEY: required once SMTP_URL or TWILIO_ACCOUNT_SID is set (it signs the links in messages)');
  if ((email || sms) && !env.SITE_URL)
    problems.push('SITE_URL: required once SMTP_URL or TWILIO_ACCOUNT_SID is set (the links in messages point to it)');
  if (env.CONFIRMATION_REMINDER_DAYS !== undefined && env.CONFIRMATION_REMINDER_DAYS >= env.UNCONFIRMED_RETENTION_DAYS)
    problems.push(
      `CONFIRMATION_REMINDER_DAYS: must be fewer than UNCONFIRMED_RETENTION_DAYS (${env.UNCONFIRMED_RETENTION_DAYS}), so the reminder comes before the deletion; 0 sends none`,
    );
  if (env.SECRET_KEY_PREVIOUS && !env.SECRET_KEY)
    problems.push('SECRET_KEY_PREVIOUS: needs SECRET_KEY, the new key it is kept beside');
  if (env.SECRET_KEY_PREVIOUS && env.SECRET_KEY_PREVIOUS === env.SECRET_KEY)
    problems.push('SECRET_KEY_PREVIOUS: must be the key used before SECRET_KEY, not the same one');
  if (env.EMAIL_CONFIRMATION === 'on' && !email)
    problems.push('EMAIL_CONFIRMATION: "on" needs email (SMTP_URL and MAIL_FROM) to send the confirmation');
  return {
    ...(email ? { email } : {}),
    ...(sms ? { sms } : {}),
    ...(env.SECRET_KEY ? { secretKey: env.SECRET_KEY } : {}),
    ...(env.SECRET_KEY_PREVIOUS ? { previousSecretKey: env.SECRET_KEY_PREVIOUS } : {}),
    smsConfirmation: env.SMS_CONFIRMATION,
    emailConfirmation: email !== undefined && env.EMAIL_CONFIRMATION !== 'off',
    unconfirmedRetentionDays: env.UNCONFIRMED_RETENTION_DAYS,
    // Unset: a week, or the day before the deletion when the retention is shorter.
    confirmationReminderDays: env.CONFIRMATION_REMINDER_DAYS ?? Math.min(7, env.UNCONFIRMED_RETENTION_DAYS - 1),
    ...(env.MAIL_POSTAL_ADDRESS ? { postalAddress: env.MAIL_POSTAL_ADDRESS.trim() } : {}),
    feedback: feedbackFrom(env, problems),
  };
}

function feedbackFrom(env: Environment, problems: string[]): FeedbackConfig {
  if (env.BOUNCE_IMAP_URL && !env.BOUNCE_ADDRESS)
    problems.push('BOUNCE_IMAP_URL: needs BOUNCE_ADDRESS (the reports come back to bounces+…@ that address)');
  if (Boolean(env.POSTMARK_WEBHOOK_USER) !== Boolean(env.POSTMARK_WEBHOOK_PASSWORD))
    problems.push(
      'POSTMARK_WEBHOOK_USER, POSTMARK_WEBHOOK_PASSWORD: set both (the webhook refuses everything otherwise)',
    );
  if (env.SES_SNS_BASE_URL && !env.SES_SNS_TOPIC_ARNS)
    problems.push('SES_SNS_BASE_URL: only for tests, with SES_SNS_TOPIC_ARNS');
  const anyProvider = [
    env.BOUNCE_ADDRESS,
    env.MAILGUN_WEBHOOK_SIGNING_KEY,
    env.SES_SNS_TOPIC_ARNS,
    env.POSTMARK_WEBHOOK_USER,
    env.SENDGRID_WEBHOOK_PUBLIC_KEY,
    env.RESEND_WEBHOOK_SECRET,
  ].some(Boolean);
  if (anyProvider && !env.SECRET_KEY)
    problems.push('SECRET_KEY: required to hear back from providers (it signs the token each message carries)');
  return {
    ...(env.BOUNCE_ADDRESS ? { bounceAddress: env.BOUNCE_ADDRESS } : {}),
    ...(env.BOUNCE_IMAP_URL ? { bounceImapUrl: env.BOUNCE_IMAP_URL, bounceMaxBytes: env.BOUNCE_MAX_BYTES } : {}),
    ...(env.MAILGUN_WEBHOOK_SIGNING_KEY ? { mailgun: { signingKey: env.MAILGUN_WEBHOOK_SIGNING_KEY } } : {}),
    ...(env.SES_SNS_TOPIC_ARNS
      ? {
          ses: {
            topicArns: env.SES_SNS_TOPIC_ARNS.split(',').map((arn) => arn.trim()),
            ...(env.SES_SNS_BASE_URL ? { snsBaseUrl: env.SES_SNS_BASE_URL.replace(/\/$/, '') } : {}),
          },
        }
      : {}),
    ...(env.POSTMARK_WEBHOOK_USER && env.POSTMARK_WEBHOOK_PASSWORD
      ? { postmark: { user: env.POSTMARK_WEBHOOK_USER, password: env.POSTMARK_WEBHOOK_PASSWORD } }
      : {}),
    ...(env.SENDGRID_WEBHOOK_PUBLIC_KEY
      ? { sendgrid: { publicKey: env.SENDGRID_WEBHOOK_PUBLIC_KEY.replace(/\s+/g, '') } }
      : {}),
    ...(env.RESEND_WEBHOOK_SECRET ? { resend: { secret: env.RESEND_WEBHOOK_SECRET } } : {}),
  };
}

function emailFrom(env: Environment, problems: string[]): EmailConfig | undefined {
  const dkimParts = [env.DKIM_DOMAIN, env.DKIM_SELECTOR, env.DKIM_PRIVATE_KEY];
  if (dkimParts.some(Boolean) && !dkimParts.every(Boolean))
    problems.push('DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY: set all three to sign, or none');
  if (!env.SMTP_URL) {
    if (env.MAIL_FROM) problems.push('SMTP_URL: needed with MAIL_FROM (where the email goes out)');
    if (dkimParts.some(Boolean)) problems.push('SMTP_URL: needed with the DKIM keys');
    return undefined;
  }
  if (!env.MAIL_FROM) {
    problems.push('MAIL_FROM: needed with SMTP_URL (who the email is from, e.g. ScamSavvy <hello@scamsavvy.example>)');
    return undefined;
  }
  return {
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    ...(env.DKIM_DOMAIN && env.DKIM_SELECTOR && env.DKIM_PRIVATE_KEY
      ? {
          dkim: {
            domainName: env.DKIM_DOMAIN,
            keySelector: env.DKIM_SELECTOR,
            // A key kept on one line of an environment file has its line breaks written as \n.
            privateKey: env.DKIM_PRIVATE_KEY.replace(/\\n/g, '\n'),
          },
        }
      : {}),
  };
}

function smsFrom(env: Environment, problems: string[]): SmsConfig | undefined {
  const any = env.TWILIO_ACCOUNT_SID || env.TWILIO_AUTH_TOKEN || env.TWILIO_FROM || env.TWILIO_MESSAGING_SERVICE_SID;
  if (!any) return undefined;
  if (!env.TWILIO_ACCOUNT_SID || !env.TWILIO_AUTH_TOKEN) {
    problems.push('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN: set both to send texts');
    return undefined;
  }
  if (!env.TWILIO_FROM && !env.TWILIO_MESSAGING_SERVICE_SID) {
    problems.push('TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID: set one, so texts have a sender');
    return undefined;
  }
  return {
    provider: 'twilio',
    accountSid: env.TWILIO_ACCOUNT_SID,
    authToken: env.TWILIO_AUTH_TOKEN,
    ...(env.TWILIO_FROM ? { from: env.TWILIO_FROM } : {}),
    ...(env.TWILIO_MESSAGING_SERVICE_SID ? { messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID } : {}),
    apiBaseUrl: (env.TWILIO_API_BASE_URL ?? DEFAULT_TWILIO_API_BASE_URL).replace(/\/$/, ''),
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
