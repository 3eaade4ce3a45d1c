// The outbox: one row per broadcast, person and channel, and where its message stands (decision 023).
import type { Generated } from 'kysely';
import type { Flag, Id, Time } from './column-types.js';
import type { Channel } from './message-channels.js';

export const MESSAGE_STATES = [
  'queued',
  'sending',
  'sent',
  'failed_temporary',
  'failed_permanent',
  'skipped',
  'unknown',
] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

/** Whose fault a failed send was: the kinds messaging/send-failure.ts explains. */
export const FAILURE_KINDS = ['recipient', 'message', 'sender', 'unknown'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/**
 * Where a failed row stands in a channel's pause: paused_the_channel, its failure paused the channel
 * (tried first after the resume); held, tried first after the resume it would have paused it again,
 * so it waits aside for `retry --held` while everyone else goes on.
 */
export const PAUSE_MARKS = ['paused_the_channel', 'held'] as const;
export type PauseMark = (typeof PAUSE_MARKS)[number];

export interface BroadcastMessagesTable {
  id: Generated<Id>;
  broadcast_id: Id;
  signup_id: string;
  channel: Channel;
  state: MessageState;
  attempts: Generated<number>;
  next_attempt_at: Time | null;
  claimed_by: string | null;
  claimed_at: Time | null;
  sent_at: Time | null;
  provider_id: string | null;
  error: string | null;
  /** Whose fault the last failure was (messaging/send-failure.ts); null before release 7 or when none. */
  failure_kind: FailureKind | null;
  /** Null unless its last failure paused the channel, or it is held (migration 19). */
  pause_mark: PauseMark | null;
  /** Its last failure was a receiving server refusing our sending (block list, reputation, volume). */
  refused_for_our_sending: Generated<Flag>;
  /** A queued text held back until next_attempt_at: daytime where the person is, or a state's 24-hour cap (migration 20). */
  waiting_for: TextWaitReason | null;
}

export const TEXT_WAIT_REASONS = ['daytime', 'cap'] as const;
export type TextWaitReason = (typeof TEXT_WAIT_REASONS)[number];
