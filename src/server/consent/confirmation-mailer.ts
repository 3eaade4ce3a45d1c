// Sends the confirmation emails that sign-ups asked for, after they are stored: in the background,
// retried with back-off while the mail server is away or refuses us, never more than once a day to
// one address. What a failure does follows its verdict (send-failure.ts): an address that does not
// exist fails that confirmation and is marked undeliverable; our own trouble (a refused sign-in)
// makes everyone wait without counting against them; anything else is retried.
import type { FastifyBaseLogger } from 'fastify';
import type { ConfirmationJob, ConfirmationQueueRepository } from '../db/confirmation-queue-repository.js';
import type { EmailSender } from '../messaging/email-sender.js';
import type { MessageLog } from '../messaging/message-log.js';
import { deletionDay, latest } from '../messaging/email-templates.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { retryDelayMs } from '../messaging/back-off.js';
import type { FailureKind, FailureVerdict } from '../messaging/send-failure.js';
import { sendConfirmationEmail } from './confirmation-email.js';
import type { Subscriptions } from './subscriptions.js';
import { number } from '../../shared/plain-numbers.js';

export interface ConfirmationMailerOptions {
  /** Who may be written to, the same rule every sender asks. */
  subscriptions: Subscriptions;
  /** The confirmation queue: claims, outcomes and retries. */
  confirmations: Pick<
    ConfirmationQueueRepository,
    'claimConfirmations' | 'confirmationSent' | 'confirmationFailed' | 'confirmationDropped'
  >;
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
  /** How many to claim at a time. */
  batchSize?: number;
  /**
   * How many of a batch go at once (the mail transport's pool holds 3 connections): a launch-day
   * rush of sign-ups is answered within a second or so, not one email after another.
   */
  concurrency?: number;
  /** How long a claim holds before another sender may take it (a sender that died mid-send). */
  leaseMs?: number;
  /** The first retry's delay; each later one doubles, up to `maxRetryMs`, with jitter. */
  retryBaseMs?: number;
  maxRetryMs?: number;
  random?: () => number;
  now?: () => Date;
}

export interface MailerRun {
  sent: number;
  retrying: number;
  failed: number;
  dropped: number;
}

/** How one confirmation went; `waiting`: not sent because of us (a refused sign-in), counted as retrying. */
type Outcome = keyof MailerRun | 'waiting';

export class ConfirmationMailer {
  private readonly options: Required<Omit<ConfirmationMailerOptions, 'log' | 'postalAddress' | 'reminderDays'>> &
    Pick<ConfirmationMailerOptions, 'log' | 'postalAddress' | 'reminderDays'>;
  /** The runner's stop: a batch under way ends after the email being sent. */
  private signal: AbortSignal | undefined;
  /** The kind of the failing streak the owner was told about, until an email goes out again. */
  private failing: FailureKind | undefined;
  /** Failures of ours in a row: their back-off is the mailer's, not each person's. */
  private ourFailures = 0;

  constructor(options: ConfirmationMailerOptions) {
    this.options = {
      batchSize: 20,
      concurrency: 3,
      leaseMs: 5 * 60_000,
      retryBaseMs: 30_000,
      maxRetryMs: 60 * 60_000,
      random: Math.random,
      now: () => new Date(),
      ...options,
    };
  }

  /**
   * The job "confirmation-emails" (jobs/job-list.ts): sends every due confirmation, a batch at a
   * time, until none is left. What it did, in a few words, or
   * nothing when nothing was due.
   */
  async run(signal?: AbortSignal): Promise<string | undefined> {
    this.signal = signal;
    const total: MailerRun = { sent: 0, retrying: 0, failed: 0, dropped: 0 };
    for (;;) {
      const run = await this.runOnce();
      for (const key of Object.keys(total) as (keyof MailerRun)[]) total[key] += run[key];
      // A full batch means there may be more waiting.
      const handled = run.sent + run.retrying + run.failed + run.dropped;
      if (handled < this.options.batchSize || signal?.aborted) break;
    }
    const { sent, retrying, failed, dropped } = total;
    if (sent + retrying + failed + dropped === 0) return undefined;
    return `${number(sent)} sent, ${number(retrying)} to try again, ${number(failed)} failed, ${number(dropped)} dropped`;
  }

  /** Claims one batch of due confirmations and sends them, `concurrency` at a time. */
  async runOnce(): Promise<MailerRun> {
    const { confirmations, batchSize, leaseMs, concurrency } = this.options;
    const jobs = await confirmations.claimConfirmations(batchSize, leaseMs);
    const run: MailerRun = { sent: 0, retrying: 0, failed: 0, dropped: 0 };
    for (let start = 0; start < jobs.length; start += concurrency) {
      if (this.signal?.aborted) break; // the lease hands what is left to the next start
      const wave = jobs.slice(start, start + concurrency);
      const outcomes = await Promise.all(wave.map((job) => this.sendOne(job)));
      for (const outcome of outcomes) run[outcome === 'waiting' ? 'retrying' : outcome] += 1;
      const outcome = outcomes.includes('waiting') ? 'waiting' : outcomes.includes('retrying') ? 'retrying' : undefined;
      if (outcome) {
        // The mail server is away or refuses us: the rest of the batch waits for the same retry, untried.
        for (const rest of jobs.slice(start + concurrency)) {
          if (outcome === 'waiting')
            await confirmations.confirmationFailed(rest.id, 'waiting for the mail server', this.ourRetryAt(), {
              countAttempt: false,
            });
          else await confirmations.confirmationFailed(rest.id, 'waiting for the mail server', this.retryAt(rest));
          run.retrying += 1;
        }
        break;
      }
    }
    return run;
  }

  private retryAt(job: ConfirmationJob): Date {
    return this.after(job.attempts);
  }

  /** When to try again after a failure of ours: backing off with the mailer's streak, not the person's attempts. */
  private ourRetryAt(): Date {
    return this.after(this.ourFailures);
  }

  private after(attempts: number): Date {
    const { retryBaseMs, maxRetryMs, random, now } = this.options;
    return new Date(now().getTime() + retryDelayMs(attempts, retryBaseMs, maxRetryMs, random));
  }

  /** Tells the owner once per failing streak (and again if its kind changes), in the verdict's words. */
  private reportFailing(verdict: FailureVerdict, answer: string): void {
    if (this.failing === verdict.kind) return;
    this.failing = verdict.kind;
    this.options.logger.error(
      { err: answer, kind: verdict.kind },
      `confirmation emails cannot be sent just now, and will be retried: ${verdict.reason}`,
    );
  }

  private async sendOne(job: ConfirmationJob): Promise<Outcome> {
    const { subscriptions, confirmations: store, retentionDays, logger } = this.options;
    // Checked at the moment of sending: the person may have confirmed, left or been deleted since.
    const subscriber = await subscriptions.subscriber(job.id);
    if (!subscriber) return 'dropped';
    // The one rule says which email, if any: the confirmation, or the one "come back?" after a "no".
    const ask = await subscriptions.confirmationAsk(subscriber);
    if (ask.kind === 'none') {
      await store.confirmationDropped(job.id, ask.reason);
      return 'dropped';
    }
    const result = await sendConfirmationEmail(
      { ...this.options, subscriptions },
      subscriber,
      ask.kind === 'confirm' ? 'confirm' : { comeBack: ask.because },
      // Counted from the later of their latest sign-up and now, as the deletion counts it.
      deletionDay(latest(subscriber.lastSeenAt, this.options.now().toISOString()), retentionDays, subscriber.language),
    );
    if (!result.sent) {
      const { verdict, answer } = result;
      if (verdict.kind === 'recipient') {
        // This address cannot get email: no later message should try it either.
        await store.confirmationFailed(job.id, answer);
        await subscriptions.markUndeliverable(subscriber, 'email');
        logger.warn(
          { signup: job.id, err: answer },
          `confirmation email refused for good, address marked undeliverable: ${verdict.reason}`,
        );
        return 'failed';
      }
      this.reportFailing(verdict, answer);
      if (verdict.kind === 'sender') {
        this.ourFailures += 1;
        await store.confirmationFailed(job.id, answer, this.ourRetryAt(), { countAttempt: false });
        return 'waiting';
      }
      await store.confirmationFailed(job.id, answer, this.retryAt(job));
      return 'retrying';
    }
    await store.confirmationSent(job.id);
    // Kept by the address too: a sweep of this record does not let the next sign-up ask again.
    if (ask.kind === 'come_back') await subscriptions.askedBack(subscriber);
    this.ourFailures = 0;
    if (this.failing) {
      this.failing = undefined;
      logger.info('confirmation emails are going out again');
    }
    return 'sent';
  }
}
