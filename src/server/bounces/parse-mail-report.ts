// Reads what comes back to the bounce address from any mail server: a delivery status notification
// (RFC 3464) or a spam complaint (ARF, RFC 5965), each inside a multipart/report (RFC 6522), and
// turns it into FeedbackEvents for the message it is about. The message is named by our signed
// token only, never by an address in the report, so a forged or unsigned report changes nothing.
import { createHash } from 'node:crypto';
import { simpleParser, type ParsedMail, type SimpleParserOptions } from 'mailparser';
import { withoutAddresses } from '../messaging/log-safe.js';
import { tokenFromVerpAddress, type MessageTokens } from '../messaging/message-tokens.js';
import { classifySmtpAnswer, quoteSmtpAnswer, readSmtpText } from '../messaging/smtp-answers.js';
import { readBounce, validDate, type BounceReading, type Fields, type RecipientAnswer } from './read-bounce.js';
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

/** ARF feedback types that are a person telling their mail provider they did not want this email. */
const COMPLAINT_TYPES = new Set(['abuse', 'fraud']);
/** ARF feedback types that are a person asking, through their mail provider, to get no more of it. */
const OPT_OUT_TYPES = new Set(['opt-out', 'opt-out-list', 'unsubscribe']);
/** RFC 6591: a receiving server telling us our SPF, DKIM or DMARC failed: ours to fix, never the person's. */
const AUTH_FAILURE_TYPE = 'auth-failure';
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
// Starts only where a run of address characters starts (the lookbehind): linear in the text's length.
const ADDRESS = /(?<![^\s<>"'(),:;])[^\s<>"'(),:;]+@[^\s<>"'(),:;]+/g;

/** A report read, before the message it is about is known: its events, or why none. */
export type ReadMail =
  | { ok: true; mail: ParsedMail; reading: BounceReading; events: Omit<FeedbackEvent, 'message'>[] }
  | { ok: false; unmatched: string; mail?: ParsedMail; reading?: BounceReading };

/** Reads a report and judges each recipient's answer; the message it is about is found by the caller. */
export async function readMailReport(raw: Buffer | string): Promise<ReadMail> {
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw, PARSER_OPTIONS);
  } catch {
    return { ok: false, unmatched: 'not a readable email' };
  }
  let reading: BounceReading;
  try {
    reading = readBounce(mail, raw);
  } catch {
    // A shape no rule foresaw: kept for a person to read, never a throw that stops the mailbox.
    return { ok: false, unmatched: 'a message whose parts could not be read', mail };
  }
  if (reading.type === 'none') return { ok: false, unmatched: reading.why, mail, reading };
  if (reading.type === 'bounce' && reading.recipients.every((answer) => answer.action === 'passed-on'))
    return { ok: true, mail, reading, events: [] };

  const reportId = withoutBrackets(mail.messageId) ?? `sha256-${createHash('sha256').update(raw).digest('hex')}`;
  const reportDate = validDate(mail.date) ?? new Date();

  if (reading.type === 'complaint') {
    /** The one event an ARF report makes. */
    const feedbackEvent = (kind: FeedbackKind, code: string, detail?: string): ReadMail => ({
      ok: true,
      mail,
      reading,
      events: [
        {
          source: 'imap',
          eventId: reportId,
          kind,
          occurredAt: reportDate.toISOString(),
          code,
          ...(detail ? { detail } : {}),
        },
      ],
    });
    const feedbackType = (reading.feedback.get('feedback-type') ?? '').toLowerCase().trim();
    if (feedbackType === AUTH_FAILURE_TYPE) {
      // Which check failed (Auth-Failure: dkim, spf, dmarc …) and for which domain of ours.
      const mechanism = (reading.feedback.get('auth-failure') ?? 'unknown').toLowerCase().trim().split(/\s/)[0]!;
      const domain =
        reading.feedback.get('reported-domain') ??
        reading.feedback.get('dkim-domain') ??
        reading.feedback.get('spf-dns')?.split(/\s/)[1] ??
        '';
      return feedbackEvent('auth_failure', mechanism.slice(0, 40), domain.trim().toLowerCase().slice(0, 255));
    }
    const optOut = OPT_OUT_TYPES.has(feedbackType);
    if (!COMPLAINT_TYPES.has(feedbackType) && !optOut)
      return { ok: false, unmatched: `feedback type "${feedbackType.slice(0, 40)}" is not acted on`, mail, reading };
    // An opt-out is an unsubscribe (email off, as our own link does), never a complaint.
    return feedbackEvent(optOut ? 'unsubscribe' : 'complaint', feedbackType);
  }

  const events: Omit<FeedbackEvent, 'message'>[] = [];
  for (const [index, answer] of reading.recipients.entries()) {
    if (answer.action === 'passed-on') continue; // relayed or expanded: nothing to say about the person
    const { kind, code } = judgeRecipient(answer);
    events.push({
      source: 'imap',
      eventId: `${reportId}#${index}`,
      kind,
      occurredAt: (answer.at ?? reportDate).toISOString(),
      ...(code ? { code } : {}),
      ...(answer.diagnostic ? { detail: readable(answer.diagnostic) } : {}),
    });
  }
  return { ok: true, mail, reading, events };
}

export async function parseDeliveryReport(
  raw: Buffer | string,
  { bounceAddress, tokens }: DeliveryReportOptions,
): Promise<ReadReport> {
  const read = await readMailReport(raw);
  if (!read.ok) return { events: [], unmatched: read.unmatched };
  const { mail, reading } = read;
  const feedback = reading.type === 'complaint' ? reading.feedback : undefined;
  const token = findToken(tokenCandidates(mail, reading.returned, feedback, bounceAddress), tokens);
  if (!token.ok) return { events: [], unmatched: token.reason };
  const messageId = withoutBrackets(reading.returned.get('message-id'));
  const about: MessageReference = { token: token.token, ...(messageId ? { messageId } : {}) };
  return { events: read.events.map((event) => ({ ...event, message: about })) };
}

/**
 * What one recipient's answer means, by the one judge of whose fault an answer is
 * (messaging/smtp-answers.ts, decision 026): a hard bounce only when the address is gone for good;
 * a refusal of ours, a policy of the person's server, a full mailbox: soft, never a suppression on
 * its own. The Status field is the reporting server's own verdict; its class says permanence as a
 * reply code would.
 */
export function judgeRecipient(answer: RecipientAnswer): { kind: FeedbackKind; code?: string } {
  const said = readSmtpText(answer.diagnostic ?? '');
  // The Status field is the reporting server's summary; a generic one (5.0.0) gives way to the
  // code the receiving server itself answered with.
  const status =
    answer.status && (answer.action !== 'failed' || !/^\d\.0\.0$/.test(answer.status))
      ? answer.status
      : (said.status ?? answer.status);
  const code = status ?? (said.reply ? String(said.reply) : undefined);
  if (answer.action === 'delivered') return { kind: 'delivered', ...(code ? { code } : {}) };
  if (answer.action !== 'failed') return { kind: 'delayed', ...(code ? { code } : {}) };
  const reply = said.reply ?? (status ? Number(status[0]) * 100 + 50 : 550);
  const verdict = classifySmtpAnswer({
    ...said,
    ...(status ? { status } : {}),
    reply,
    ...(answer.afterData ? { command: 'DATA' } : {}),
  });
  return { kind: verdict.kind === 'recipient' ? 'hard_bounce' : 'soft_bounce', ...(code ? { code } : {}) };
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
