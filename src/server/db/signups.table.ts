// The signups table: one record per email (decision 009), with attribution, consent and confirmation.
import type { Generated } from 'kysely';
import type { Language } from '../../shared/languages.js';
import type { Flag, Time } from './column-types.js';

export interface SignupsTable {
  id: string;
  name: string;
  phone: string;
  email: string;
  /** The email as compared for repeats (shared/signup-schema.ts emailKey). */
  email_key: string;
  beta_testing: Flag;
  created_at: Time;
  last_seen_at: Time;
  signup_count: Generated<number>;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  referrer: string | null;
  landing_path: string | null;
  button: string | null;
  /** utm_source, else the referring site, else "(direct)": what the figures group by. */
  source: string;
  consent_version: string | null;
  confirmed_at: Time | null;
  /** The latest confirmation (or "come back?") email went out then; the emails themselves are the outbox's. */
  confirm_sent_at: Time | null;
  /** A repeat sign-up asked for this phone number instead; the address on record is asked first (decision 031). */
  phone_change_to: Generated<string | null>;
  /** When that was asked. */
  phone_change_at: Generated<Time | null>;
  /** When the email asking went out; null while it is due. */
  phone_change_sent_at: Generated<Time | null>;
  email_opt_out_at: Time | null;
  sms_opt_out_at: Time | null;
  left_at: Time | null;
  /** Their own link's code (shared/referral.ts), made when they joined; unique. */
  referral_code: Generated<string | null>;
  /** The number replied YES (or START) to a text from us: texts to it are proven wanted (decision 041). */
  sms_confirmed_at: Generated<Time | null>;
  /** The joining text ("Reply YES to confirm…") went to this number then. */
  joining_text_sent_at: Generated<Time | null>;
  /** The code of the link they came through, while its owner is on record (deleting them clears it). */
  referred_by: Generated<string | null>;
  /** The language of the page they signed up on (migration 21); their messages go in it. */
  language: Generated<Language>;
}
