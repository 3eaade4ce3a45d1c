// How a person's consent history is said to the owner, each change and where it came from: the
// person's page on the dashboard and the proof of consent (consent-proof.ts) say the same.
import type { ConsentKind, ConsentSource } from '../db/consent-events.table.js';

export const CONSENT_KIND_WORDS: Record<ConsentKind, string> = {
  signed_up: 'Signed up',
  confirmed: 'Confirmed their email',
  email_on: 'Email messages on',
  email_off: 'Email messages off',
  sms_on: 'Text messages on',
  sms_off: 'Text messages off',
  sms_confirmed: 'Replied YES to our joining text (or START): texts to this number are confirmed',
  beta_on: 'Beta testing on',
  beta_off: 'Beta testing off',
  left: 'Left the list',
  email_undeliverable: 'The mail server said this address does not exist: no more email to it',
  sms_undeliverable: 'The text provider said this number cannot get texts: no more texts to it',
  email_undeliverable_cleared: 'Email allowed to this address again',
  sms_undeliverable_cleared: 'Texts allowed to this number again',
  email_bounced: 'Email to this address bounced: no more email to it',
  email_complained: 'Reported our email as spam: no more email',
  own_suppression_lifted: 'Pressed a button in our email: their own leaving or deletion no longer holds on this email',
  came_back: 'Came back to the list with the button in our email (email on; texts as they were)',
  name_changed: 'Name changed',
  phone_changed: 'Phone number changed',
};

export const CONSENT_SOURCE_WORDS: Record<ConsentSource, string> = {
  phone_change_email: 'The button in the email asking them about a new phone number',
  emailed_button: 'A button we emailed them when they asked (to turn something on, come back, or delete)',
  suppression_import: 'A provider’s suppression list the owner imported',
  signup_form: 'The sign-up form',
  api: 'Another channel, through the API (a partner’s page, a tablet at an event), with the evidence it gave',
  confirm_page: 'The confirmation page',
  preferences_page: 'Their preferences page',
  one_click_unsubscribe: 'One-click unsubscribe',
  sms_reply: 'A text reply (STOP, START)',
  owner: 'An owner',
  provider_answer: 'The mail server’s or text provider’s answer to a message we sent',
  provider_report: 'A report that came back after a message was sent (a bounce, a complaint, a delivery receipt)',
};
