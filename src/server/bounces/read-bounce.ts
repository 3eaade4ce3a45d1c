// Reads what a mail server sent back, whatever its layout, into what it says about each recipient:
// a standard report (RFC 3464 delivery status, RFC 5965 complaint) wherever its part sits (the top
// level, or inside a multipart/mixed as OpenSMTPD and filtering gateways wrap it), or the plain-text
// bounce most servers still send (Exim, qmail, Sendmail, Exchange, Gmail, Yahoo, Courier …), or an
// automatic reply, which is never a bounce. It says nothing about whose fault a failure is: the one
// judge (messaging/smtp-answers.ts) reads the answer it finds. docs/messaging.md, "The bounce mailbox".
import type { ParsedMail } from 'mailparser';

/** Header-style fields ("Name: value", folded lines joined), names lowercased; the first of a name wins. */
export type Fields = Map<string, string>;

/** What one recipient's part of a bounce says. */
export interface RecipientAnswer {
  /**
   * failed: given up; delayed: still trying; delivered: it arrived (a report asked for it);
   * passed-on: relayed or expanded to a server or a list that reports nothing back.
   */
  action: 'failed' | 'delayed' | 'delivered' | 'passed-on';
  /** The Status field's code (RFC 3463), when the report gave one. */
  status?: string;
  /** The receiving server's answer, as the report quotes it (a Diagnostic-Code, or the bounce's words). */
  diagnostic?: string;
  /** When the server last tried (Last-Attempt-Date), when the report says. */
  at?: Date;
  /** The report's words say the refusal came after the message's text (at the end of DATA): a filter's. */
  afterData?: boolean;
}

export type BounceReading =
  | { type: 'bounce'; layout: 'report' | 'text'; recipients: RecipientAnswer[]; returned: Fields }
  | { type: 'complaint'; feedback: Fields; returned: Fields }
  | { type: 'none'; why: string; returned: Fields };

const STATUS_PARTS = ['message/delivery-status', 'message/global-delivery-status'];
const FEEDBACK_PARTS = ['message/feedback-report'];
/** Where a report returns our message: its headers only, or all of it. */
const RETURNED_PARTS = ['text/rfc822-headers', 'message/global-headers', 'message/rfc822', 'message/global'];

/** Who sends bounces: the mail system's own addresses and names. */
const BOUNCE_FROM =
  /mailer[-_]daemon|post_?master|mail ?delivery|delivery ?(?:subsystem|system|status)|mail ?administrator|mail ?system|smtp ?(?:gateway|daemon)|mail ?router|mailadmin|noreply-dmarc|bounce/i;
/** Subjects bounces carry, in the words servers use. */
const BOUNCE_SUBJECT =
  /undeliver|undelivered|non[- ]?deliver|not (?:be )?delivered|delivery (?:status notification|fail|has failed|problem|notification|report|error)|failure notice|failed delivery|delivery failed|mail delivery|returned mail|return(?:ed|ing) (?:mail|message|to sender)|could not (?:be )?(?:delivered|send)|mail system error|permanent error|rejected|deliver(?:y|ing) (?:to the following|failure)|nicht zustellbar|message not delivered|warning: could not send|delayed mail|delivery delayed|delivery (?:status )?notification/i;
/** Subjects of automatic replies: away, out of office, on holiday. */
const AUTO_REPLY_SUBJECT =
  /^(?:auto(?:matic)?[ -]?(?:reply|response|antwort)|auto:|out of (?:the )?office|away\b|on (?:vacation|holiday|leave)|abwesenheit|r[ée]ponse automatique|autoreply|vacation)/i;
/** Where a text bounce ends and the returned message begins. */
// Each begins at a line start and reads along that line only ([ \t-], never a newline): a pattern
// that could run on across lines would be tried again from every line start, in time squared.
const COPY_MARKERS: RegExp[] = [
  /^[ \t-]*(?:below (?:this line )?is a copy|this is a copy|here is a copy|a copy of the original message)/im,
  /^[ \t-]*returned message[ \t]*-*[ \t]*$/im,
  /^[ \t-]*(?:the )?original message (?:follows|headers|was|is)/im,
  /^[ \t-]*original message[ \t]*-*[ \t]*$/im,
  /^[ \t-]*(?:unsent|undelivered|returned) message (?:follows|below)/im,
  /^[ \t-]*(?:message|original) headers? follows?/im,
  /^[ \t-]*start of (?:the )?(?:returned|original) message/im,
  /^[ \t-]*the (?:header|text) of the (?:original )?message/im,
  /^content-type: message\/rfc822/im,
  /^return-path:[ \t]*</im,
];
/** Words that say a refusal came after the message's text, not to the address. */
const AFTER_DATA =
  /in reply to end of DATA command|after end of data|SMTP error from remote mail server after end of data/i;
/** Words that say the server is still trying. */
const STILL_TRYING =
  /\b(?:delayed|delay(?:ed)? mail|not (?:yet )?been delivered|will (?:continue|keep) (?:trying|to try)|still (?:trying|being retried|in (?:the )?queue)|will be retried|is being retried|warning: message)/i;

/** Reads one bounce (parsed with keepDeliveryStatus and ignoreEmbedded, as parse-mail-report.ts does). */
export function readBounce(mail: ParsedMail, raw: Buffer | string): BounceReading {
  const returnedPart = firstPart(mail, RETURNED_PARTS);
  const returned = returnedPart === undefined ? new Map<string, string>() : (fieldGroups(returnedPart)[0] ?? new Map());

  const feedbackText = firstPart(mail, FEEDBACK_PARTS);
  const contentType = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> };
  // MIME types and their parameters compare without case (RFC 2045): Multipart/Report is a report.
  const reportType =
    contentType?.value?.toLowerCase() === 'multipart/report'
      ? contentType.params?.['report-type']?.toLowerCase()
      : undefined;
  if (feedbackText !== undefined) {
    const feedback = fieldGroups(feedbackText)[0];
    if (feedback) return { type: 'complaint', feedback, returned };
  }
  if (reportType === 'feedback-report')
    return { type: 'none', why: 'a complaint without its feedback-report part', returned };

  const statusText = firstPart(mail, STATUS_PARTS);
  // The human-readable part may say at which step the refusal came (Postfix: "in reply to end of DATA command").
  const afterData = AFTER_DATA.test(bounceText(mail) ?? '');
  if (statusText !== undefined) {
    const recipients = fieldGroups(statusText)
      .filter((fields) => fields.has('action') || fields.has('final-recipient') || fields.has('original-recipient'))
      .map((fields) => ({ ...reportedAnswer(fields, mail), ...(afterData ? { afterData } : {}) }));
    if (recipients.length > 0) return { type: 'bounce', layout: 'report', recipients, returned };
  }
  // A report whose MIME structure is broken (a boundary that does not match) is still a report:
  // its fields are read from the raw text.
  const rawText = typeof raw === 'string' ? raw : raw.toString('latin1');
  const body = rawText.slice(rawText.search(/\r?\n\r?\n/) + 1);
  const inlineFields = fieldGroups(body).filter((fields) => fields.has('action') && fields.has('status'));

  const subject = mail.subject ?? '';
  const from = mail.from?.text ?? mail.headers.get('from')?.toString() ?? '';
  const failedRecipients = mail.headers.has('x-failed-recipients');
  const looksLikeBounce =
    reportType === 'delivery-status' || failedRecipients || BOUNCE_FROM.test(from) || BOUNCE_SUBJECT.test(subject);
  if (!looksLikeBounce) {
    const autoSubmitted = String(mail.headers.get('auto-submitted') ?? '').toLowerCase();
    if (
      autoSubmitted.startsWith('auto-replied') ||
      mail.headers.has('x-autoreply') ||
      mail.headers.has('x-autorespond') ||
      AUTO_REPLY_SUBJECT.test(subject.trim())
    )
      return { type: 'none', why: 'an automatic reply (out of office, away), not a bounce', returned };
    return { type: 'none', why: 'not a delivery report, a bounce or a complaint', returned };
  }

  const returnedHeaders = returned.size > 0 ? returned : returnedInText(mail);
  if (inlineFields.length > 0)
    return {
      type: 'bounce',
      layout: 'report',
      recipients: inlineFields.map((fields) => ({
        ...reportedAnswer(fields, mail),
        ...(afterData ? { afterData } : {}),
      })),
      returned: returnedHeaders,
    };
  const explanation = bounceText(mail) ?? '';
  if (!/[a-z]{3}/i.test(explanation))
    return { type: 'none', why: 'a bounce with no words to read (empty or cut short)', returned: returnedHeaders };
  const stillTrying = STILL_TRYING.test(subject) && !/\b(?:failed|failure|permanent)\b/i.test(subject);
  const action = stillTrying ? 'delayed' : 'failed';
  return {
    type: 'bounce',
    layout: 'text',
    recipients: perRecipient(explanation).map((said) => ({ action, ...(said ? { diagnostic: said } : {}) })),
    returned: returnedHeaders,
  };
}

/** A line that names one failed recipient: "<a@b>:", "  a@b:", "a@b" alone (Exim, qmail, Postfix, OpenSMTPD …). */
const RECIPIENT_LINE = /^[ \t]*(?:To:\s*)?<?([^\s<>"@]+@[\w.-]+\w)>?(?:[ \t]*(?::|\.{3}).*)?[ \t]*$/gm;

/**
 * The most recipients one report is read for. We send each message to one person, so a report about
 * ours names one; a report naming thousands is read for the first few, in time in proportion to its size.
 */
export const MOST_RECIPIENTS = 50;

/** The answer for each recipient a text bounce names, in its order (one answer when it names one, or none). */
function perRecipient(text: string): string[] {
  const lines: { address: string; index: number }[] = [];
  for (const line of text.matchAll(RECIPIENT_LINE)) lines.push({ address: line[1]!.toLowerCase(), index: line.index });
  const addresses = [...new Set(lines.map((line) => line.address))].slice(0, MOST_RECIPIENTS);
  if (addresses.length < 2) return [diagnosticIn(text)];
  // Where each address is first named, and where the next other address is named after it: one pass.
  const first = new Map<string, number>();
  for (const [position, line] of lines.entries()) if (!first.has(line.address)) first.set(line.address, position);
  const nextOther: number[] = new Array<number>(lines.length).fill(text.length);
  for (let position = lines.length - 2; position >= 0; position -= 1) {
    const next = lines[position + 1]!;
    nextOther[position] = next.address !== lines[position]!.address ? next.index : nextOther[position + 1]!;
  }
  // A session transcript (Sendmail) says each recipient's answer on a line that names it: each line
  // read once for each address (at most MOST_RECIPIENTS of them).
  const namedWithCode = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (namedWithCode.size === addresses.length || !CODE_AT.test(line)) continue;
    const lower = line.toLowerCase();
    for (const address of addresses)
      if (!namedWithCode.has(address) && lower.includes(address)) namedWithCode.set(address, line);
  }
  return addresses.map((address) => {
    const position = first.get(address)!;
    const own = text.slice(lines[position]!.index, nextOther[position]);
    if (CODE_AT.test(own)) return diagnosticIn(own);
    return diagnosticIn(namedWithCode.get(address) ?? own);
  });
}

/** One recipient's fields in a delivery-status part; a missing Diagnostic-Code is looked for in the text part. */
function reportedAnswer(fields: Fields, mail: ParsedMail): RecipientAnswer {
  const action = (fields.get('action') ?? '').trim().split(/\s/)[0]?.toLowerCase() ?? '';
  const status = fields.get('status')?.match(/(?<![\d.])[245]\.\d{1,3}\.\d{1,3}(?![.\d])/)?.[0];
  let diagnostic = fields.get('diagnostic-code')?.replace(/^\s*[\w-]+\s*;\s*/, '');
  // Some servers leave the Diagnostic-Code out and say it only in the human-readable part.
  if (!diagnostic?.trim()) {
    const text = bounceText(mail);
    diagnostic = text ? diagnosticIn(text) : undefined;
  }
  const at = validDate(fields.get('last-attempt-date'));
  return {
    // "expired" is what some servers write for a failure after retrying until their time ran out;
    // relayed and expanded (passed on, reporting nothing back) say nothing about the person.
    action:
      action === 'relayed' || action === 'expanded'
        ? 'passed-on'
        : action === 'delivered' || action === 'deliverable' || (!action && status?.startsWith('2.'))
          ? 'delivered'
          : action === 'delayed' || (!action && status?.startsWith('4.'))
            ? 'delayed'
            : 'failed',
    ...(status ? { status } : {}),
    ...(diagnostic?.trim() ? { diagnostic: diagnostic.trim() } : {}),
    ...(at ? { at } : {}),
  };
}

/** The human-readable part of a bounce, up to where the returned message begins. */
function bounceText(mail: ParsedMail): string | undefined {
  let text = mail.text ?? (typeof mail.html === 'string' ? htmlToText(mail.html) : undefined);
  if (!text?.trim() && typeof mail.html === 'string') text = htmlToText(mail.html);
  if (!text) return undefined;
  let end = text.length;
  for (const marker of COPY_MARKERS) {
    const found = marker.exec(text);
    if (found && found.index > 0 && found.index < end) end = found.index;
  }
  return text.slice(0, end);
}

/** The answer a text bounce quotes: from its first reply code (or status code) on, else all of its words. */
const CODE_AT = /(?:^|[\s:(<["'])(?:[45]\d\d[ -]+(?:#?[45]\.\d{1,3}\.\d{1,3})?|#?[45]\.\d{1,3}\.\d{1,3}\b)/m;

export function diagnosticIn(text: string): string {
  const flat = text.replace(/\r/g, '');
  const codeAt = CODE_AT.exec(flat);
  const fromCode = codeAt ? flat.slice(codeAt.index) : flat;
  return fromCode.replace(/\s+/g, ' ').trim().slice(0, 600);
}

/** The returned message's headers when a text bounce carries it inline (after its copy marker). */
function returnedInText(mail: ParsedMail): Fields {
  const text = mail.text ?? '';
  const marker = COPY_MARKERS.map((pattern) => pattern.exec(text)).find((found) => found !== null);
  if (!marker) return new Map();
  const rest = text.slice(marker.index).split(/\r?\n/).slice(1).join('\n');
  return fieldGroups(rest.replace(/^[ \t]+(?=[\w-]+:)/gm, ''))[0] ?? new Map();
}

function htmlToText(html: string): string {
  return withoutStyleAndScript(html)
    .replace(/<br\s*\/?>|<\/(?:p|div|tr|li|h\d)>/gi, '\n')
    .replace(/<[^<>]+>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&amp;/gi, '&')
    .replace(/[ \t]+/g, ' ');
}

/** Style and script blocks removed, each looked for once (an unclosed one ends the text). */
function withoutStyleAndScript(html: string): string {
  const open = /<(style|script)\b[^<>]*>/gi;
  let kept = '';
  let from = 0;
  for (;;) {
    open.lastIndex = from;
    const start = open.exec(html);
    if (!start) return kept + html.slice(from);
    kept += `${html.slice(from, start.index)} `;
    const close = html.toLowerCase().indexOf(`</${start[1]!.toLowerCase()}`, open.lastIndex);
    if (close < 0) return kept;
    from = html.indexOf('>', close) + 1 || html.length;
  }
}

/** The text of the first part of one of these types (mailparser keeps report parts as attachments). */
function firstPart(mail: ParsedMail, types: string[]): string | undefined {
  // A broken part may have no content type at all (found by the fuzz test).
  return mail.attachments
    .find((part) => typeof part.contentType === 'string' && types.includes(part.contentType.toLowerCase()))
    ?.content.toString('utf8');
}

/**
 * Header-style fields in groups separated by blank lines: a delivery-status part is one group for
 * the message, then one per recipient; a returned message's headers are its first group.
 */
export function fieldGroups(text: string): Fields[] {
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

/** The earliest time a report may say: before it, a date is a mistake or a trick. */
const EARLIEST = Date.UTC(2000, 0, 1);
/** How far ahead of our clock a report's date may be (a server's clock a little fast). */
const AHEAD_MS = 86_400_000;

/**
 * A report's date, if it is a real one within a sane window (from 2000 to a day ahead of now);
 * otherwise undefined, and the caller takes the time it received the report. A date such as
 * +012345-01-01 parses in JavaScript but not in PostgreSQL: it must never reach the database.
 */
export function validDate(value: Date | string | undefined, now = Date.now()): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  const time = date.getTime();
  if (Number.isNaN(time) || time < EARLIEST || time > now + AHEAD_MS) return undefined;
  return date;
}
