// A restore that could not read the database it replaced (decision 041): any "no" and any send after
// the backup was made are unknown here, so nothing is broadcast until the owner settles it.
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';

/** How the owner settled it: imported the providers' suppression lists, or said so knowingly. */
export type RestoreSettlement = 'import' | 'acknowledged' | 'carried';

export interface RestoreMarksTable {
  id: Generated<Id>;
  restored_at: Time;
  /** The backup restored (its path as the command was given it). */
  backup_file: string;
  settled_at: Time | null;
  settled_by: RestoreSettlement | null;
}
