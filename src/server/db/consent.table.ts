// Every change of someone's consent, and the suppression list of keyed hashes (decision 020).
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';

/** A change of someone's consent, as the history records it. */
export const CONSENT_KINDS = [
  'signed_up',
  'confirmed',
  'email_on',
  'email_off',
  'sms_on',
  'sms_off',
  'beta_on',
  'beta_off',
  'left',
  /** A provider said the address or number cannot be reached, for good (docs/messaging.md). */
  'email_undeliverable',
  'sms_undeliverable',
  /** The owner believes that answer was wrong and lets messages try the address again. */
  'email_undeliverable_cleared',
  'sms_undeliverable_cleared',
] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

/** How a change arrived. */
export const CONSENT_SOURCES = [
  'signup_form',
  'confirm_page',
  'preferences_page',
  'one_click_unsubscribe',
  'sms_reply',
  'owner',
  /** The mail server's or the text provider's answer to a send. */
  'provider_answer',
] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export type SuppressionReason = 'left' | 'deleted' | 'sms_stop' | 'undeliverable';

/** Which kind of address a keyed hash is of. */
export type AddressKind = 'email' | 'phone';

export interface ConsentEventsTable {
  id: Generated<Id>;
  signup_id: string;
  kind: ConsentKind;
  source: ConsentSource;
  consent_version: string | null;
  created_at: Time;
}

export interface SuppressionsTable {
  id: Generated<Id>;
  kind: AddressKind;
  address_hash: string;
  reason: SuppressionReason;
  source: ConsentSource;
  created_at: Time;
}
