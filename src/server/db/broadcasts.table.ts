// Launch-day broadcasts: what each says and who it takes (decision 023).
import type { Generated } from 'kysely';
import type { Flag, Time } from './column-types.js';

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
