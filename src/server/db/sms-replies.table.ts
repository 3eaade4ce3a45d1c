// Texts people sent us that no rule acted on (not STOP, START, YES or HELP, nor a "stop" in their own
// words): kept so the owner reads them on the dashboard's Replies list, never dropped unseen (issue 54).
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';

export interface SmsRepliesTable {
  id: Generated<Id>;
  received_at: Time;
  /** The keyed hash of the E.164 number it came from: a deletion of that number erases its replies. */
  phone_hash: string;
  /** The number's last four digits: what the owner sees ("a phone ending 4567"), as the audit log shows it. */
  phone_end: string;
  /** The words, at most 1,600 characters (Twilio's own limit). */
  body: string;
}
