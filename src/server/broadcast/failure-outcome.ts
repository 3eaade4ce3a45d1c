// What a failed send means for the message, the channel and the person, by whose fault it was
// (messaging/send-failure.ts; decision 027): the person's address fails and is marked undeliverable;
// ours pauses the channel and puts the message back untried; "for now" and unknown answers are tried
// again, and only ever pause the channel, never fail the person.
import type { PauseCause } from '../db/broadcast-pauses.table.js';
import type { Channel } from '../db/message-channels.js';
import type { ClaimedMessage, Outcome } from '../db/outbox-rows.js';
import { retryDelayMs } from '../messaging/back-off.js';
import { verdictStep, type FailureVerdict } from '../messaging/send-failure.js';
import { REFUSALS_IN_A_ROW, UNKNOWN_ANSWER_ATTEMPTS, UNKNOWN_ANSWERS_IN_A_ROW } from './broadcast-sender-options.js';
import { unknownAnswerReason } from './pause-rules.js';

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
  maxAttempts: number;
  giveUpMs: number;
  retryBaseMs: number;
  maxRetryMs: number;
  random: () => number;
}

/** The message's outcome, and what else to do: pause the channel, or mark the address undeliverable. */
export interface FailureOutcome {
  outcome: Outcome;
  pause?: { cause: PauseCause; reason: string };
  undeliverable?: { stop: boolean };
}

/** Decides; `health` (the channel's, as this sender has seen it) is updated with this answer. */
export function failureOutcome(
  verdict: FailureVerdict,
  answer: string,
  message: ClaimedMessage,
  channel: Channel,
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
    return {
      outcome: { id, result: 'requeue', kind: 'sender', error: answer },
      pause: { cause: 'sender', reason: verdict.reason },
    };
  }
  health.failingSince ??= now;
  health.lastAnswer = answer;
  // Marked on its row (refused_for_our_sending), so that status counts these by receiving domain.
  const refused = verdict.refused === true;
  let pause: FailureOutcome['pause'];
  // Refused for our sending: tried again like any "for now", and the channel pauses when they mount
  // up: so many different messages refused with none getting through between (one person's retries
  // count once).
  if (verdict.refused) {
    health.refused.add(id);
    if (health.refused.size >= REFUSALS_IN_A_ROW) pause = { cause: 'sender', reason: verdict.reason };
  }
  if (verdict.kind === 'unknown') {
    health.unknownInARow += 1;
    if (attempts >= UNKNOWN_ANSWER_ATTEMPTS || health.unknownInARow >= UNKNOWN_ANSWERS_IN_A_ROW)
      pause = { cause: 'unknown', reason: unknownAnswerReason(channel) };
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
  if (pause && message.pausedTheChannel) return held(message, verdict, answer, refused);
  return { outcome, ...(pause ? { pause } : {}) };
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
