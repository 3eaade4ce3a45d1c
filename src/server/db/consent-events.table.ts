// Every change of someone's consent, as the history records it.
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
  /** The number replied YES (or START) to a text from us: texts to it are proven wanted (decision 041). */
  'sms_confirmed',
  'beta_on',
  'beta_off',
  'left',
  /** A provider said the address or number cannot be reached, for good (docs/messaging.md). */
  'email_undeliverable',
  'sms_undeliverable',
  /** The owner believes that answer was wrong and lets messages try the address again. */
  'email_undeliverable_cleared',
  'sms_undeliverable_cleared',
  /** A report after the send: the address bounced for good, or the person reported our email as spam. */
  'email_bounced',
  'email_complained',
  /**
   * The person acted on a page their emailed link opened (docs/messaging.md, "An emailed link proves
   * the mailbox"): the leaving or deletion they themselves had asked for no longer holds.
   */
  'own_suppression_lifted',
  /**
   * Someone who had left or turned email off pressed the "come back?" button an emailed link opened
   * (decision 041): email is on again; texts stay as they were.
   */
  'came_back',
  /** The person or the owner changed the name or phone number on the record (decision 031). */
  'name_changed',
  'phone_changed',
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
  /** A report that came back later: a provider's webhook, a delivery receipt, the bounce mailbox. */
  'provider_report',
  /** The button in the email a repeat sign-up with another phone number sent (decision 031). */
  'phone_change_email',
  /**
   * A button emailed at that moment to the address on record (issue 54): turning something on, coming
   * back after leaving, deleting (consent/emailed-buttons.ts).
   */
  'emailed_button',
  /** A provider's suppression list the owner imported (`sudo scamsavvy suppressions import`, decision 041). */
  'suppression_import',
  /** A sign-up from another channel through the API (a partner's page, a tablet at an event: issue 56), with its evidence. */
  'api',
] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export interface ConsentEventsTable {
  id: Generated<Id>;
  signup_id: string;
  kind: ConsentKind;
  source: ConsentSource;
  consent_version: string | null;
  created_at: Time;
  /** What the channel gave as proof of the consent (a sign-up through the API), as JSON; null otherwise (migration 26). */
  evidence: Generated<string | null>;
}
