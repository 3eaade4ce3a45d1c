// A provider's "permanent" is its reading, not ours: every hard bounce a webhook reports is read
// again by the one judge of whose fault an answer is (messaging/smtp-answers.ts) through the
// receiving server's own answer, when the report quotes one. A 5.7.26 (DMARC: our DNS) or a block
// list is then a soft bounce, never the person's suppression; an answer the judge does not know
// keeps the provider's word. Reports read from the bounce mailbox and answers during the send are
// already the judge's own reading.
import { readSmtpText, smtpRuleFor } from '../messaging/smtp-answers.js';
import type { FeedbackEvent } from './report-event.js';

const JUDGED_ALREADY = new Set<FeedbackEvent['source']>(['imap', 'smtp', 'twilio']);
const STATUS = /^[245]\.\d{1,3}\.\d{1,3}$/;

export function secondOpinion(event: FeedbackEvent): FeedbackEvent {
  if (event.kind !== 'hard_bounce' || JUDGED_ALREADY.has(event.source)) return event;
  const said = readSmtpText(event.detail ?? '');
  const status = event.code && STATUS.test(event.code) && !/^\d\.0\.0$/.test(event.code) ? event.code : said.status;
  if (!status && said.reply === undefined && !event.detail) return event;
  const rule = smtpRuleFor({ ...said, ...(status ? { status } : {}), reply: said.reply ?? 550 });
  if (!rule || rule.kind === 'recipient') return event;
  return { ...event, kind: 'soft_bounce' };
}
