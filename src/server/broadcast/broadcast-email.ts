// A broadcast email, made per person from the broadcast's one rendering: the MIME message is written
// here (quoted-printable parts, encoded headers) and handed to the SMTP pool as it is. nodemailer's
// own composer costs about 0.7 ms of CPU per message, this about 0.1 ms: with two senders on two
// cores that is the difference between under and over 1,000 emails a second (docs/performance.md).
import { randomBytes } from 'node:crypto';
import libmime from 'libmime';
import { encode as encodeQuotedPrintable, wrap } from 'libqp';

export interface BroadcastEmailHeaders {
  /** MAIL_FROM: an address, or a name and an address. */
  from: string;
  subject: string;
  listId: string;
  listName: string;
}

export interface PersonalEmail {
  to: string;
  /** Stable for one outbox row, so a re-send (--resend-unknown) carries the same Message-ID. */
  messageId: string;
  unsubscribeUrl: string;
  text: string;
  html: string;
  date?: Date;
  /** The message's own headers (its token, Feedback-ID: messaging/message-log.ts), ASCII. */
  headers?: Record<string, string>;
}

/** The bare address of MAIL_FROM (the envelope sender). */
export function addressOf(from: string): string {
  return from.match(/<([^>]+)>/)?.[1] ?? from.trim();
}

/** "Name <address>" with the name encoded when it is not plain ASCII. */
function encodeMailbox(from: string): string {
  const match = from.match(/^\s*(.*?)\s*<([^>]+)>\s*$/);
  if (!match) return from.trim();
  const [, name, address] = match as unknown as [string, string, string];
  if (!name) return `<${address}>`;
  const encoded = libmime.encodeWords(name, 'Q', 52);
  const display = encoded === name && /[()<>[\]:;@\\,."]/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : encoded;
  return `${display} <${address}>`;
}

/** The domain Message-IDs are made under: the sender's. */
export function messageIdDomain(from: string): string {
  return addressOf(from).split('@')[1] ?? 'localhost';
}

const header = (name: string, value: string) => libmime.foldLines(`${name}: ${value}`, 76);

/** Lines end in CRLF on the wire; parts are quoted-printable, wrapped at 76. */
function part(contentType: string, body: string): string {
  const encoded = wrap(encodeQuotedPrintable(Buffer.from(body.replace(/\r?\n/g, '\r\n'), 'utf8')), 76);
  return `Content-Type: ${contentType}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${encoded}`;
}

/**
 * The fixed part of every message of one broadcast (From, Subject, list headers), encoded once, and a
 * function that writes one person's whole message.
 */
export function broadcastEmailWriter(headers: BroadcastEmailHeaders): (email: PersonalEmail) => string {
  const fixed = [
    header('From', encodeMailbox(headers.from)),
    header('Subject', libmime.encodeWords(headers.subject, 'Q', 52)),
    header('List-Id', `${libmime.encodeWords(headers.listName, 'Q', 52)} <${headers.listId}>`),
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    'MIME-Version: 1.0',
  ].join('\r\n');
  return (email) => {
    const boundary = `----=_Part_${randomBytes(12).toString('hex')}`;
    return [
      fixed,
      header('To', email.to),
      `Date: ${(email.date ?? new Date()).toUTCString().replace(/GMT$/, '+0000')}`,
      `Message-ID: <${email.messageId}>`,
      header('List-Unsubscribe', `<${email.unsubscribeUrl}>`),
      ...Object.entries(email.headers ?? {}).map(([name, value]) => header(name, value)),
      `Content-Type: multipart/alternative;\r\n boundary="${boundary}"`,
      '',
      `--${boundary}`,
      part('text/plain', email.text),
      `--${boundary}`,
      part('text/html', email.html),
      `--${boundary}--`,
      '',
    ].join('\r\n');
  };
}
