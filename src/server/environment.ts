// Every environment variable the server reads, as one schema (zod): its name, its default and what
// a good value looks like. config.ts reads it once at start into the Config the code uses.
import { z } from 'zod';
import {
  CONSENT_MODES,
  GA_MEASUREMENT_ID_PATTERN,
  META_PIXEL_ID_PATTERN,
  POSTHOG_KEY_PATTERN,
} from '../shared/public-config.js';
import { siteFactsSettings } from './site-facts.js';

export const DEFAULT_SQLITE_FILE = 'data/signups.db';

/** `SITE_MODE`: before the launch the page collects sign-ups; once launched it sends people to the stores. */
export const SITE_MODES = ['coming-soon', 'launched'] as const;
export type SiteMode = (typeof SITE_MODES)[number];

export const HTTPS_URL = /^https:\/\/[^\s/]+(\/\S*)?$/;

/**
 * Messages per second a broadcast sends on each channel, across all its senders: the provider's
 * limit is the ceiling (Amazon SES starts at 14 emails a second; a Twilio long code sends 1 text a second).
 */
export const DEFAULT_BROADCAST_RATES = { email: 14, sms: 1 } as const;
/** Tries per message before a temporary failure is given up. */
export const DEFAULT_BROADCAST_MAX_ATTEMPTS = 6;
/** Seconds a channel may fail "for now" with nothing getting through before it pauses (never abandons). */
export const DEFAULT_BROADCAST_GIVE_UP_AFTER_SECONDS = 1800;
/** PostHog Cloud, US region. EU projects use https://eu.i.posthog.com. */
export const DEFAULT_POSTHOG_HOST = 'https://us.i.posthog.com';

/** Connections per instance: a few per core covers batched writes and the odd read. */
export const DEFAULT_PG_POOL_SIZE = 10;

/** Automatic backups (BACKUP_DIR): one a day, the last two weeks kept. */
export const DEFAULT_BACKUP_EVERY_HOURS = 24;
export const DEFAULT_BACKUP_KEEP = 14;

export const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('localhost'),
  DATABASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PG_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(DEFAULT_PG_POOL_SIZE),
  SIGNUP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(5),
  SIGNUP_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(0).default(20),
  REDIS_URL: z
    .string()
    .trim()
    .regex(/^rediss?:\/\//, { error: 'must start with redis:// or rediss://' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TRUST_PROXY: z.string().trim().optional(),
  EVENTS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  WEBHOOK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(6000),
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  GA_MEASUREMENT_ID: optionalText(GA_MEASUREMENT_ID_PATTERN, 'must look like G-XXXXXXXXXX'),
  POSTHOG_KEY: optionalText(POSTHOG_KEY_PATTERN, 'must be a PostHog project API key, starting phc_'),
  POSTHOG_HOST: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^/\s]+\/?$/, { error: 'must be an origin such as https://us.i.posthog.com' })
    .default(DEFAULT_POSTHOG_HOST)
    .or(z.literal('').transform(() => DEFAULT_POSTHOG_HOST)),
  META_PIXEL_ID: optionalText(META_PIXEL_ID_PATTERN, 'must be the digits of a Meta Pixel ID'),
  CONSENT_MODE: z.enum(CONSENT_MODES).default('opt-in'),
  SITE_URL: z
    .string()
    .trim()
    .regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?\/?$/, {
      error: 'must be the address visitors use, an origin such as https://scamsavvy.example',
    })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // Messaging (docs/messaging.md): each part is off while its variables are unset.
  SMTP_URL: optionalText(/^smtps?:\/\/[^\s/]+/, 'must look like smtp://user:password@host:587 or smtps://…'),
  MAIL_TRANSPORT: optionalText(
    /^(smtp|folder:\S.*)$/,
    'must be smtp (SMTP_URL, the default) or folder:PATH (every email written to PATH as a .eml file: a rehearsal)',
  ),
  SMS_TRANSPORT: optionalText(
    /^(twilio|folder:\S.*)$/,
    'must be twilio (the default) or folder:PATH (every text written to PATH as a .json file: a rehearsal)',
  ),
  MAIL_FROM: optionalText(
    /^(?:[^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/,
    'must be an address, or a name and an address: ScamSavvy <hello@scamsavvy.example>',
  ),
  DKIM_DOMAIN: optionalText(/^[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/, 'must be a domain name such as scamsavvy.example'),
  DKIM_SELECTOR: optionalText(/^[A-Za-z0-9._-]+$/, 'must be the selector of your DKIM DNS record, such as mail'),
  DKIM_PRIVATE_KEY: optionalText(
    /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
    'must be a PEM private key (-----BEGIN PRIVATE KEY-----…)',
  ),
  TWILIO_ACCOUNT_SID: optionalText(/^AC[0-9a-fA-F]{32}$/, 'must be your Twilio Account SID (AC and 32 hex digits)'),
  TWILIO_AUTH_TOKEN: optionalText(/^[0-9a-fA-F]{32}$/, 'must be your Twilio Auth Token (32 hex digits)'),
  TWILIO_FROM: optionalText(/^\+[1-9]\d{1,14}$/, 'must be your Twilio number in E.164 form, such as +15551234567'),
  TWILIO_MESSAGING_SERVICE_SID: optionalText(
    /^MG[0-9a-fA-F]{32}$/,
    'must be a Messaging Service SID (MG and 32 hex digits)',
  ),
  TWILIO_API_BASE_URL: optionalText(/^https?:\/\/[^\s/]+\/?$/, 'must be an origin such as https://api.twilio.com'),
  MAIL_POSTAL_ADDRESS: optionalText(
    /^[^\n]{10,300}$/,
    'must be your postal address on one line, 10 to 300 characters (a street address, PO box or registered private mailbox)',
  ),
  SECRET_KEY: optionalText(/^.{32,}$/, 'must be at least 32 characters (openssl rand -base64 32 makes one)'),
  SECRET_KEY_PREVIOUS: optionalText(/^.{32,}$/, 'must be the SECRET_KEY used before, at least 32 characters'),
  BOUNCE_ADDRESS: optionalText(
    /^[^\s@+]+@[^\s@]+\.[^\s@]+$/,
    'must be an address without a + (e.g. bounces@mail.example.org)',
  ),
  BOUNCE_IMAP_URL: optionalText(
    /^imaps?:\/\/\S+$/,
    'must be imaps://user:password@host:993/INBOX (or imap:// on loopback)',
  ),
  BOUNCE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(10_000)
    .max(50 * 1024 * 1024)
    .default(2 * 1024 * 1024),
  MAILGUN_WEBHOOK_SIGNING_KEY: optionalText(/^\S{16,}$/, 'must be the HTTP webhook signing key from Mailgun'),
  SES_SNS_TOPIC_ARNS: optionalText(
    /^arn:aws(-[a-z]+)*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\s*,\s*arn:aws(-[a-z]+)*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256})*$/,
    'must be the SNS topic ARNs SES reports to, separated by commas (arn:aws:sns:us-east-1:123456789012:ses-feedback)',
  ),
  SES_SNS_BASE_URL: optionalText(/^https?:\/\/[^\s/]+\/?$/, 'must be an origin such as http://127.0.0.1:4330'),
  POSTMARK_WEBHOOK_USER: optionalText(/^[^\s:]{8,}$/, 'must be at least 8 characters, without spaces or colons'),
  POSTMARK_WEBHOOK_PASSWORD: optionalText(
    /^\S{16,}$/,
    'must be at least 16 characters (openssl rand -hex 16 makes one)',
  ),
  SENDGRID_WEBHOOK_PUBLIC_KEY: optionalText(
    /^[A-Za-z0-9+/=\s]{80,}$/,
    'must be the verification key SendGrid shows for the signed Event Webhook (base64)',
  ),
  RESEND_WEBHOOK_SECRET: optionalText(
    /^whsec_[A-Za-z0-9+/=]{16,}$/,
    'must be the signing secret Resend shows (whsec_…)',
  ),
  // Backups (docs/production.md): off while BACKUP_DIR is unset.
  BACKUP_DIR: optionalText(/^\S(.*\S)?$/, 'must be a folder, such as /var/backups/scamsavvy'),
  BACKUP_EVERY_HOURS: z.coerce.number().positive().max(8760).default(DEFAULT_BACKUP_EVERY_HOURS),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_BACKUP_KEEP),
  BACKUP_COMMAND: optionalText(/^\S/, 'must be a command, such as rclone copy {file} remote:scamsavvy-backups'),
  BACKUP_COMMAND_ENV: optionalText(
    /^[A-Z_][A-Z0-9_]*([\s,]+[A-Z_][A-Z0-9_]*)*$/,
    'must be variable names, such as AWS_ACCESS_KEY_ID,AWS_SECRET_ACCESS_KEY or RCLONE_CONFIG',
  ),
  EMAIL_CONFIRMATION: z
    .enum(['on', 'off'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  UNCONFIRMED_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // A "yes" to texts (decision 041): a reply YES to the joining text, or (notice) the joining text itself.
  SMS_CONFIRMATION: z
    .enum(['reply', 'notice'])
    .default('reply')
    .or(z.literal('').transform(() => 'reply' as const)),
  CONFIRMATION_REMINDER_DAYS: z.coerce.number().int().min(0).max(3650).optional(),
  // Texts wait for daytime where the person is (docs/messaging.md): the owner's hours, which can only
  // narrow the rules'; the country of numbers typed without a country code; and, for tests only, the
  // instant the text rules take "now" to be (the rest of the product keeps the real clock).
  // The DNS server `npm run ready` asks about the sending domain (host:port); unset, the system's.
  DNS_RESOLVER: optionalText(
    /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/,
    'must be a DNS server as host or host:port, such as 127.0.0.1:53 or 1.1.1.1',
  ),
  // Who answers STOP, START, YES and HELP: ours (the default), or Twilio alone (its own handling is
  // on for the number: then ours stay silent, so nobody gets two answers). docs/messaging.md, "Replies".
  SMS_KEYWORD_REPLIES: z
    .enum(['ours', 'twilio'])
    .default('ours')
    .or(z.literal('').transform(() => 'ours' as const)),
  // The launch check's seed message (docs/production.md): a mailbox of yours it is sent to and read back from.
  READY_SEED_ADDRESS: optionalText(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address of yours'),
  READY_SEED_IMAP_URL: optionalText(
    /^imaps?:\/\/\S+$/,
    'must be imaps://user:password@host:993/INBOX (or imap:// on loopback)',
  ),
  READY_SEED_WAIT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  SMS_SEND_HOURS: optionalText(
    /^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$/,
    'must be two local times, the first earlier, such as 09:00-20:00',
  ),
  SMS_DEFAULT_COUNTRY: optionalText(/^[A-Z]{2}$/, 'must be a two-letter country code in capitals, such as US or CA'),
  SMS_COUNTRIES: optionalText(
    /^[A-Za-z]{2}(\s*,\s*[A-Za-z]{2})*$/,
    'must be two-letter country codes separated by commas, such as US,CA',
  ),
  TEST_TEXT_CLOCK: optionalText(
    /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?(\.\d+)?Z$/,
    'must be an instant in UTC, such as 2026-06-10T20:00:00Z (tests only)',
  ),
  // Launch day (docs/launch-day.md): the page's mode, the store links, and how fast broadcasts send.
  SITE_MODE: z
    .enum(SITE_MODES)
    .default('coming-soon')
    .or(z.literal('').transform(() => 'coming-soon' as const)),
  // The privacy contact and the statistics' figures, words and sources (site-facts.ts).
  ...siteFactsSettings,
  APP_STORE_URL: optionalText(HTTPS_URL, "must be the app's https:// address on the App Store"),
  PLAY_STORE_URL: optionalText(HTTPS_URL, "must be the app's https:// address on Google Play"),
  BETA_IOS_URL: optionalText(HTTPS_URL, 'must be the https:// TestFlight link for beta testers'),
  BETA_ANDROID_URL: optionalText(HTTPS_URL, 'must be the https:// Google Play testing link for beta testers'),
  BROADCAST_EMAIL_RATE: z.coerce.number().positive().max(100_000).default(DEFAULT_BROADCAST_RATES.email),
  BROADCAST_SMS_RATE: z.coerce.number().positive().max(10_000).default(DEFAULT_BROADCAST_RATES.sms),
  BROADCAST_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(DEFAULT_BROADCAST_MAX_ATTEMPTS),
  BROADCAST_GIVE_UP_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(DEFAULT_BROADCAST_GIVE_UP_AFTER_SECONDS),
  BROADCAST_MAX_BOUNCE_RATE: rate('2%'),
  BROADCAST_MAX_COMPLAINT_RATE: rate('0.1%'),
});

/** A share, written "2%" or 0.02: the fraction. */
function rate(fallback: string) {
  return z
    .string()
    .trim()
    .default(fallback)
    .transform((text, context) => {
      const percent = text.endsWith('%');
      const value = Number(percent ? text.slice(0, -1) : text) / (percent ? 100 : 1);
      if (!Number.isFinite(value) || value <= 0 || value >= 1) {
        context.addIssue({ code: 'custom', message: 'must be a share such as 2% or 0.02' });
        return z.NEVER;
      }
      return value;
    });
}

/** Every variable the server reads (README.md and .env.example document each; a test holds them to it). */
export const ENVIRONMENT_VARIABLES = Object.keys(environmentSchema.shape);

/** A value that may be unset or empty (off); when set, it must match (an ID's shape, a URL's, a key's). */
export function optionalText(pattern: RegExp, message: string) {
  return z
    .string()
    .trim()
    .regex(pattern, { error: message })
    .optional()
    .or(z.literal('').transform(() => undefined));
}

export type Environment = z.infer<typeof environmentSchema>;
