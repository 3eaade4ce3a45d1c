// The exact words each place a choice is made on showed (issue 56, migration 28), kept for good.
import type { Time } from './column-types.js';

export interface ConsentTextsTable {
  /** Where: a consent source (signup_form, confirm_page, preferences_page…), or joining_text. */
  place: string;
  language: string;
  /** The page's own consent version (the form's), or the first 12 hex of the words' SHA-256. */
  version: string;
  words: string;
  /** When the server first showed them: a choice made later than this and before the next version's saw them. */
  first_shown_at: Time;
}
