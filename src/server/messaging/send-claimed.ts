// The one way a claimed message is sent, of every kind (issue 54, decision 057): a broadcast's, or
// one the product sends by itself. Each wave of a claimed batch passes the lane's gate just before it
// goes; each message that passed is sent; a refusal is judged by the one judge (send-failure.ts) and
// the one rule (failure-outcome.ts); and what became of the wave is recorded at once, in one write.
// What differs between lanes is theirs to say: the gate, how one message is sent, and what follows a
// refusal (a broadcast's channel pauses for the owner; the outbox sender's batch waits by itself).
import type { ClaimedMessage, Outcome } from '../db/outbox-rows.js';
import type { TextWaitReason } from '../db/outbox.table.js';
import {
  failureOutcome,
  wentThrough,
  type ChannelHealth,
  type FailureOutcome,
  type FailureRules,
} from './failure-outcome.js';
import type { LoggedSend } from './recorded-email.js';
import type { FailureVerdict } from './send-failure.js';

/** What became of one message a lane sent, before the one rule judges a refusal. */
export type SendOutcome =
  /** `logged`: the message log's record of it, marked sent with its outbox row (one write). */
  | { result: 'sent'; logged?: LoggedSend | undefined }
  /**
   * Not now, and nothing was tried (outside the person's hours, or not to be texted for now): looked
   * at again `at`; `token`: its record in the message log, begun just before, goes.
   */
  | { result: 'later'; at: Date; why?: TextWaitReason | undefined; token?: string | undefined }
  /** Not tried, and back in the queue at once (its channel paused while it waited its turn). */
  | { result: 'untried'; why: string; token?: string | undefined }
  /** No longer due (the person left, was deleted, or has it already): never tried. */
  | { result: 'skipped'; why: string }
  /** The provider refused it: the judge's verdict, and its answer with no address in it. */
  | { result: 'refused'; verdict: FailureVerdict; answer: string };

/** What follows a message's outcome: the rest of its batch waits until `batchWaits`; `after` runs once it is recorded. */
export interface Judged {
  outcome: Outcome;
  batchWaits?: Date | undefined;
  after?: (() => Promise<void>) | undefined;
}

/** A kind of message as the one way of sending sees it. */
export interface Lane<Person> {
  /** How many of a batch go at once: each wave passes the gate just before it goes. */
  wave: number;
  /** The channel's health as this sender has seen it, and the one rule's settings. */
  health: ChannelHealth;
  rules: FailureRules;
  now(): number;
  /** The one gate, just before they go: who goes now, and what became of the others. */
  gate(wave: ClaimedMessage[]): Promise<{ going: { message: ClaimedMessage; person: Person }[]; outcomes: Outcome[] }>;
  send(message: ClaimedMessage, person: Person): Promise<SendOutcome>;
  /** A message went: the lane's own bookkeeping (the channel's health is updated here). */
  went?(message: ClaimedMessage): void;
  /** What a judged refusal does beyond its outcome: marks, a pause, a wait. */
  judged(message: ClaimedMessage, person: Person, refusal: Refusal, decided: FailureOutcome): Promise<Judged>;
  /** Our own code failed while sending one: what becomes of it (without this, the batch fails). */
  thrown?(message: ClaimedMessage, error: unknown): Judged;
  /** The message's outcome when the rest of the batch waits. */
  waiting(message: ClaimedMessage, until: Date): Outcome;
  record(outcomes: Outcome[]): Promise<void>;
}

export interface Refusal {
  verdict: FailureVerdict;
  answer: string;
}

/** Sends a claimed batch a wave at a time; every outcome, recorded. `stopped`: the rest waited. */
export async function sendClaimed<Person>(
  lane: Lane<Person>,
  claimed: ClaimedMessage[],
  signal?: AbortSignal,
): Promise<{ outcomes: Outcome[]; stopped: boolean }> {
  const all: Outcome[] = [];
  for (let start = 0; start < claimed.length; start += lane.wave) {
    if (signal?.aborted) break; // what is left is handed on by its claim (a lease, or the sender's stop)
    const { going, outcomes } = await lane.gate(claimed.slice(start, start + lane.wave));
    const judged = await Promise.all(going.map(({ message, person }) => sendOne(lane, message, person)));
    outcomes.push(...judged.map((each) => each.outcome));
    const waitAt = judged.find((each) => each.batchWaits)?.batchWaits;
    // Ours, or the provider's trouble: the rest waits, untried and uncounted.
    if (waitAt) for (const message of claimed.slice(start + lane.wave)) outcomes.push(lane.waiting(message, waitAt));
    await lane.record(outcomes);
    all.push(...outcomes);
    // What a refusal for good does beyond its row (an address marked undeliverable), once it is recorded.
    for (const each of judged) await each.after?.();
    if (waitAt) return { outcomes: all, stopped: true };
  }
  return { outcomes: all, stopped: false };
}

async function sendOne<Person>(lane: Lane<Person>, message: ClaimedMessage, person: Person): Promise<Judged> {
  const { id } = message;
  let sent: SendOutcome;
  try {
    sent = await lane.send(message, person);
  } catch (error) {
    if (!lane.thrown) throw error;
    return lane.thrown(message, error);
  }
  switch (sent.result) {
    case 'sent':
      wentThrough(lane.health, lane.now());
      lane.went?.(message);
      return { outcome: { id, result: 'sent', ...sent.logged } };
    case 'later':
      return { outcome: { id, result: 'wait', until: sent.at, why: sent.why, token: sent.token } };
    case 'untried':
      return { outcome: { id, result: 'requeue', kind: null, error: sent.why, token: sent.token } };
    case 'skipped':
      return { outcome: { id, result: 'skipped', error: sent.why } };
    case 'refused': {
      const decided = failureOutcome(sent.verdict, sent.answer, message, lane.health, lane.rules, lane.now());
      return lane.judged(message, person, sent, decided);
    }
  }
}
