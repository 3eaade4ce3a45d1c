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
  /** This person's server said "not now" (full, greylisting, busy): given back, and the run goes on to the others. */
  later: number;
}

/** "Not now" answers in a row that stop a run: the mail server's trouble, not the people's. */
export const LATER_IN_A_ROW = 2;

/** Sends the reminders that are due now, a batch at a time, until none is left. */
export async function sendDueReminders(options: ReminderOptions): Promise<ReminderRun> {
  const run: ReminderRun = { sent: 0, skipped: 0, failed: 0, waiting: 0, later: 0 };
  if (options.reminderDays <= 0) return run;
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 20;
  const givenBack = new Set<string>();
  let laterInARow = 0;
  for (;;) {
    const due = await options.store.claimReminders(
      batchSize,
      new Date(now().getTime() - options.reminderDays * DAY_MS),
    );
    // One given back earlier in this run is not tried again until the next sweep.
    const fresh = due.filter((job) => !givenBack.has(job.id));
    for (const job of due) if (givenBack.has(job.id)) await options.store.reminderNotSent(job.id);
    if (fresh.length === 0) return run;
    for (const [index, job] of fresh.entries()) {
      const outcome = await remindOne(options, job.id);
      run[outcome] += 1;
      if (outcome === 'later') givenBack.add(job.id);
      // Two "not now" answers in a row are the mail server's, not two people's: the run stops.
      laterInARow = outcome === 'later' ? laterInARow + 1 : 0;
      if (outcome === 'waiting' || laterInARow >= LATER_IN_A_ROW) {
        // The mail server is away or refuses us: the rest of the batch is given back, untried.
        for (const rest of fresh.slice(index + 1)) await options.store.reminderNotSent(rest.id);
        run.waiting += fresh.length - index - 1;
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
    deletionDay(
      latest(subscriber.lastSeenAt, subscriber.confirmationSentAt),
      options.retentionDays,
      subscriber.language,
    ),
  );
  if (result.sent) return 'sent';
  const { verdict, answer } = result;
  logger.warn({ signup: id, err: answer }, `confirmation reminder not sent: ${verdict.reason}`);
  if (verdict.kind === 'recipient') {
    await subscriptions.markUndeliverable(subscriber, 'email');
    return 'failed';
  }
  // Their own server's policy refuses us: no reminder for them, and nothing else changes.
  if (verdict.skip) return 'skipped';
  await store.reminderNotSent(id);
  // One person's "not now" never holds up everyone after them; a problem of ours stops the run.
  return verdict.kind === 'message' ? 'later' : 'waiting';
}
