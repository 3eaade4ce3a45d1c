// The confirmation emails that sign-ups asked for, after they are stored: a kind of the one outbox
// (decision 052), queued in the sign-up's own transaction (never more than once a day to one
// address), claimed, retried and judged by the one sender. This says which email the record calls
// for and writes it: the confirmation, or the one "come back?" email after a "no"; an address that
// does not exist fails it and is marked undeliverable.
import type { FastifyBaseLogger } from 'fastify';
import type { ClaimedMessage } from '../db/outbox-rows.js';
import type { EmailSender } from '../messaging/email-sender.js';
import type { MessageLog } from '../messaging/message-log.js';
import { deletionDay, latest } from '../messaging/email-templates.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { sendConfirmationEmail } from './confirmation-email.js';
import { markUndeliverable, type QueuedKindHandler, type SendOutcome } from './outbox-sender.js';
import type { Subscriber } from '../db/subscribers-repository.js';
import type { Subscriptions } from './subscriptions.js';

export interface ConfirmationMailerOptions {
  /** Who may be written to, the same rule every sender asks. */
  subscriptions: Subscriptions;
  /** Records each email with its token, for what comes back (unset: nothing is recorded). */
  log?: MessageLog | undefined;
  email: EmailSender;
  links: LinkSigner;
  siteUrl: string;
  retentionDays: number;
  /** CONFIRMATION_REMINDER_DAYS: the confirmation email says the one reminder when one will come. */
  reminderDays?: number;
  /** MAIL_POSTAL_ADDRESS, for the footer. */
  postalAddress?: string | undefined;
  logger: FastifyBaseLogger;
  now?: () => Date;
}

/** The confirmation email (or the one "come back?"), as a kind of the one outbox. */
export function confirmationEmails(options: ConfirmationMailerOptions): QueuedKindHandler {
  const { subscriptions, retentionDays, logger } = options;
  const now = options.now ?? (() => new Date());

  async function send(_message: ClaimedMessage, subscriber: Subscriber): Promise<SendOutcome> {
    // Checked at the moment of sending (the gate found them on the list): the one rule says which
    // email, if any: the confirmation, or the one "come back?" after a "no". Its row is live (it is
    // being sent), so the request still waits.
    const ask = await subscriptions.confirmationAsk({ ...subscriber, confirmationWaiting: true });
    if (ask.kind === 'none') return { result: 'skipped', why: ask.reason };
    const result = await sendConfirmationEmail(
      { ...options, subscriptions, now },
      subscriber,
      ask.kind === 'confirm' ? 'confirm' : { comeBack: ask.because },
      // Counted from the later of their latest sign-up and now, as the deletion counts it.
      deletionDay(latest(subscriber.lastSeenAt, now().toISOString()), retentionDays, subscriber.language),
    );
    if (!result.sent) return { result: 'refused', verdict: result.verdict, answer: result.answer };
    // The one "come back?" is kept by the address too: a sweep of this record does not let the next
    // sign-up ask again. (Its going out is the person's fact, confirm_sent_at, recorded with its row.)
    if (ask.kind === 'come_back') await subscriptions.askedBack(subscriber);
    return { result: 'sent', logged: result.logged };
  }

  const refusedForGood = markUndeliverable(subscriptions, logger, 'email', 'confirmation email');

  return {
    kind: 'confirmation',
    what: 'confirmation emails',
    channel: 'email',
    // A "no" allows the one "come back?" email: confirmationAsk above is the contact rule's word on it.
    whenNo: 'the kind asks',
    send,
    refusedForGood,
  };
}
