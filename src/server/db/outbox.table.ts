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

export interface BroadcastsTable {
  id: Generated<number>;
  name: string;
  template: string;
  segment: string;
  /** Comma-separated BroadcastChannels. */
  channels: string;
  include_unconfirmed: Flag;
  /** BroadcastContent as JSON: rendered once, at create. */
  content: string;
  state: string;
  created_at: Time;
  started_at: Time | null;
  finished_at: Time | null;
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
