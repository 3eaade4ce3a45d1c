// Sends email through SMTP (nodemailer, pooled), every list email with its unsubscribe headers,
// DKIM-signed here when the owner's provider does not sign.
import nodemailer from 'nodemailer';
import type { EmailConfig } from '../config.js';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The personal one-click unsubscribe link (HTTPS in production): List-Unsubscribe and List-Unsubscribe-Post. */
  unsubscribeUrl: string;
}

export interface SentEmail {
  messageId: string;
  /** The server's answer ("250 Ok 0100018c…"): many providers name their own id for the message in it. */
  response?: string;
}

export interface EmailSender {
  send(email: OutgoingEmail): Promise<SentEmail>;
  /** A message already written whole (a broadcast's, broadcast-email.ts): sent as it is, DKIM-signed here when set. */
  sendRaw(message: { to: string; messageId: string; raw: string }): Promise<SentEmail>;
  close(): void;
}

export class EmailSendError extends Error {
  constructor(
    message: string,
    /** True when sending again cannot succeed (the server refused this address for good: SMTP 5xx). */
    readonly permanent: boolean,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'EmailSendError';
  }
}

export interface EmailSenderOptions {
  /** RFC 2919 list id, e.g. launch.scamsavvy.example. */
  listId: string;
  /** The list's name shown beside the id. */
  listName: string;
  /** SMTP connections kept open at once (3: confirmations; a broadcast's sender uses more). */
  maxConnections?: number;
}

/**
 * The headers the DKIM signature covers: the usual ones and the list headers, which Gmail's and
 * Yahoo's bulk-sender rules require to be signed (List-Unsubscribe-Post is not in nodemailer's default).
 */
export const DKIM_SIGNED_HEADERS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
].join(':');

/** Fail fast while the mail server is away: the mailer retries later, and nothing waits on it. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** What nodemailer's errors say about trying again. */
export function sendErrorFrom(error: unknown): EmailSendError {
  const { message, responseCode } = error as { message?: string; responseCode?: number };
  const code = typeof responseCode === 'number' ? responseCode : undefined;
  // 5xx: the server refused this message or address for good. 4xx, timeouts, refused connections: later.
  return new EmailSendError(message ?? String(error), code !== undefined && code >= 500, code);
}

export function createEmailSender(
  config: EmailConfig,
  { listId, listName, maxConnections = 3 }: EmailSenderOptions,
): EmailSender {
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    pool: true,
    maxConnections,
    maxMessages: Infinity,
    ...TIMEOUTS,
    ...(config.dkim ? { dkim: { ...config.dkim, headerFieldNames: DKIM_SIGNED_HEADERS } } : {}),
  } as Parameters<typeof nodemailer.createTransport>[0]);
  const envelopeFrom = config.from.match(/<([^>]+)>/)?.[1] ?? config.from.trim();
  return {
    async send(email) {
      try {
        const info = (await transport.sendMail({
          from: config.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: {
            'List-Unsubscribe': `<${email.unsubscribeUrl}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            'List-Id': `${listName} <${listId}>`,
          },
        })) as { messageId: string };
        return { messageId: info.messageId };
      } catch (error) {
        throw sendErrorFrom(error);
      }
    },
    async sendRaw({ to, messageId, raw }) {
      try {
        const info = (await transport.sendMail({
          envelope: { from: envelopeFrom, to: [to] },
          raw,
        })) as { response?: string };
        return { messageId, ...(info.response ? { response: info.response } : {}) };
      } catch (error) {
        throw sendErrorFrom(error);
      }
    },
    close: () => transport.close(),
  };
}
