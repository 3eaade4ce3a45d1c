// Every email the product sends is written here, whole, and handed to the SMTP pool as it is
// (EmailSender.sendRaw): quoted-printable parts, encoded and folded headers, the list headers. One
// writer for the broadcasts' emails and the product's own; nodemailer's composer cost about 0.7 ms of
// CPU a message, this about 0.1 ms (docs/performance.md).
import { domainToASCII } from 'node:url';
import libmime from 'libmime';
import { encode as encodeQuotedPrintable, wrap } from 'libqp';
import { randomPart } from './random-pool.js';

/** What every message of one sender (or one broadcast) shares. */
export interface FixedHeaders {
  /** MAIL_FROM: an address, or a name and an address. */
  from: string;
  subject: string;
  listId: string;
  listName: string;
}

/** One message's own parts, beside the fixed headers. */
export interface OwnParts {
  to: string;
  /** Without the angle brackets. */
  messageId: string;
  unsubscribeUrl: string;
  /** The message's own headers (its token, Feedback-ID: message-log.ts): ASCII, short, written as given. */
  headers?: Record<string, string> | undefined;
  date?: Date | undefined;
}

/** The bare address of MAIL_FROM (the envelope sender). */
export function addressOf(from: string): string {
  return from.match(/<([^>]+)>/)?.[1] ?? from.trim();
}

/**
 * An address as it goes on the wire (the To header and the envelope), as nodemailer's composer wrote
 * it: a domain in another script in ASCII (rosa@jõgeva.ee as rosa@xn--jgeva-dua.ee), which every mail
 * server takes. An address whose local part is in another script needs SMTPUTF8 whatever its domain,
 * and is left as typed.
 */
export function wireAddress(address: string): string {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const beyondAscii = /[^\u0020-\u007e]/;
  if (at < 0 || beyondAscii.test(local) || !beyondAscii.test(domain)) return address;
  const ascii = domainToASCII(domain);
  return ascii ? `${local}@${ascii}` : address;
}

/** The domain Message-IDs are made under: the sender's. */
export function messageIdDomain(from: string): string {
  return addressOf(from).split('@')[1] ?? 'localhost';
}

/** A new Message-ID (without brackets) under the sender's domain. */
export function newMessageId(from: string): string {
  return `${randomPart(16).toString('hex')}@${messageIdDomain(from)}`;
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

export const header = (name: string, value: string) => libmime.foldLines(`${name}: ${value}`, 76);

/** Lines end in CRLF on the wire; parts are quoted-printable, wrapped at 76. */
export function part(contentType: string, body: string): string {
  const encoded = wrap(encodeQuotedPrintable(Buffer.from(body.replace(/\r?\n/g, '\r\n'), 'utf8')), 76);
  return `Content-Type: ${contentType}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${encoded}`;
}

/** The headers every message with these fixed parts shares, encoded once. */
export function fixedHeaders(fixed: FixedHeaders): string {
  return [
    header('From', encodeMailbox(fixed.from)),
    header('Subject', libmime.encodeWords(fixed.subject, 'Q', 52)),
    header('List-Id', `${libmime.encodeWords(fixed.listName, 'Q', 52)} <${fixed.listId}>`),
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    'MIME-Version: 1.0',
  ].join('\r\n');
}

/** One whole message: the fixed headers (fixedHeaders), its own, and its two parts already encoded (part). */
export function writeMessage(fixed: string, own: OwnParts, text: string, html: string): string {
  const boundary = `----=_Part_${randomPart(12).toString('hex')}`;
  return [
    fixed,
    header('To', wireAddress(own.to)),
    `Date: ${(own.date ?? new Date()).toUTCString().replace(/GMT$/, '+0000')}`,
    `Message-ID: <${own.messageId}>`,
    header('List-Unsubscribe', `<${own.unsubscribeUrl}>`),
    // As given, never encoded or folded: a provider's tag (X-SMTPAPI) is JSON it reads back byte for byte.
    ...Object.entries(own.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    `Content-Type: multipart/alternative;\r\n boundary="${boundary}"`,
    '',
    `--${boundary}`,
    text,
    `--${boundary}`,
    html,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
