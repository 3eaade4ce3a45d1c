// What comes back after a send, in one shape whoever reported it: a provider's webhook, Twilio's
// status callback, the SMTP server's refusal during the send, or a report read from the bounce
// mailbox. Every source turns its report into FeedbackEvents; feedback.ts acts on them.

/** Who reported it. */
export const FEEDBACK_SOURCES = ['smtp', 'imap', 'ses', 'postmark', 'mailgun', 'sendgrid', 'resend', 'twilio'] as const;
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];

/**
 * What happened to one message:
 * - delivered: the receiving side took it (resets a soft-bounce count).
 * - hard_bounce: the address does not exist or takes no mail, for good.
 * - soft_bounce: not delivered for now (mailbox full, greylisting given up, a text's 30003).
 * - complaint: the person pressed "Report spam" (an ARF / FBL report).
 * - unsubscribe: the person asked their mail provider to stop our email (ARF Feedback-Type: opt-out).
 * - auth_failure: a receiving server says our SPF, DKIM or DMARC failed (RFC 6591): ours to fix,
 *   counted and shown to the owner, never held against the person.
 * - undeliverable: a text that cannot reach this number (Twilio 30005 unknown, 30006 landline).
 * - stop: the number replied STOP to our sender (Twilio 21610).
 * - filtered: carriers are filtering our texts (Twilio 30007): ours, not the person's.
 * - delayed: still trying (a DSN "delayed"): recorded, changes nothing.
 * - sent / queued: a provider's progress report: recorded, changes nothing.
 */
export type FeedbackKind =
  | 'delivered'
  | 'hard_bounce'
  | 'soft_bounce'
  | 'complaint'
  | 'unsubscribe'
  | 'auth_failure'
  | 'undeliverable'
  | 'stop'
  | 'filtered'
  | 'delayed'
  | 'sent'
  | 'queued';

/** How a report names the message it is about; at least one is set. */
export interface MessageReference {
  /** Our signed token (message-token.ts), found in the VERP address, a header, a tag or a callback URL. */
  token?: string;
  /** The provider's own id for the message (Twilio MessageSid, SES messageId, Postmark MessageID …). */
  providerId?: string;
  /** The message's SMTP Message-ID, without angle brackets. */
  messageId?: string;
}

export interface FeedbackEvent {
  source: FeedbackSource;
  /**
   * The report's own id, unique per source (SNS MessageId, Svix id, Mailgun event id, SendGrid
   * sg_event_id, Postmark's record id, Twilio MessageSid + status, the report's Message-ID). The
   * same report delivered twice has the same id and is acted on once.
   */
  eventId: string;
  kind: FeedbackKind;
  message: MessageReference;
  /** When it happened, by the reporter's clock (ISO 8601). */
  occurredAt: string;
  /** The status or error code given (e.g. "5.1.1", "550", "30006"), when one was. */
  code?: string;
  /** The report's words, short, addresses removed (for the owner and the log). */
  detail?: string;
}

/** The earliest time a report may say; before it, a date is a mistake or a trick. */
const EARLIEST_REPORT = Date.UTC(2000, 0, 1);
/** How far ahead of our clock a report's time may be (a provider's clock a little fast). */
const REPORT_AHEAD_MS = 86_400_000;

/**
 * When a report says it happened (milliseconds), if that is a real time from 2000 to a day ahead of
 * now; else `fallback` (the time we received it). Every source's time passes here: a time such as
 * the year 12345 is a valid JavaScript number but throws in toISOString and fails in PostgreSQL.
 */
export function reportedAt(ms: number, fallback: number, now = Date.now()): string {
  const sane = Number.isFinite(ms) && ms >= EARLIEST_REPORT && ms <= now + REPORT_AHEAD_MS;
  return new Date(sane ? ms : fallback).toISOString();
}
