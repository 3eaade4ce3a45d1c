// The one reminder to confirm (CONFIRMATION_REMINDER_DAYS after the confirmation email; 0 sends
// none), with the same scanner-safe button and the day the details are deleted without it. Each
// sign-up is claimed (marked reminded) before its reminder is written, so nobody ever gets two; a
// failure of ours gives the claim back for the next sweep; an address refused for good is marked
// undeliverable, as for any send (docs/messaging.md, "What a new sign-up gets").
import type { FastifyBaseLogger } from 'fastify';
import type { ConfirmationQueueRepository } from '../db/confirmation-queue-repository.js';
import type { EmailSender } from '../messaging/email-sender.js';
import { deletionDay, latest } from '../messaging/email-templates.js';
import type { MessageLog } from '../messaging/message-log.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { sendConfirmationEmail } from './confirmation-email.js';
import { DAY_MS, type Subscriptions } from './subscriptions.js';

export interface ReminderOptions {
  store: Pick<ConfirmationQueueRepository, 'claimReminders' | 'reminderNotSent'>;
  subscriptions: Subscriptions;
  email: EmailSender;
  links: LinkSigner;
  siteUrl: string;
  reminderDays: number;
  retentionDays: number;
  postalAddress?: string | undefined;
  log?: MessageLog | undefined;
  logger: FastifyBaseLogger;
  batchSize?: number;
  now?: () => Date;
}

export interface ReminderRun {
  sent: number;
  /** Claimed, but nothing to send: confirmed meanwhile, left, or their address takes no email. */
  skipped: number;
  /** Refused for good: the address is marked undeliverable. */
  failed: number;
  /** Not sent for a reason of ours (the mail server away, our password refused): given back for the next sweep. */
  waiting: number;
}

/** Sends the reminders that are due now, a batch at a time, until none is left. */
export async function sendDueReminders(options: ReminderOptions): Promise<ReminderRun> {
  const run: ReminderRun = { sent: 0, skipped: 0, failed: 0, waiting: 0 };
  if (options.reminderDays <= 0) return run;
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 20;
  for (;;) {
    const due = await options.store.claimReminders(
      batchSize,
      new Date(now().getTime() - options.reminderDays * DAY_MS),
    );
    for (const [index, job] of due.entries()) {
      const outcome = await remindOne(options, job.id);
      run[outcome] += 1;
      if (outcome === 'waiting') {
        // The mail server is away or refuses us: the rest of the batch is given back, untried.
        for (const rest of due.slice(index + 1)) await options.store.reminderNotSent(rest.id);
        run.waiting += due.length - index - 1;
        return run;
      }
    }
    if (due.length < batchSize) return run;
  }
}

async function remindOne(options: ReminderOptions, id: string): Promise<keyof ReminderRun> {
  const { store, subscriptions, logger } = options;
  const subscriber = await subscriptions.subscriber(id);
  // The one rule: a leaving, a bounce, email turned off … all mean no reminder (and no second chance).
  if (!subscriber || subscriber.confirmedAt !== null || !(await subscriptions.mayContact(subscriber, 'email')))
    return 'skipped';
  const result = await sendConfirmationEmail(
    options,
    subscriber,
    'reminder',
    deletionDay(latest(subscriber.lastSeenAt, subscriber.confirmationSentAt), options.retentionDays),
  );
  if (result.sent) return 'sent';
  const { verdict, answer } = result;
  logger.warn({ signup: id, err: answer }, `confirmation reminder not sent: ${verdict.reason}`);
  if (verdict.kind === 'recipient') {
    await subscriptions.markUndeliverable(subscriber, 'email');
    return 'failed';
  }
  await store.reminderNotSent(id);
  return 'waiting';
}
