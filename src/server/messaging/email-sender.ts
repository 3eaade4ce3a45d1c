// Sends email through SMTP (nodemailer, pooled), every list email with its unsubscribe headers,
// DKIM-signed here when the owner's provider does not sign. A failure carries its verdict
// (smtp-answers.ts): whose fault it was and what the owner should do.
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { EmailConfig } from '../messaging-config.js';
import { SendFailure, type FailureVerdict } from './send-failure.js';
import { checkFolder, writeToFolder } from './message-folder.js';
import { classifySmtpError } from './smtp-answers.js';
import { addressOf, fixedHeaders, newMessageId, part, wireAddress, writeMessage } from './mime-message.js';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The personal one-click unsubscribe link (HTTPS in production): List-Unsubscribe and List-Unsubscribe-Post. */
  unsubscribeUrl: string;
  /** More headers (the message's token, Feedback-ID: message-log.ts). */
  headers?: Record<string, string>;
  /** The envelope sender, where bounces go (VERP: bounces+<token>@…); MAIL_FROM's address by default. */
  envelopeFrom?: string;
}

export interface SentEmail {
  messageId: string;
  /** The server's answer ("250 Ok 0100018c…"): many providers name their own id for the message in it. */
  response?: string;
}

export interface EmailSender {
  send(email: OutgoingEmail): Promise<SentEmail>;
  /** A message already written whole (a broadcast's, broadcast-email.ts): sent as it is, DKIM-signed here when set. */
  sendRaw(message: { to: string; messageId: string; raw: string; envelopeFrom?: string }): Promise<SentEmail>;
  /**
   * Connects and signs in once, sending nothing: resolves when the mail server would take our
   * email, rejects with an EmailSendError saying why not (a wrong password is the sender's fault).
   */
  verify(): Promise<void>;
  close(): void;
}

/** An email that was not sent: the server's answer (or nodemailer's words), and whose fault it was. */
export class EmailSendError extends SendFailure {
  constructor(
    message: string,
    verdict: FailureVerdict,
    /** The SMTP reply code, when the server gave one. */
    readonly responseCode?: number,
  ) {
    super(message, verdict, responseCode);
    this.name = 'EmailSendError';
  }
}

export interface EmailSenderOptions {
  /** RFC 2919 list id, e.g. launch.scamsavvy.example. */
  listId: string;
  /** The list's name shown beside the id. */
  listName: string;
  /** SMTP connections kept open at once (3 unless the caller says: the product's own emails and a broadcast's sender keep 8). */
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

/** nodemailer's error as an EmailSendError, with the verdict smtp-answers.ts gives its answer. */
export function sendErrorFrom(error: unknown): EmailSendError {
  if (error instanceof EmailSendError) return error;
  const { message, responseCode } = (error ?? {}) as { message?: unknown; responseCode?: unknown };
  return new EmailSendError(
    typeof message === 'string' ? message : String(error),
    classifySmtpError(error),
    typeof responseCode === 'number' ? responseCode : undefined,
  );
}

/** What nodemailer resolves a send with; `rejected` lists recipients the server refused. */
interface SendInfo {
  messageId?: string;
  response?: string;
  rejected?: unknown[];
  rejectedErrors?: unknown[];
}

/**
 * A recipient refused at RCPT that nodemailer did not throw for (it throws only when every
 * recipient is refused): the send failed all the same, judged by the server's answer for them.
 */
export function refusalIn(info: SendInfo): EmailSendError | undefined {
  if (!info.rejected || info.rejected.length === 0) return undefined;
  const [answer] = info.rejectedErrors ?? [];
  if (answer !== undefined) return sendErrorFrom(answer);
  return new EmailSendError('The mail server refused the recipient.', {
    kind: 'recipient',
    reason: 'The mail server refused this address and gave no reason.',
  });
}

/** What sends a message: nodemailer's transport, or the rehearsal's folder behind the same calls. */
export interface MailTransport {
  sendMail(message: SendMailOptions): Promise<SendInfo>;
  verify(): Promise<unknown>;
  close(): void;
}

/**
 * The transport the configuration names: its SMTP server (pooled, `maxConnections` at once), or, with
 * MAIL_TRANSPORT=folder:PATH, nodemailer's own message writer with each message saved whole as a .eml
 * file (signed as it would be sent). `dkim`: sign here (list mail); `pool`: keep connections open.
 */
export function openMailTransport(
  config: EmailConfig,
  { maxConnections = 3, dkim = false, pool = true }: { maxConnections?: number; dkim?: boolean; pool?: boolean } = {},
): MailTransport {
  const signing = dkim && config.dkim ? { dkim: { ...config.dkim, headerFieldNames: DKIM_SIGNED_HEADERS } } : {};
  const { folder } = config;
  if (folder !== undefined) {
    const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, ...signing });
    return {
      async sendMail(message) {
        const info = (await writer.sendMail(message)) as SendInfo & { message: Buffer };
        try {
          const name = await writeToFolder(folder, 'eml', info.message);
          return { messageId: info.messageId ?? '', response: `250 written to ${name}` };
        } catch (error) {
          throw error instanceof SendFailure ? new EmailSendError(error.message, error.verdict) : error;
        }
      },
      async verify() {
        try {
          await checkFolder(folder);
        } catch (error) {
          throw error instanceof SendFailure ? new EmailSendError(error.message, error.verdict) : error;
        }
      },
      close: () => writer.close(),
    };
  }
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    ...(pool ? { pool: true, maxConnections } : {}),
    maxMessages: Infinity,
    ...TIMEOUTS,
    ...signing,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    sendMail: async (message) => (await transport.sendMail(message)) as SendInfo,
    verify: () => transport.verify(),
    close: () => transport.close(),
  };
}

export function createEmailSender(
  config: EmailConfig,
  { listId, listName, maxConnections = 3 }: EmailSenderOptions,
): EmailSender {
  const transport = openMailTransport(config, { maxConnections, dkim: true });
  const envelopeFrom = addressOf(config.from);
  // The fixed headers of each subject, encoded once (a few dozen subjects in all: the kinds of email in
  // each language, and the owner's test sends).
  const fixed = new Map<string, string>();
  const fixedFor = (subject: string) => {
    let headers = fixed.get(subject);
    if (headers === undefined) {
      if (fixed.size >= 100) fixed.clear();
      headers = fixedHeaders({ from: config.from, subject, listId, listName });
      fixed.set(subject, headers);
    }
    return headers;
  };
  const sendRaw: EmailSender['sendRaw'] = async ({ to, messageId, raw, envelopeFrom: bounceTo }) => {
    let info: SendInfo;
    try {
      info = await transport.sendMail({
        envelope: { from: bounceTo ?? envelopeFrom, to: [wireAddress(to)] },
        raw,
        // Only for nodemailer's own bookkeeping (the raw message already carries it): given, it
        // makes up no random one of its own for every message.
        messageId: `<${messageId}>`,
      });
    } catch (error) {
      throw sendErrorFrom(error);
    }
    const refused = refusalIn(info);
    if (refused) throw refused;
    return { messageId, ...(info.response ? { response: info.response } : {}) };
  };
  return {
    async send(email) {
      // Written by the one MIME writer and sent as it is, as a broadcast's are; the Message-ID as
      // nodemailer gave it (in angle brackets), which the message log keeps.
      const messageId = newMessageId(config.from);
      const raw = writeMessage(
        fixedFor(email.subject),
        { to: email.to, messageId, unsubscribeUrl: email.unsubscribeUrl, headers: email.headers },
        part('text/plain', email.text),
        part('text/html', email.html),
      );
      const sent = await sendRaw({
        to: email.to,
        messageId,
        raw,
        ...(email.envelopeFrom ? { envelopeFrom: email.envelopeFrom } : {}),
      });
      return { ...sent, messageId: `<${messageId}>` };
    },
    sendRaw,
    async verify() {
      try {
        await transport.verify();
      } catch (error) {
        throw sendErrorFrom(error);
      }
    },
    close: () => transport.close(),
  };
}

/**
 * The provider's id for the message from its "250" answer: "250 Ok 0100018c5f…" (Amazon SES), "250
 * 2.0.0 Ok: queued as 4F3C21E0A" (Postfix, SendGrid), "250 2.0.0 OK id=1r…" give the id; any other
 * answer is kept whole (a report is matched by it only where it names one message).
 */
export function providerIdFrom(response: string | undefined): string | undefined {
  if (!response) return undefined;
  const text = response.replace(/^250[ -](\d\.\d\.\d\s+)?/, '').trim();
  const id = /(?:queued as\s+|id=|^ok[:\s]+(?:id=)?)<?([^\s<>=]{6,})>?\s*$/i.exec(text)?.[1];
  if (id) return id.slice(0, 200);
  return text === '' ? undefined : text.slice(0, 200);
}
