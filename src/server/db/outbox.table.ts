// Launch-day broadcasts, their outbox (one row per broadcast, person and channel) and their senders (decision 023).
import type { Generated } from 'kysely';
import type { Flag, Id, Time } from './column-types.js';

export const BROADCAST_CHANNELS = ['email', 'sms'] as const;
export type BroadcastChannel = (typeof BROADCAST_CHANNELS)[number];

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

/** Whose fault a failed send was: the kinds consent/send-failure.ts explains. */
export const FAILURE_KINDS = ['recipient', 'message', 'sender', 'unknown'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/**
 * Who a broadcast takes among people who have not confirmed their email: 'asked' (the default)
 * leaves out only those asked to confirm who did not, and takes those who signed up before
 * confirmation was switched on; 'confirmed_only' leaves out every unconfirmed person; 'everyone'
 * takes them all (and is what a broadcast gets while confirmation is off).
 */
export const AUDIENCE_CONFIRMATIONS = ['asked', 'confirmed_only', 'everyone'] as const;
export type AudienceConfirmation = (typeof AUDIENCE_CONFIRMATIONS)[number];

export interface BroadcastsTable {
  id: Generated<number>;
  name: string;
  template: string;
  segment: string;
  /** Comma-separated BroadcastChannels. */
  channels: string;
  /** Kept for older releases reading the table: true exactly when `confirmation` is 'everyone'. */
  include_unconfirmed: Flag;
  /** Who it takes among the unconfirmed: AudienceConfirmation (migration 9). */
  confirmation: Generated<string>;
  /** BroadcastContent as JSON: rendered once, at create. */
  content: string;
  state: string;
  created_at: Time;
  started_at: Time | null;
  finished_at: Time | null;
  /** The owner resumed past a health pause (resume --despite-health): its rates no longer pause it. */
  health_accepted_at: Time | null;
}

export interface BroadcastMessagesTable {
  id: Generated<Id>;
  broadcast_id: Id;
  signup_id: string;
  channel: BroadcastChannel;
  state: MessageState;
  attempts: Generated<number>;
  next_attempt_at: Time | null;
  claimed_by: string | null;
  claimed_at: Time | null;
  sent_at: Time | null;
  provider_id: string | null;
  error: string | null;
  /** Whose fault the last failure was (consent/send-failure.ts); null before release 7 or when none. */
  failure_kind: FailureKind | null;
}

/**
 * Why a channel of a broadcast stopped sending until the owner resumes it: sender (our credentials,
 * our From, our account), outage (nothing got through for BROADCAST_GIVE_UP_AFTER_SECONDS), unknown
 * (an answer we do not recognise, repeated), health (bounces or complaints past their limit).
 */
export const PAUSE_CAUSES = ['sender', 'outage', 'unknown', 'health'] as const;
export type PauseCause = (typeof PAUSE_CAUSES)[number];

/** A channel paused by a failure of ours, one row per broadcast and channel while it lasts. */
export interface BroadcastPausesTable {
  broadcast_id: Id;
  channel: BroadcastChannel;
  cause: PauseCause;
  /** In plain words, with what to do: shown by status, list, the progress line and the dashboard. */
  reason: string;
  /** The provider's own answer, quoted (addresses removed). */
  answer: string | null;
  paused_at: Time;
}

export interface BroadcastSendersTable {
  id: string;
  broadcast_id: Id;
  /** 1 for the one sender SQLite allows (unique); null on PostgreSQL, where many may run. */
  slot: number | null;
  host: string;
  pid: number;
  started_at: Time;
  heartbeat_at: Time;
  stopped_at: Time | null;
}
