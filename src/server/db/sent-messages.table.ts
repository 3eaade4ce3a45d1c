// Every message sent, by its signed token (docs/messaging.md, "Hearing back").
import type { Id, Time } from './column-types.js';
import type { Channel } from './message-channels.js';

/** Why a message was sent. */
/** What a message was: a confirmation email, a broadcast's, a test message, or the answer to a text (STOP, START, HELP). */
export type MessagePurpose = 'confirmation' | 'broadcast' | 'test' | 'reply';

/**
 * Where a message stands, by what came back last: sending (recorded before it left), sent
 * (accepted), failed (refused during the send), then delivered, bounced, soft_bounced,
 * complained, undeliverable, stopped, filtered.
 */
export type SentMessageState =
  | 'sending'
  | 'sent'
  | 'failed'
  | 'delivered'
  | 'bounced'
  | 'soft_bounced'
  | 'complained'
  | 'undeliverable'
  | 'stopped'
  | 'filtered';

export interface SentMessagesTable {
  token: string;
  channel: Channel;
  purpose: MessagePurpose;
  /** Null for a test message to the owner. */
  signup_id: string | null;
  broadcast_id: Id | null;
  outbox_id: Id | null;
  /** The keyed hash of the address it went to: a report still suppresses it after the person is deleted. */
  address_hash: string | null;
  /** The SMTP Message-ID, without angle brackets. */
  message_id: string | null;
  /** The provider's own id (a queue id in the SMTP answer, Twilio's MessageSid). */
  provider_id: string | null;
  state: SentMessageState;
  created_at: Time;
  state_at: Time;
}
