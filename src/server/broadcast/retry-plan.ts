// What `retry` would queue again, per channel and reason, and what it would leave: a row failed for
// good by the person's own answer is undeliverable (queued only when the owner says so); every other
// failure is ours or the provider's. Rows from before release 7 are judged by today's rules.
// Held is the row's pause mark; the answer is the row's error as it came.
import type { Channel } from '../db/message-channels.js';
import type { FailedMessage } from '../db/outbox-rows.js';
import { classifyStoredAnswer } from '../messaging/stored-answers.js';
import { reasonWithoutRetry } from '../messaging/send-failure.js';

/** What `retry` queues again, per channel and reason. */
export interface RetryGroup {
  channel: Channel;
  /** Why they failed, in plain words. */
  reason: string;
  count: number;
  /** The provider said the address or number cannot be reached: queued only when the owner says so. */
  undeliverable: boolean;
  /** Held: paused the channel twice; queued only by `retry --held`, once the cause is fixed. */
  held: boolean;
}

export interface RetryPlan {
  groups: RetryGroup[];
  /** Failed "for now" and given up, or failed by a fault of ours (an earlier release called some of those permanent). */
  retryable: number;
  /** Failed because the provider said the address cannot be reached. */
  undeliverable: number;
  /** Set aside after pausing the channel twice: queued only by `retry --held`. */
  held: number;
  /** Queued because the owner lifted their address's suppression (it was our fault): set by `retry` only. */
  lifted?: number;
}

/** Whose fault a failed message was: as recorded, or (rows from before release 7) read from its answer. */
function kindOf(message: FailedMessage): { kind: FailedMessage['failureKind']; reason: string } {
  const verdict = classifyStoredAnswer(message.channel, message.error ?? '');
  // One that gave up is no longer being tried: its reason must not say "we will keep trying".
  const reason = isHeld(message)
    ? `Held after pausing the channel twice: ${verdict.reason}`
    : message.state === 'failed_temporary'
      ? `Gave up after repeated tries: ${reasonWithoutRetry(verdict)}`
      : verdict.reason;
  return { kind: message.failureKind ?? verdict.kind, reason };
}

/** Set aside after pausing its channel twice: queued only by `retry --held`. */
export const isHeld = (message: Pick<FailedMessage, 'state' | 'held'>) =>
  message.state === 'failed_temporary' && message.held;

/** Sorts failed messages into those `retry` queues, and those only `includeUndeliverable` does. */
export function planOf(failed: FailedMessage[]): {
  plan: RetryPlan;
  retryable: FailedMessage[];
  undeliverable: FailedMessage[];
  held: FailedMessage[];
} {
  const retryable: FailedMessage[] = [];
  const undeliverable: FailedMessage[] = [];
  const held: FailedMessage[] = [];
  const groups = new Map<string, RetryGroup>();
  for (const message of failed) {
    const { kind, reason } = kindOf(message);
    // A row failed for good by the person's own answer is undeliverable; every other failure is ours
    // or the provider's, whatever state an earlier release gave it.
    const isUndeliverable = message.state === 'failed_permanent' && kind === 'recipient';
    const wasHeld = isHeld(message);
    (isUndeliverable ? undeliverable : wasHeld ? held : retryable).push(message);
    const key = `${message.channel}\u0000${isUndeliverable}\u0000${wasHeld}\u0000${reason}`;
    const group = groups.get(key) ?? {
      channel: message.channel,
      reason,
      count: 0,
      undeliverable: isUndeliverable,
      held: wasHeld,
    };
    group.count += 1;
    groups.set(key, group);
  }
  return {
    plan: {
      groups: [...groups.values()].sort((a, b) => a.channel.localeCompare(b.channel) || b.count - a.count),
      retryable: retryable.length,
      undeliverable: undeliverable.length,
      held: held.length,
    },
    retryable,
    undeliverable,
    held,
  };
}
