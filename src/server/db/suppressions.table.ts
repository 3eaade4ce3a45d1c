// The suppression list: keyed hashes of addresses we must not send to, and why (decision 020).
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';
import type { ConsentSource } from './consent-events.table.js';

export type SuppressionReason =
  | 'left'
  | 'deleted'
  | 'sms_stop'
  | 'undeliverable'
  | 'bounced'
  | 'complained'
  /** The person turned this channel off (email off on the email, texts off on the number): it outlives their row. */
  | 'email_off'
  | 'sms_off'
  /** Not a "no": the one "come back?" email went to this address then, so no sign-up asks again (decision 041). */
  | 'asked_back'
  /**
   * Not a "no": the person's own undoing of one (or the owner's, of a provider's "cannot be reached").
   * The row it lifts is named by `lifts_reason` and `lifts_at`; nothing is deleted (issue 54).
   */
  | 'lifted';

/** A person's "no" to one channel, kept by the address's hash so no sweep, edit or stranger undoes it (issue 54). */
export const CHANNEL_OFF_REASONS: readonly SuppressionReason[] = ['email_off', 'sms_off'];

/**
 * Reasons the person themselves gave (leaving, deleting): on an email, the page an emailed link opens
 * lifts them; on a number, only START from it (as for a STOP).
 */
export const OWN_REASONS: readonly SuppressionReason[] = ['left', 'deleted'];

/** Reasons that are about the address alone, not the person's wish: they stop that channel only. */
export const ADDRESS_ONLY_REASONS: readonly SuppressionReason[] = ['undeliverable', 'bounced', 'complained'];

/** Which kind of address a keyed hash is of. */
export type AddressKind = 'email' | 'phone';

export interface SuppressionsTable {
  id: Generated<Id>;
  kind: AddressKind;
  address_hash: string;
  reason: SuppressionReason;
  source: ConsentSource;
  created_at: Time;
  /** On a 'lifted' row: the reason and time of the row it lifts (same kind and hash). */
  lifts_reason: SuppressionReason | null;
  lifts_at: Time | null;
  /**
   * On a deletion's row: what the person had agreed to and when they said no, as JSON (their consent
   * history without any detail of them), so the proof of their consent outlives their record (migration 28).
   */
  history: Generated<string | null>;
}
