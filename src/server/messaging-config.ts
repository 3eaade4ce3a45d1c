// The messaging part of the settings (config.ts reads the rest): email, texts, the secret key, the
// confirmation rules and what comes back after a send, each half-configured part a problem named by
// its variables.
import type { Environment } from './environment.js';
import { outsideGsm } from '../shared/sms-segments.js';
import { getCountries } from 'libphonenumber-js/max';

/**
 * Where email goes: an SMTP server (SMTP_URL), or, for a rehearsal with no account, a folder where
 * every email is written whole as a .eml file (MAIL_TRANSPORT=folder:PATH). Exactly one is set.
 */
export interface EmailConfig {
  smtpUrl?: string;
  folder?: string;
  from: string;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}

/** Minutes since local midnight: [from, to), to the minute. */
export type Hours = readonly [from: number, to: number];

export interface TextHoursConfig {
  /** SMS_SEND_HOURS as minutes of the local day: [from, to). */
  sendHours: Hours;
  /** SMS_DEFAULT_COUNTRY: numbers typed without a country code are of this country. */
  defaultCountry: string;
  /** SMS_COUNTRIES: the countries we text (ISO 3166 codes); a number elsewhere gets no text. */
  textCountries: string[];
  /** TEST_TEXT_CLOCK, as the distance from the real clock (tests only): 0 in production. */
  clockShiftMs: number;
}

/** Texts through Twilio, or written to a folder as .json files (SMS_TRANSPORT=folder:PATH: a rehearsal). */
export type SmsConfig = TwilioSmsConfig | FolderSmsConfig;

export interface FolderSmsConfig {
  provider: 'folder';
  folder: string;
}

export interface TwilioSmsConfig {
  provider: 'twilio';
  accountSid: string;
  authToken: string;
  /** One of the two: a number of the account's, or a Messaging Service that picks one. */
  from?: string;
  messagingServiceSid?: string;
  /** Twilio's API origin; tests point it at a local stand-in. */
  apiBaseUrl: string;
  /**
   * SMS_KEYWORD_REPLIES: 'twilio' when Twilio's own handling answers STOP, START, YES and HELP for
   * the number (a plain number's default): ours then stay silent, so a person never gets two answers.
   */
  keywordReplies?: 'ours' | 'twilio';
}

export interface MessagingConfig {
  email?: EmailConfig;
  sms?: SmsConfig;
  /** Signs the links in messages and keys the suppression hashes; set whenever email or sms is. */
  secretKey?: string;
  /** SECRET_KEY_PREVIOUS: the key before a rotation, still read (hashes, links), never written with. */
  previousSecretKey?: string;
  /** When and where texts may go (SMS_SEND_HOURS, SMS_DEFAULT_COUNTRY, TEST_TEXT_CLOCK): text-hours.ts. */
  textHours?: TextHoursConfig;
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

/** Messaging settings; a half-configured part is a problem, named by its variables. */
export function messagingFrom(env: Environment, problems: string[]): MessagingConfig {
  const email = emailFrom(env, problems);
  const sms = smsFrom(env, problems);
  if (sms && env.MAIL_POSTAL_ADDRESS) {
    // HELP's answer carries the address: one character outside the GSM alphabet (a curly apostrophe,
    // an accented capital) turns the whole text into UCS-2, three times the cost, split in parts.
    const odd = outsideGsm(env.MAIL_POSTAL_ADDRESS.trim());
    if (odd.length > 0)
      problems.push(
        `MAIL_POSTAL_ADDRESS: ${odd.map((character) => JSON.stringify(character)).join(', ')} cannot go in a plain text message (the answer to HELP carries the address): write it with plain letters and punctuation, such as ' for ’`,
      );
  }
  if ((email || sms) && !env.SECRET_KEY)
    problems.push('SECRET_KEY: required once SMTP_URL or TWILIO_ACCOUNT_SID is set (it signs the links in messages)');
  // A rehearsal (the folder transports) may keep this computer's own address; real messages may not.
  if ((email?.smtpUrl || sms?.provider === 'twilio') && !env.SITE_URL)
    problems.push('SITE_URL: required once SMTP_URL or TWILIO_ACCOUNT_SID is set (the links in messages point to it)');
  if (email?.smtpUrl && env.SITE_URL && plainHttpElsewhere(env.SITE_URL))
    problems.push(
      'SITE_URL: must start with https:// while email is on: every list email carries a one-click unsubscribe link, which RFC 8058, Gmail and Yahoo accept only over https (http:// is kept for this computer alone: localhost, 127.0.0.1)',
    );
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
  const textHours = textHoursFrom(env, problems);
  return {
    ...(email ? { email } : {}),
    ...(sms ? { sms } : {}),
    ...(textHours ? { textHours } : {}),
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
  const folder = folderOf(env.MAIL_TRANSPORT);
  if (folder !== undefined) {
    if (env.SMTP_URL)
      problems.push('MAIL_TRANSPORT: folder:… writes every email to files instead of SMTP_URL: unset one of the two');
    return {
      folder,
      // No mail server to answer for a sender: the site's own name does for a rehearsal.
      from: env.MAIL_FROM ?? `ScamSavvy <hello@${new URL(env.SITE_URL ?? 'http://localhost').hostname}>`,
      ...dkimFrom(env),
    };
  }
  if (!env.SMTP_URL) {
    if (env.MAIL_FROM) problems.push('SMTP_URL: needed with MAIL_FROM (where the email goes out)');
    if (dkimParts.some(Boolean)) problems.push('SMTP_URL: needed with the DKIM keys');
    return undefined;
  }
  if (!env.MAIL_FROM) {
    problems.push('MAIL_FROM: needed with SMTP_URL (who the email is from, e.g. ScamSavvy <hello@scamsavvy.example>)');
    return undefined;
  }
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, ...dkimFrom(env) };
}

function dkimFrom(env: Environment): Pick<EmailConfig, 'dkim'> {
  return env.DKIM_DOMAIN && env.DKIM_SELECTOR && env.DKIM_PRIVATE_KEY
    ? {
        dkim: {
          domainName: env.DKIM_DOMAIN,
          keySelector: env.DKIM_SELECTOR,
          // A key kept on one line of an environment file has its line breaks written as \n.
          privateKey: env.DKIM_PRIVATE_KEY.replace(/\\n/g, '\n'),
        },
      }
    : {};
}

/** The PATH of a `folder:PATH` transport setting. */
function folderOf(transport: string | undefined): string | undefined {
  return transport?.startsWith('folder:') ? transport.slice('folder:'.length) : undefined;
}

function smsFrom(env: Environment, problems: string[]): SmsConfig | undefined {
  const any = env.TWILIO_ACCOUNT_SID || env.TWILIO_AUTH_TOKEN || env.TWILIO_FROM || env.TWILIO_MESSAGING_SERVICE_SID;
  const folder = folderOf(env.SMS_TRANSPORT);
  if (folder !== undefined) {
    if (any)
      problems.push('SMS_TRANSPORT: folder:… writes every text to files instead of Twilio: unset one of the two');
    return { provider: 'folder', folder };
  }
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
    ...(env.SMS_KEYWORD_REPLIES === 'twilio' ? { keywordReplies: 'twilio' as const } : {}),
  };
}

/** An http:// address anywhere but this computer (loopback is for trying the server out). */
function plainHttpElsewhere(siteUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(siteUrl);
  } catch {
    return false; // SITE_URL's own check names a malformed address
  }
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return !(host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host));
}

function textHoursFrom(env: Environment, problems: string[]): TextHoursConfig | undefined {
  const sendHours = parseSendHours(env.SMS_SEND_HOURS ?? DEFAULT_SEND_HOURS);
  if (!sendHours) problems.push('SMS_SEND_HOURS: must be two local times, the first earlier, such as 09:00-20:00');
  const defaultCountry = env.SMS_DEFAULT_COUNTRY ?? 'US';
  if (!(getCountries() as string[]).includes(defaultCountry))
    problems.push(
      `SMS_DEFAULT_COUNTRY: ${defaultCountry} is not a country the numbering plan knows (such as US or CA)`,
    );
  // Where we text: SMS pumping (texts to numbers abroad that someone typed to make us pay) stops here.
  const textCountries = (env.SMS_COUNTRIES ?? defaultCountry).split(',').map((code) => code.trim().toUpperCase());
  const unknown = textCountries.filter((code) => !(getCountries() as string[]).includes(code));
  if (unknown.length > 0)
    problems.push(
      `SMS_COUNTRIES: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a country' : 'are not countries'} the numbering plan knows (two-letter codes, such as US,CA)`,
    );
  if (!sendHours) return undefined;
  return {
    sendHours,
    defaultCountry,
    textCountries,
    clockShiftMs: env.TEST_TEXT_CLOCK ? Date.parse(env.TEST_TEXT_CLOCK) - Date.now() : 0,
  };
}

/** SMS_SEND_HOURS's default: the owner's hours, inside every rule of text-hours.ts but Rhode Island's and Kentucky's. */
export const DEFAULT_SEND_HOURS = '09:00-20:00';

/** "09:00-20:00" as minutes; undefined when it is not two times, the first before the second. */
export function parseSendHours(text: string): Hours | undefined {
  const match = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/.exec(text.trim());
  if (!match) return undefined;
  const hours: Hours = [Number(match[1]) * 60 + Number(match[2]), Number(match[3]) * 60 + Number(match[4])];
  return hours[0] < hours[1] && hours[1] <= 24 * 60 ? hours : undefined;
}
