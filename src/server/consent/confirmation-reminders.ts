// The one reminder to confirm (CONFIRMATION_REMINDER_DAYS after the confirmation email; 0 sends
// none), with the same scanner-safe button and the day the details are deleted without it. A kind of
// the one outbox (decision 052), queued once in a person's lifetime, so nobody ever gets two; the one
// sender claims and judges it, and a reminder not sent for a reason of ours waits for a later sweep;
// an address refused for good is marked undeliverable, as for any send (docs/messaging.md, "What a
// new sign-up gets").
import type { FastifyBaseLogger } from 'fastify';
import type { ConfirmationQueueRepository } from '../db/confirmation-queue-repository.js';
import type { ClaimedMessage } from '../db/outbox-rows.js';
import type { EmailSender } from '../messaging/email-sender.js';
import { deletionDay, latest } from '../messaging/email-templates.js';
import type { MessageLog } from '../messaging/message-log.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { sendConfirmationEmail } from './confirmation-email.js';
import { markUndeliverable, type QueuedKindHandler, type SendOutcome } from './outbox-sender.js';
import type { Subscriber } from '../db/subscribers-repository.js';
import { DAY_MS, type Subscriptions } from './subscriptions.js';

export interface ReminderOptions {
  store: Pick<ConfirmationQueueRepository, 'queueReminders'>;
  subscriptions: Subscriptions;
  email: EmailSender;
  links: LinkSigner;
  siteUrl: string;
  reminderDays: number;
  retentionDays: number;
  postalAddress?: string | undefined;
  log?: MessageLog | undefined;
  logger: FastifyBaseLogger;
  now?: () => Date;
}

/** The one reminder, as a kind of the one outbox. */
export function confirmationReminders(options: ReminderOptions): QueuedKindHandler {
  const { store, subscriptions, logger, reminderDays } = options;
  const now = options.now ?? (() => new Date());

  async function send(_message: ClaimedMessage, subscriber: Subscriber): Promise<SendOutcome> {
    const result = await sendConfirmationEmail(
      options,
      subscriber,
      'reminder',
      deletionDay(
        latest(subscriber.lastSeenAt, subscriber.confirmationSentAt),
        options.retentionDays,
        subscriber.language,
      ),
    );
    if (result.sent) return { result: 'sent', logged: result.logged };
    const { verdict, answer } = result;
    // Their own server's policy refuses us: no reminder for them, and nothing else changes.
    if (verdict.skip) return { result: 'skipped', why: verdict.reason };
    return { result: 'refused', verdict, answer };
  }

  const refusedForGood = markUndeliverable(subscriptions, logger, 'email', 'confirmation reminder');

  return {
    kind: 'reminder',
    what: 'confirmation reminders',
    channel: 'email',
    // The one rule: a leaving, a bounce, email turned off … all mean no reminder (and no second chance).
    whenNo: 'skipped',
    stillDue: async (subscriber) => (subscriber.confirmedAt !== null ? 'confirmed' : undefined),
    queueDue: async () =>
      reminderDays > 0 ? store.queueReminders(new Date(now().getTime() - reminderDays * DAY_MS)) : 0,
    send,
    refusedForGood,
  };
}
