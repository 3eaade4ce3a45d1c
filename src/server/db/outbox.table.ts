// The outbox: one row per message, and where it stands (decisions 023 and 052). A broadcast's rows
// name their broadcast (one per broadcast, person and channel); every other kind's do not, and a
// person has at most one live row of each such kind (the index outbox_one_live).
import type { Generated } from 'kysely';
import type { Flag, Id, Time } from './column-types.js';
import type { OutboxChannel } from './message-channels.js';

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

/**
 * What a message is: a broadcast's (launch, beta, test), or one the product sends by itself; `button`
 * is the emailed button (consent/emailed-buttons.ts), sent while the person waits, never retried;
 * `owner_sign_in` is an owner's sign-in link (owner/sign-in-mailer.ts), its row naming the owner.
 */
export const MESSAGE_KINDS = [
  'broadcast',
  'confirmation',
  'reminder',
  'phone_change',
  'joining_text',
  'button',
  'owner_sign_in',
  /** A webhook delivery (issue 56): its row names the endpoint and the event, no person. */
  'webhook',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
/** The kinds a sign-up is sent that are not a broadcast's: each its own job, claimed with a lease (db/message-queue-repository.ts). */
export type QueuedKind = Exclude<MessageKind, 'broadcast' | 'owner_sign_in' | 'webhook'>;

export interface OutboxTable {
  id: Generated<Id>;
  kind: Generated<MessageKind>;
  /** The broadcast it belongs to; null for every other kind. */
  broadcast_id: Id | null;
  /** The person it is for; null on an owner's sign-in email (migration 25). */
  signup_id: string | null;
  /** The owner an `owner_sign_in` row is for; null on every other kind. */
  owner_id: Generated<Id | null>;
  /** 'webhook' on a webhook delivery's row, and only there. */
  channel: OutboxChannel;
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
  /** A webhook delivery's endpoint and event (migration 27); null on every other kind. */
  webhook_endpoint_id: Generated<Id | null>;
  webhook_event_id: Generated<Id | null>;
}

export const TEXT_WAIT_REASONS = ['daytime', 'cap'] as const;
export type TextWaitReason = (typeof TEXT_WAIT_REASONS)[number];
