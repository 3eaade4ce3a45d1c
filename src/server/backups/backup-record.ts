// How a backup's end is written down for the dashboard: the same two shapes for the schedule and db:backup.
import type { BackupRun } from '../db/backup-runs-repository.js';
import type { BackupTrigger } from '../db/backup-runs.table.js';
import type { MadeBackup } from './make-backup.js';

export function madeRun(trigger: BackupTrigger, startedAt: Date, made: MadeBackup, finishedAt: Date): BackupRun {
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    trigger,
    outcome: 'ok',
    file: made.file,
    bytes: made.bytes,
    people: made.contents.people,
    detail: null,
    copyOutcome: null,
    copyDetail: null,
  };
}

export function failedRun(
  trigger: BackupTrigger,
  startedAt: Date,
  file: string,
  detail: string,
  finishedAt: Date,
): BackupRun {
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    trigger,
    outcome: 'failed',
    file,
    bytes: null,
    people: null,
    detail,
    copyOutcome: null,
    copyDetail: null,
  };
}
