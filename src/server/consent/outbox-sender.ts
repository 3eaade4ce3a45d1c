// The one sender of the messages the product sends by itself (decision 052): it claims a kind's due
// rows from the outbox with the one claim (db/outbox-claims.ts), passes each through the one gate (the
// person is on the list, the message is still due, and their "no" on its channel stops it: decision
// 056), has the kind's handler send it the one way every message is sent (messaging/send-claimed.ts),
// and records what became of it with the one record. Whose fault a refusal was is the one judge's
// (messaging/send-failure.ts), and what becomes of the message the one rule's
// (messaging/failure-outcome.ts), as for a broadcast's (decision 057):
// - the person's side refused for good: the message failed, and the handler marks the address;
// - the person's own server's policy for this send: the message is skipped with the answer;
// - ours (the mail server or the SMS account refuses us): the message and the rest of its batch go
//   back in the queue for the sender's own back-off, counted against nobody, and the owner is told once;
// - anything else: this message is tried again, backing off with its attempts.
// Where a broadcast's sender pauses a channel in trouble for the owner, this one waits and tries
// again by itself: while the trouble may be the provider's (the rule's trouble, an answer nobody
// recognises, or a second "not now" in a row), the rest of the batch waits with it, uncounted.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxClaims } from '../db/outbox-claims.js';
import type { ClaimedMessage, Outcome } from '../db/outbox-rows.js';
import type { QueuedKind } from '../db/outbox.table.js';
import { retryDelayMs } from '../messaging/back-off.js';
import type { Channel } from '../db/message-channels.js';
import type { FailureVerdict } from '../messaging/send-failure.js';
import { healthyChannel, type FailureOutcome } from '../messaging/failure-outcome.js';
import { sendClaimed, type Judged, type Lane, type Refusal, type SendOutcome } from '../messaging/send-claimed.js';

export type { SendOutcome } from '../messaging/send-claimed.js';
import type { Subscriber } from '../db/subscribers-repository.js';
import type { Subscriptions } from './subscriptions.js';
import { number } from '../../shared/plain-numbers.js';

/** "Not now" answers in a row that make the rest of a batch wait: the mail server's trouble, not the people's. */
export const LATER_IN_A_ROW = 2;

/**
 * What the person's "no" on a kind's channel makes of its message: `'skipped'` ends it; `laterMs`
 * looks again then (a "no" the person may undo while the message still matters: texts turned back
 * on); `'the kind asks'` leaves it to the kind, whose message is itself the one question the contact
 * rule allows after a "no" (the "come back?" email: contact-rule.ts, confirmationAsk).
 */
export type WhenNo = 'skipped' | { laterMs: number } | 'the kind asks';

/** One kind of message: who is due it, what the one gate asks of it, and how one goes. */
export interface QueuedKindHandler {
  kind: QueuedKind;
  /** How the owner's log names them: "joining texts". */
  what: string;
  /** The channel its messages go by: the person's "no" on it stops them at the gate. */
  channel: Channel;
  /** What the person's "no" on `channel` makes of a message (the gate: OutboxSender). */
  whenNo: WhenNo;
  /** Queues the people due this kind who have no live row (a kind whose due people are found, not told). */
  queueDue?: () => Promise<number>;
  /**
   * Why the message is no longer due to this person (it ends, skipped), or nothing: asked at the gate
   * before their "no", so a message that is pointless now ends whatever they said.
   */
  stillDue?: (person: Subscriber) => Promise<string | undefined>;
  /** What a "no" does beyond ending the message (a number change nobody can agree to is forgotten). */
  afterNo?: (person: Subscriber) => Promise<void>;
  /** Sends one message to the person the gate let through. */
  send(message: ClaimedMessage, person: Subscriber): Promise<SendOutcome>;
  /** The person's side refused it for good: what that does beyond failing it (an address marked undeliverable). */
  refusedForGood(message: ClaimedMessage, verdict: FailureVerdict, answer: string): Promise<void>;
}

/**
 * The usual refusal for good: the address (or number) cannot take our messages, so it is marked
 * undeliverable (no later message tries it either), and the log says which message met it.
 */
export function markUndeliverable(
  subscriptions: Pick<Subscriptions, 'subscriber' | 'markUndeliverable'>,
  logger: FastifyBaseLogger,
  channel: Channel,
  what: string,
): QueuedKindHandler['refusedForGood'] {
  return async (message, verdict, answer) => {
    const subscriber = await subscriptions.subscriber(message.signupId);
    if (!subscriber) return;
    await subscriptions.markUndeliverable(subscriber, channel);
    logger.warn(
      { signup: subscriber.id, err: answer },
      `${what} refused for good, ${channel === 'email' ? 'address' : 'number'} marked undeliverable: ${verdict.reason}`,
    );
  };
}

/** What a run says while a restore holds every message back. */
export const RESTORE_HOLDS_MESSAGES =
  'held: a restore could not read the database it replaced, so any "no" since its backup is unknown; nothing is sent until you settle it (sudo scamsavvy suppressions import FILE, or broadcast send … --after-restore)';

/** Why the gate ends a message at a "no", by channel. */
export const NO_WORDS: Record<Channel, string> = {
  email: 'the address takes no email from us',
  sms: 'the number takes no texts from us',
};

export interface OutboxSenderOptions {
  /** The one outbox: its one claim and one record (db/outbox-claims.ts). */
  queue: Pick<OutboxClaims, 'claim' | 'record'>;
  /** The one record of who is on the list and what they said: the gate reads it before each message. */
  people: Pick<Subscriptions, 'subscriber' | 'mayContact'>;
  logger: FastifyBaseLogger;
  /**
   * Whether every message is held: after a restore that could not read what it replaced, any "no"
   * since the backup is unknown, and nothing goes until the owner settles it (issue 54).
   */
  held?: () => Promise<boolean>;
  /** How many to claim at a time. */
  batchSize?: number;
  /** How many of a batch go at once (the mail transport's pool holds 3 connections). */
  concurrency?: number;
  /** How long a claim holds before another sender may take it (a sender that died mid-send). */
  leaseMs?: number;
  /** The first retry's delay; each later one doubles, up to `maxRetryMs`, with jitter. */
  retryBaseMs?: number;
  maxRetryMs?: number;
  random?: () => number;
  now?: () => Date;
}

export interface SenderRun {
  sent: number;
  later: number;
  failed: number;
  skipped: number;
}

/** How a recorded outcome counts in a run's summary. */
const counted = (outcome: Outcome): keyof SenderRun =>
  outcome.result === 'sent'
    ? 'sent'
    : outcome.result === 'skipped'
      ? 'skipped'
      : outcome.result === 'permanent'
        ? 'failed'
        : 'later';

export class OutboxSender {
  /** Whose claims these are: a row this sender holds is recorded by it alone. */
  readonly holder: string;
  private readonly options: Required<Omit<OutboxSenderOptions, 'held'>> & Pick<OutboxSenderOptions, 'held'>;
  /** The runner's stop: a batch under way ends after the messages being sent. */
  private signal: AbortSignal | undefined;
  /** Failures of ours in a row: their back-off is the sender's, not each person's. */
  private ourFailures = 0;
  /** While ours is failing, nothing is claimed before this time. */
  private waitUntil = 0;
  /** The kind of the failing streak the owner was told about, until a message goes out again. */
  private failing: FailureVerdict['kind'] | undefined;
  /** "Not now" answers in a row. */
  private laterInARow = 0;

  constructor(
    private readonly handler: QueuedKindHandler,
    options: OutboxSenderOptions,
  ) {
    this.holder = `${handler.kind} ${randomUUID()}`;
    this.options = {
      batchSize: 20,
      concurrency: 1,
      leaseMs: 5 * 60_000,
      retryBaseMs: 30_000,
      maxRetryMs: 60 * 60_000,
      random: Math.random,
      now: () => new Date(),
      ...options,
    };
    const { retryBaseMs, maxRetryMs, random, concurrency } = this.options;
    this.lane.wave = Math.max(1, concurrency);
    // The one rule's settings: nothing of these kinds gives up while the channel gets through (no
    // owner's retry would bring it back).
    this.lane.rules = { maxAttempts: Infinity, giveUpMs: Infinity, retryBaseMs, maxRetryMs, random };
  }

  /**
   * The kind's job (jobs/job-list.ts): queues who is due, then sends every due message, a batch at a
   * time, until none is left or ours fails. What it did, in a few words, or nothing when nothing was due.
   */
  async run(signal?: AbortSignal): Promise<string | undefined> {
    if (await this.options.held?.()) return RESTORE_HOLDS_MESSAGES;
    const { sent, later, failed, skipped } = await this.sendAll(signal);
    if (sent + later + failed + skipped === 0) return undefined;
    return `${number(sent)} sent, ${number(later)} later, ${number(failed)} failed, ${number(skipped)} skipped`;
  }

  /** Queues who is due, then sends every due message, a batch at a time; what became of them. */
  async sendDue(signal?: AbortSignal): Promise<SenderRun> {
    if (await this.options.held?.()) return { sent: 0, later: 0, failed: 0, skipped: 0 };
    return this.sendAll(signal);
  }

  private async sendAll(signal?: AbortSignal): Promise<SenderRun> {
    this.signal = signal;
    const total: SenderRun = { sent: 0, later: 0, failed: 0, skipped: 0 };
    if (this.options.now().getTime() < this.waitUntil) return total;
    await this.handler.queueDue?.();
    for (;;) {
      const { run, claimed, stopped } = await this.runOnce();
      for (const key of Object.keys(total) as (keyof SenderRun)[]) total[key] += run[key];
      // A full batch means there may be more waiting.
      if (claimed < this.options.batchSize || stopped || signal?.aborted) break;
    }
    return total;
  }

  /**
   * Claims one batch and sends it the one way every message is sent (send-claimed.ts), `concurrency`
   * at a time, each wave's outcomes recorded in one transaction; stops early when the trouble is not
   * the person's.
   */
  async runOnce(): Promise<{ run: SenderRun; claimed: number; stopped: boolean }> {
    const { queue, batchSize, leaseMs } = this.options;
    const messages = await queue.claim({ kind: this.handler.kind, leaseMs }, this.holder, batchSize);
    const run: SenderRun = { sent: 0, later: 0, failed: 0, skipped: 0 };
    const { outcomes, stopped } = await sendClaimed(this.lane, messages, this.signal);
    for (const outcome of outcomes) run[counted(outcome)] += 1;
    return { run, claimed: messages.length, stopped };
  }

  /** This kind as the one way of sending sees it (send-claimed.ts). */
  private readonly lane: Lane<Subscriber> = {
    wave: 1,
    health: healthyChannel(),
    rules: { maxAttempts: Infinity, giveUpMs: Infinity, retryBaseMs: 0, maxRetryMs: 0, random: Math.random },
    now: () => this.options.now().getTime(),
    gate: async (wave) => {
      const passed = await Promise.all(wave.map((message) => this.passGate(message)));
      return {
        going: passed.flatMap((each, index) =>
          'person' in each ? [{ message: wave[index]!, person: each.person }] : [],
        ),
        outcomes: passed.flatMap((each) => ('outcome' in each ? [each.outcome] : [])),
      };
    },
    send: async (message, person) => {
      const outcome = await this.handler.send(message, person);
      if (outcome.result !== 'refused') this.laterInARow = 0;
      return outcome;
    },
    went: () => {
      this.ourFailures = 0;
      if (this.failing) {
        this.failing = undefined;
        this.options.logger.info(`${this.handler.what} are going out again`);
      }
    },
    judged: async (message, _person, refusal, decided) => this.judged(message, refusal, decided),
    thrown: (message, error) => this.thrown(message, error),
    waiting: (message, until) => ({
      id: message.id,
      result: 'requeue',
      at: until,
      error: `waiting: ${this.handler.what} cannot be sent just now`,
      kind: null,
    }),
    record: (outcomes) => this.options.queue.record(this.holder, outcomes),
  };

  /** The gate for one message, with our own failure there judged as in a send. */
  private async passGate(message: ClaimedMessage): Promise<{ person: Subscriber } | { outcome: Outcome }> {
    try {
      const passed = await this.gate(message);
      if ('person' in passed) return passed;
      const { id } = message;
      if (passed.result === 'later') return { outcome: { id, result: 'wait', until: passed.at } };
      return { outcome: { id, result: 'skipped', error: passed.result === 'skipped' ? passed.why : '' } };
    } catch (error) {
      return { outcome: this.thrown(message, error).outcome };
    }
  }

  /** Our own code or database failed: the message waits its turn again, counted against nobody. */
  private thrown(message: ClaimedMessage, error: unknown): Judged {
    this.options.logger.error({ err: error, kind: this.handler.kind }, `${this.handler.what}: one could not be sent`);
    const at = this.after(message.attempts);
    const answer = String((error as Error).message);
    return { outcome: { id: message.id, result: 'temporary', retryAt: at, error: answer, kind: 'sender', ours: true } };
  }

  /**
   * What follows the one rule's judgement of a refusal, here: the person's side for good marks the
   * address once it is recorded; ours makes the rest wait for this sender's own back-off; a channel
   * in trouble waits rather than pausing for the owner.
   */
  private async judged(
    message: ClaimedMessage,
    { verdict, answer }: Refusal,
    decided: FailureOutcome,
  ): Promise<Judged> {
    const { logger, now } = this.options;
    const result = decided.outcome;
    if (result.result === 'permanent') {
      this.laterInARow = 0;
      return { outcome: result, after: () => this.handler.refusedForGood(message, verdict, answer) };
    }
    if (result.result === 'skipped') {
      // The person's own server's policy for this message (a trial account's unverified number, a
      // group that takes mail from members only): not tried again, never the person's "no".
      this.laterInARow = 0;
      logger.warn({ kind: this.handler.kind, err: answer }, `${this.handler.what}: one skipped: ${verdict.reason}`);
      return { outcome: result };
    }
    this.reportFailing(verdict, answer);
    if (result.result === 'requeue') {
      // Ours: the message and the rest of the batch wait for the sender's own back-off.
      this.ourFailures += 1;
      this.waitUntil = this.after(this.ourFailures).getTime();
      const at = new Date(this.waitUntil);
      return { outcome: { ...result, at }, batchWaits: at };
    }
    this.laterInARow += 1;
    // A channel in trouble waits here rather than pausing for the owner: an answer nobody recognises
    // (no answer, a timeout) may be the provider's, and so are two "not now"s in a row; the rest of the
    // batch waits with it, and this sender tries again by itself.
    const at = result.result === 'temporary' ? result.retryAt : null;
    const providers = decided.trouble || verdict.kind === 'unknown' || this.laterInARow >= LATER_IN_A_ROW;
    return providers && at && now() < at ? { outcome: result, batchWaits: at } : { outcome: result };
  }

  /**
   * The one gate, just before a message goes: the person is still on the list, the message is still
   * due to them, and their "no" on its channel (the one contact rule) stops it. The person, for the
   * kind to send to, or what became of the message.
   */
  private async gate(message: ClaimedMessage): Promise<{ person: Subscriber } | SendOutcome> {
    const { people, now } = this.options;
    const person = await people.subscriber(message.signupId);
    if (!person) return { result: 'skipped', why: 'not on the list' };
    const notDue = await this.handler.stillDue?.(person);
    if (notDue !== undefined) return { result: 'skipped', why: notDue };
    const { whenNo, channel } = this.handler;
    if (whenNo === 'the kind asks' || (await people.mayContact(person, channel))) return { person };
    if (whenNo !== 'skipped') return { result: 'later', at: new Date(now().getTime() + whenNo.laterMs) };
    await this.handler.afterNo?.(person);
    return { result: 'skipped', why: NO_WORDS[channel] };
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
      `${this.handler.what} cannot be sent just now, and will be retried: ${verdict.reason}`,
    );
  }
}
