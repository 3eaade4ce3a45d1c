// What a failed send means for the message, the channel and the person, by whose fault it was
// (send-failure.ts; decisions 027 and 057), for every kind of message, a broadcast's or not: the
// person's address fails and is marked undeliverable; ours puts the message back untried and the
// channel is in trouble; "for now" and unknown answers are tried again, and only ever put the
// channel in trouble, never fail the person. What a channel in trouble does is its sender's: a
// broadcast's pauses it for the owner (broadcast-sender.ts); the sender of every other kind waits
// and tries again by itself (consent/outbox-sender.ts).
import type { ClaimedMessage, Outcome } from '../db/outbox-rows.js';
import { retryDelayMs } from './back-off.js';
import { verdictStep, type FailureVerdict } from './send-failure.js';

/** An answer we do not recognise: tried this many times on one message, then the channel is in trouble. */
export const UNKNOWN_ANSWER_ATTEMPTS = 3;
/** Different messages refused for our sending (a block list, our reputation) with none getting through between: then the channel is in trouble. */
export const REFUSALS_IN_A_ROW = 5;
/** …or this many unrecognised answers in a row on a channel, whoever they were for. */
export const UNKNOWN_ANSWERS_IN_A_ROW = 10;

/** Why a channel is in trouble: ours (`sender`: the verdict says why), or answers nobody recognises. */
export type ChannelTrouble = 'sender' | 'unknown';

/** How a channel is doing, as one sender has seen it: what the give-up and unknown-answer rules read. */
export interface ChannelHealth {
  /** When a message last got through (ms), or null. */
  lastSuccessAt: number | null;
  /** When the failures "for now" began with nothing getting through since (ms), or null. */
  failingSince: number | null;
  lastAnswer: string;
  unknownInARow: number;
  /** The messages refused for our sending (block lists, reputation, volume) since one last got through. */
  refused: Set<number>;
}

export const healthyChannel = (): ChannelHealth => ({
  lastSuccessAt: null,
  failingSince: null,
  lastAnswer: '',
  unknownInARow: 0,
  refused: new Set(),
});

export interface FailureRules {
  /** A message refused "for now" this many times gives up while others get through (Infinity: never). */
  maxAttempts: number;
  giveUpMs: number;
  retryBaseMs: number;
  maxRetryMs: number;
  random: () => number;
}

/** The message's outcome, and what else follows: the channel is in trouble, or the address is undeliverable. */
export interface FailureOutcome {
  outcome: Outcome;
  trouble?: ChannelTrouble;
  undeliverable?: { stop: boolean };
}

/** A message got through: the channel's failures so far are over. */
export function wentThrough(health: ChannelHealth, now: number): void {
  health.lastSuccessAt = now;
  health.failingSince = null;
  health.unknownInARow = 0;
  health.refused.clear();
}

/** Decides; `health` (the channel's, as this sender has seen it) is updated with this answer. */
export function failureOutcome(
  verdict: FailureVerdict,
  answer: string,
  message: ClaimedMessage,
  health: ChannelHealth,
  rules: FailureRules,
  now: number,
): FailureOutcome {
  const { id, attempts } = message;
  // What it does to the message is the one judge's (verdictStep); what it does to the channel is ours.
  const step = verdictStep(verdict);
  if (step === 'fails')
    return {
      outcome: { id, result: 'permanent', kind: 'recipient', error: answer },
      undeliverable: { stop: verdict.stop === true },
    };
  // The person's own server's policy: this send skips them, with the reason; nothing else changes.
  if (step === 'skipped') return { outcome: { id, result: 'skipped', error: answer } };
  if (step === 'ours') {
    if (message.pausedTheChannel) return held(message, verdict, answer);
    return { outcome: { id, result: 'requeue', kind: 'sender', error: answer }, trouble: 'sender' };
  }
  health.failingSince ??= now;
  health.lastAnswer = answer;
  // Marked on its row (refused_for_our_sending), so that status counts these by receiving domain.
  const refused = verdict.refused === true;
  let trouble: ChannelTrouble | undefined;
  // Refused for our sending: tried again like any "for now", and the channel pauses when they mount
  // up: so many different messages refused with none getting through between (one person's retries
  // count once).
  if (verdict.refused) {
    health.refused.add(id);
    if (health.refused.size >= REFUSALS_IN_A_ROW) trouble = 'sender';
  }
  if (verdict.kind === 'unknown') {
    health.unknownInARow += 1;
    if (attempts >= UNKNOWN_ANSWER_ATTEMPTS || health.unknownInARow >= UNKNOWN_ANSWERS_IN_A_ROW) trouble = 'unknown';
  }
  // One person's server down for long while the channel gets through: that message gives up (the
  // owner's `retry` can queue it again). While nothing gets through, nobody is given up.
  const gettingThrough = health.lastSuccessAt !== null && now - health.lastSuccessAt < rules.giveUpMs;
  const outcome: Outcome =
    verdict.kind === 'message' && attempts >= rules.maxAttempts && gettingThrough
      ? {
          id,
          result: 'temporary',
          kind: 'message',
          error: answer,
          retryAt: null,
          refused,
        }
      : {
          id,
          result: 'temporary',
          // A recipient's verdict ended above ('fails'): what is left is "for now" or unknown.
          kind: verdict.kind === 'unknown' ? 'unknown' : 'message',
          error: answer,
          retryAt: new Date(now + retryDelayMs(attempts, rules.retryBaseMs, rules.maxRetryMs, rules.random)),
          refused,
        };
  // The message that paused the channel, tried first after the resume, would pause it again: it
  // waits aside (held) and the channel goes on, so one person can never stall a send.
  if (trouble && message.pausedTheChannel) return held(message, verdict, answer, refused);
  return { outcome, ...(trouble ? { trouble } : {}) };
}

/** Set aside with its answer until the owner's `retry --held`; nobody's address is marked. */
function held(message: ClaimedMessage, verdict: FailureVerdict, answer: string, refused = false): FailureOutcome {
  return {
    outcome: {
      id: message.id,
      result: 'temporary',
      kind: verdict.kind === 'recipient' ? 'message' : verdict.kind,
      error: answer,
      retryAt: null,
      mark: 'held',
      refused,
    },
  };
}
