// Every backup made, automatic or by db:backup, and how it ended (decision 040).
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';

/** What started a backup: the server's schedule (BACKUP_DIR) or the owner's `sudo scamsavvy db:backup`. */
export type BackupTrigger = 'schedule' | 'command';
export type BackupOutcome = 'ok' | 'failed';

export interface BackupRunsTable {
  id: Generated<Id>;
  started_at: Time;
  finished_at: Time;
  trigger: BackupTrigger;
  outcome: BackupOutcome;
  /** Where the checked copy is (ok), or was to be (failed). */
  file: string | null;
  bytes: number | string | null;
  /** The people the copy holds, as its check counted them. */
  people: number | string | null;
  /** Why it failed, in plain words; null when it worked. */
  detail: string | null;
  /** BACKUP_COMMAND's outcome, null when none is set or the backup failed first. */
  copy_outcome: BackupOutcome | null;
  copy_detail: string | null;
}
