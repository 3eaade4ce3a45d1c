// Sends the joining text (decision 041): once, at once, to each number that joins while texts are set
// up, saying who we are, what comes, and how to say YES, STOP and HELP. In the background, like the
// confirmation emails: nudged by each sign-up, polled for retries and other instances' sign-ups, each
// claim a lease. What a failure does follows its verdict (send-failure.ts): a number that cannot take
// texts is marked undeliverable; our own trouble (a refused account) makes everyone wait, counting
// against nobody; anything else is tried again later.
import type { FastifyBaseLogger } from 'fastify';
import type { JoiningTextJob, JoiningTextsRepository } from '../db/joining-texts-repository.js';
import type { CountryCode } from 'libphonenumber-js/max';
import { phoneFacts, storedForms } from '../messaging/phone.js';
import type { TextTiming } from '../messaging/text-hours.js';
import { JOINING_TEXT_LATER_MS } from '../db/joining-texts-repository.js';
import { retryDelayMs } from '../messaging/back-off.js';
import { withoutAddresses } from '../messaging/log-safe.js';
import { feedbackId, type MessageLog } from '../messaging/message-log.js';
import { messageWordsIn } from '../messaging/message-words.js';
import { verdictOf } from '../messaging/send-failure.js';
import type { SmsProvider } from '../messaging/sms-provider.js';
import type { TextProof } from './contact-rule.js';
import type { Subscriptions } from './subscriptions.js';
import { number } from '../../shared/plain-numbers.js';

export interface JoiningTexterOptions {
  subscriptions: Subscriptions;
  store: Pick<JoiningTextsRepository, 'claim' | 'sent' | 'notSent' | 'numberAsked'>;
  sms: SmsProvider;
  log?: MessageLog | undefined;
  /** SMS_CONFIRMATION: the words say what brings the launch text. */
  textProof: TextProof;
  logger: FastifyBaseLogger;
  batchSize?: number;
  retryBaseMs?: number;
  maxRetryMs?: number;
  now?: () => Date;
  /** SMS_DEFAULT_COUNTRY: the country of a number typed without its country code. */
  phoneCountry?: string;
  /**
   * The hours a text may reach its person (messaging/text-hours.ts): a joining text to someone who
   * signed up a while ago (already on the list when texts were switched on) waits for them. One that
   * answers a sign-up just made goes at once, whatever the hour: the person is at the page.
   */
  textTiming?: TextTiming | undefined;
}

/** A sign-up this recent is answered at once: the person has just pressed the button. */
export const JUST_SIGNED_UP_MS = 10 * 60_000;

export interface TexterRun {
  sent: number;
  later: number;
  skipped: number;
}

export class JoiningTexter {
  private readonly options: Required<Omit<JoiningTexterOptions, 'log' | 'textTiming'>> &
    Pick<JoiningTexterOptions, 'log' | 'textTiming'>;
  /** The runner's stop: a batch under way ends after the text being sent. */
  private signal: AbortSignal | undefined;
  /** Failures of ours in a row: the back-off is the texter's, not each person's. */
  private ourFailures = 0;
  private waitUntil = 0;
  private failing = false;

  constructor(options: JoiningTexterOptions) {
    this.options = {
      batchSize: 20,
      retryBaseMs: 30_000,
      maxRetryMs: 60 * 60_000,
      now: () => new Date(),
      phoneCountry: 'US',
      ...options,
    };
  }

  /**
   * The job "joining-texts" (jobs/job-list.ts): texts every new number its joining text, a batch at
   * a time, until none is left or a texted "later" makes the rest wait. What it did, in a few
   * words, or nothing when nothing was due.
   */
  async run(signal?: AbortSignal): Promise<string | undefined> {
    this.signal = signal;
    // Ours is still failing: the texter's own back-off holds until then.
    if (this.options.now().getTime() < this.waitUntil) return undefined;
    const total: TexterRun = { sent: 0, later: 0, skipped: 0 };
    for (;;) {
      const run = await this.runOnce();
      total.sent += run.sent;
      total.later += run.later;
      total.skipped += run.skipped;
      if (run.sent + run.later + run.skipped < this.options.batchSize || run.later > 0 || signal?.aborted) break;
    }
    if (total.sent + total.later + total.skipped === 0) return undefined;
    return `${number(total.sent)} sent, ${number(total.later)} later, ${number(total.skipped)} skipped`;
  }

  /** Claims one batch and sends each its joining text, one after another. */
  async runOnce(): Promise<TexterRun> {
    const { store, batchSize } = this.options;
    const jobs = await store.claim(batchSize);
    const run: TexterRun = { sent: 0, later: 0, skipped: 0 };
    for (const [index, job] of jobs.entries()) {
      if (this.signal?.aborted) break; // the lease hands what is left to the next start
      const outcome = await this.sendOne(job);
      run[outcome === 'ours' ? 'later' : outcome] += 1;
      if (outcome === 'ours') {
        // Our account or the provider is the trouble: the rest waits too, untried and uncounted.
        const retryAt = new Date(this.waitUntil);
        for (const rest of jobs.slice(index + 1)) await store.notSent(rest.id, retryAt);
        run.later += jobs.length - index - 1;
        break;
      }
    }
    return run;
  }

  private async sendOne(job: JoiningTextJob): Promise<keyof TexterRun | 'ours'> {
    const { subscriptions, store, sms, log, logger, textProof } = this.options;
    const later = new Date(this.options.now().getTime() + JOINING_TEXT_LATER_MS);
    // Checked at the moment of sending: the person may have left, stopped texts or changed number since.
    const person = await subscriptions.subscriber(job.id);
    if (!person || person.phone !== job.phone) return 'skipped';
    if (!(await subscriptions.mayContact(person, 'sms'))) {
      await store.notSent(job.id, later);
      return 'skipped';
    }
    // A number the numbering plan says cannot take texts (a landline abroad, a toll-free number, one
    // of an impossible length) is marked undeliverable without a try, as a provider's "no" would.
    const number = phoneFacts(person.phone, this.options.phoneCountry as CountryCode);
    if (!number.textable) {
      await subscriptions.markUndeliverable(person, 'sms');
      await store.notSent(job.id, later);
      logger.info({ signup: job.id }, `no joining text: the number is ${number.why ?? 'not a mobile number'}`);
      return 'skipped';
    }
    const { textTiming } = this.options;
    // Only where SMS_COUNTRIES says we text: a number abroad someone typed costs the owner, and says nothing.
    const abroad = textTiming?.outsideTextCountries(number.e164);
    if (abroad) {
      await store.notSent(job.id, later);
      logger.info({ signup: job.id }, `no joining text: the number is in ${abroad}, which SMS_COUNTRIES does not name`);
      return 'skipped';
    }
    // One joining text per number, however many sign-ups typed it.
    if (await store.numberAsked(storedForms(number.e164))) {
      await store.notSent(job.id, later);
      logger.info({ signup: job.id }, 'no joining text: the number had one already, through another sign-up');
      return 'skipped';
    }
    const now = this.options.now();
    if (textTiming && now.getTime() - Date.parse(person.createdAt) > JUST_SIGNED_UP_MS) {
      const opens = textTiming.opensAt(textTiming.numberTiming(person.phone).place, now);
      if (opens === undefined || opens > now) {
        // Outside the hours where they are (or no hour fits every zone they may be in: then a day on, to look again).
        await store.notSent(job.id, opens ?? new Date(now.getTime() + 24 * 60 * 60_000));
        return 'later';
      }
    }
    const outgoing = await log?.begin({
      channel: 'sms',
      purpose: 'confirmation',
      signupId: person.id,
      addressHash: subscriptions.phoneHash(person.phone) ?? null,
      feedbackId: feedbackId('confirmation', 'joining-text'),
    });
    try {
      const sent = await sms.send({
        to: number.e164,
        body: messageWordsIn[person.language].sms.joining[textProof],
        ...(outgoing ? { statusCallback: outgoing.statusCallback } : {}),
      });
      if (outgoing) await log?.sent(outgoing.token, { providerId: sent.id });
    } catch (error) {
      const verdict = verdictOf(error);
      const said = withoutAddresses((error as Error).message);
      if (outgoing) await log?.refused(outgoing.token, 'sms', verdict, said);
      if (verdict.stop) {
        await subscriptions.stopTexts(person.phone, 'provider_answer');
        return 'skipped';
      }
      if (verdict.kind === 'recipient') {
        await subscriptions.markUndeliverable(person, 'sms');
        await store.notSent(job.id, later);
        logger.warn(
          { signup: job.id, err: said },
          `joining text refused for good, number marked undeliverable: ${verdict.reason}`,
        );
        return 'skipped';
      }
      const { retryBaseMs, maxRetryMs, now } = this.options;
      if (verdict.kind === 'sender' || verdict.kind === 'unknown') {
        this.ourFailures += 1;
        this.waitUntil = now().getTime() + retryDelayMs(this.ourFailures, retryBaseMs, maxRetryMs);
        await store.notSent(job.id, new Date(this.waitUntil));
        if (!this.failing)
          logger.error(
            { err: said, kind: verdict.kind },
            `joining texts cannot be sent just now, and will be retried: ${verdict.reason}`,
          );
        this.failing = true;
        return 'ours';
      }
      await store.notSent(job.id, new Date(now().getTime() + retryDelayMs(1, retryBaseMs, maxRetryMs)));
      return 'later';
    }
    await store.sent(job);
    this.ourFailures = 0;
    if (this.failing) {
      this.failing = false;
      logger.info('joining texts are going out again');
    }
    return 'sent';
  }
}
