// Reads what comes back to the bounce address from any mail server: a delivery status notification
// (RFC 3464) or a spam complaint (ARF, RFC 5965), each inside a multipart/report (RFC 6522), and
// turns it into FeedbackEvents for the message it is about. The message is named by our signed
// token only, never by an address in the report, so a forged or unsigned report changes nothing.
import { createHash } from 'node:crypto';
import { simpleParser, type ParsedMail, type SimpleParserOptions } from 'mailparser';
import { withoutAddresses } from '../messaging/log-safe.js';
import { tokenFromVerpAddress, type MessageTokens } from '../messaging/message-tokens.js';
import { classifySmtpAnswer, quoteSmtpAnswer, readSmtpText } from '../messaging/smtp-answers.js';
import type { FeedbackEvent, FeedbackKind, MessageReference } from './report-event.js';

export interface DeliveryReportOptions {
  /** BOUNCE_ADDRESS: each message's envelope sender is this address with `+<token>` in it (VERP). */
  bounceAddress: string;
  tokens: MessageTokens;
}

export interface ReadReport {
  events: FeedbackEvent[];
  /** Why this report was not acted on (not a report, no token of ours …): a person may want to read it. */
  unmatched?: string;
}

/** The header every email carries its token in (lowercase: as fields are read). */
const TOKEN_HEADER = 'x-scamsavvy-token';

/** Header-style fields ("Name: value", folded lines joined), names lowercased; the first of a name wins. */
type Fields = Map<string, string>;

const STATUS_PARTS = ['message/delivery-status', 'message/global-delivery-status'];
const FEEDBACK_PARTS = ['message/feedback-report'];
/** Where a report returns our message: its headers only, or all of it. */
const RETURNED_PARTS = ['text/rfc822-headers', 'message/global-headers', 'message/rfc822', 'message/global'];
/** ARF feedback types that are a person telling their mail provider they did not want this email. */
const COMPLAINT_TYPES = new Set(['abuse', 'fraud']);
const PARSER_OPTIONS: SimpleParserOptions & { ignoreEmbedded: boolean } = {
  // Else mailparser folds the delivery-status part into the text.
  keepDeliveryStatus: true,
  // Handed on to mailparser's splitter (mailsplit): an inline message/rfc822 (as ARF reports send
  // the original) stays one part whose headers we read, instead of being opened into the report's.
  ignoreEmbedded: true,
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipImageLinks: true,
  skipTextLinks: true,
};
const ENHANCED_STATUS = /(?<![\d.])([245])\.\d{1,3}\.\d{1,3}(?![.\d])/;
const ADDRESS = /[^\s<>"'(),:;]+@[^\s<>"'(),:;]+/g;

export async function parseDeliveryReport(
  raw: Buffer | string,
  { bounceAddress, tokens }: DeliveryReportOptions,
): Promise<ReadReport> {
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw, PARSER_OPTIONS);
  } catch {
    return { events: [], unmatched: 'not a readable email' };
  }

  const contentType = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> };
  // MIME types and their parameters compare without case (RFC 2045): Multipart/Report is a report.
  const reportType =
    contentType?.value?.toLowerCase() === 'multipart/report'
      ? contentType.params?.['report-type']?.toLowerCase()
      : undefined;
  if (reportType !== 'delivery-status' && reportType !== 'feedback-report')
    return { events: [], unmatched: 'not a delivery report or a complaint' };

  const returned = firstPart(mail, RETURNED_PARTS);
  const returnedHeaders = returned === undefined ? new Map<string, string>() : (fieldGroups(returned)[0] ?? new Map());
  const feedbackText = reportType === 'feedback-report' ? firstPart(mail, FEEDBACK_PARTS) : undefined;
  const feedback = feedbackText === undefined ? undefined : fieldGroups(feedbackText)[0];

  const token = findToken(tokenCandidates(mail, returnedHeaders, feedback, bounceAddress), tokens);
  if (!token.ok) return { events: [], unmatched: token.reason };

  const messageId = withoutBrackets(returnedHeaders.get('message-id'));
  const about: MessageReference = { token: token.token, ...(messageId ? { messageId } : {}) };
  const reportId = withoutBrackets(mail.messageId) ?? `sha256-${createHash('sha256').update(raw).digest('hex')}`;
  const reportDate = validDate(mail.date) ?? new Date();

  if (reportType === 'feedback-report') {
    if (!feedback) return { events: [], unmatched: 'a complaint without its feedback-report part' };
    const feedbackType = (feedback.get('feedback-type') ?? '').toLowerCase().trim();
    if (!COMPLAINT_TYPES.has(feedbackType))
      return { events: [], unmatched: `feedback type "${feedbackType.slice(0, 40)}" is not acted on` };
    return {
      events: [
        {
          source: 'imap',
          eventId: reportId,
          kind: 'complaint',
          message: about,
          occurredAt: reportDate.toISOString(),
          code: feedbackType,
        },
      ],
    };
  }

  const statusText = firstPart(mail, STATUS_PARTS);
  if (statusText === undefined) return { events: [], unmatched: 'a delivery report without its delivery-status part' };
  const recipients = fieldGroups(statusText).filter((fields) => fields.has('action'));
  if (recipients.length === 0) return { events: [], unmatched: 'a delivery report that names no recipient' };

  const events: FeedbackEvent[] = [];
  for (const [index, fields] of recipients.entries()) {
    const diagnostic = fields.get('diagnostic-code');
    const code = fields.get('status')?.match(ENHANCED_STATUS)?.[0] ?? diagnostic?.match(ENHANCED_STATUS)?.[0];
    const kind = kindOf(fields.get('action') ?? '', code, diagnostic);
    if (!kind) continue;
    const occurredAt = validDate(fields.get('last-attempt-date')) ?? reportDate;
    events.push({
      source: 'imap',
      eventId: `${reportId}#${index}`,
      kind,
      message: about,
      occurredAt: occurredAt.toISOString(),
      ...(code ? { code } : {}),
      ...(diagnostic ? { detail: readable(diagnostic) } : {}),
    });
  }
  return { events };
}

/**
 * What one recipient's Action (and Status) means. A failure is a hard bounce only when the mail
 * server's answer says the address is gone for good, by the same rules a failure at our own send
 * is judged by (messaging/smtp-answers.ts, decision 026): a 5.7.1 "blocked as spam" is not the
 * person's fault, and a full mailbox (5.2.2) usually empties. Anything else that failed is soft.
 */
function kindOf(action: string, code: string | undefined, diagnostic: string | undefined): FeedbackKind | undefined {
  switch (action.trim().split(/\s/)[0]?.toLowerCase()) {
    // "expired" is what some servers write for a failure after retrying until their time ran out.
    case 'expired':
    case 'failed': {
      const answer = readSmtpText(diagnostic ?? '');
      // The Status field is the reporting server's own verdict; its class says permanence as a reply code would.
      const status = code ?? answer.status;
      const reply = answer.reply ?? (status ? Number(status[0]) * 100 + 50 : undefined);
      const verdict = classifySmtpAnswer({
        ...answer,
        ...(status ? { status } : {}),
        ...(reply ? { reply } : {}),
      });
      return verdict.kind === 'recipient' ? 'hard_bounce' : 'soft_bounce';
    }
    case 'delayed':
      return 'delayed';
    case 'delivered':
      return 'delivered';
    default:
      // relayed, expanded: passed on to a server or a list that reports nothing back; nothing to say
      return undefined;
  }
}

/** Where the token may be, in order: the address the report came to, then the message it returns. */
function tokenCandidates(
  mail: ParsedMail,
  returnedHeaders: Fields,
  feedback: Fields | undefined,
  bounceAddress: string,
): string[] {
  const fromVerp = (text: string | undefined) =>
    (text?.match(ADDRESS) ?? []).map((address) => tokenFromVerpAddress(address, bounceAddress));
  // The report is sent to the message's envelope sender, bounces+<token>@…: the receiving server
  // records it in Delivered-To or X-Original-To; the report's To usually says it too.
  const addressedTo = ['delivered-to', 'x-original-to', 'to'].flatMap((key) =>
    mail.headerLines.filter((header) => header.key === key).flatMap((header) => fromVerp(header.line)),
  );
  return [
    ...addressedTo,
    returnedHeaders.get(TOKEN_HEADER)?.trim(),
    ...fromVerp(returnedHeaders.get('return-path')),
    ...fromVerp(feedback?.get('original-mail-from')),
  ].filter((candidate): candidate is string => Boolean(candidate));
}

type FoundToken = { ok: true; token: string } | { ok: false; reason: string };

/**
 * The first token found decides (the address the report came to before the message it returns):
 * one we did not sign matches nothing, and no other is tried (decision 028).
 */
function findToken(candidates: string[], tokens: MessageTokens): FoundToken {
  const [first] = candidates;
  if (first === undefined) return { ok: false, reason: 'no message token' };
  if (!tokens.verify(first)) return { ok: false, reason: 'a token we did not sign (forged or damaged)' };
  return { ok: true, token: first.toLowerCase() };
}

/** The text of the first part of one of these types (mailparser keeps report parts as attachments). */
function firstPart(mail: ParsedMail, types: string[]): string | undefined {
  return mail.attachments.find((part) => types.includes(part.contentType.toLowerCase()))?.content.toString('utf8');
}

/**
 * Header-style fields in groups separated by blank lines: a delivery-status part is one group for
 * the message, then one per recipient; a returned message's headers are its first group.
 */
function fieldGroups(text: string): Fields[] {
  return text
    .replace(/^(?:[ \t]*\r?\n)+/, '')
    .split(/\r?\n[ \t]*\r?\n/)
    .map((group) => {
      const fields: Fields = new Map();
      let last: string | undefined;
      for (const line of group.split(/\r?\n/)) {
        if (/^[ \t]/.test(line) && last) {
          fields.set(last, `${fields.get(last)} ${line.trim()}`);
          continue;
        }
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        last = fields.has(name) ? undefined : name; // the first of a name wins; a repeat's folds are skipped
        if (last) fields.set(last, line.slice(colon + 1).trim());
      }
      return fields;
    })
    .filter((fields) => fields.size > 0);
}

/**
 * A Diagnostic-Code for the owner: without its type ("smtp;"), its multi-line reply read as one
 * sentence ("550-5.1.1 … 550-5.1.1 …" has the codes once), addresses removed, cut short.
 */
function readable(diagnostic: string): string {
  let seen = false;
  const text = diagnostic
    .replace(/^\s*[\w-]+\s*;\s*/, '')
    .replace(/\s+/g, ' ')
    .replace(/(^|\s)([245]\d\d)[- ]([245]\.\d{1,3}\.\d{1,3})(?=\s)/g, (_match, space: string, reply, status) => {
      if (seen) return '';
      seen = true;
      return `${space}${reply} ${status}`;
    });
  return quoteSmtpAnswer({ text: withoutAddresses(text) });
}

function withoutBrackets(id: string | undefined): string | undefined {
  const bare = id?.trim().replace(/^<|>$/g, '');
  return bare || undefined;
}

function validDate(value: Date | string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
