// Automatic backups (BACKUP_DIR): one every BACKUP_EVERY_HOURS, the last BACKUP_KEEP kept, each then
// handed to BACKUP_COMMAND. A failure is logged and recorded for the dashboard; it never stops the site.
// The job "backups" (jobs/job-list.ts, on one instance) asks whether one is due, every few minutes.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BackupConfig, DatabaseConfig } from '../config.js';
import type { BackupRun, BackupRunsRepository } from '../db/backup-runs-repository.js';
import type { BackupTrigger } from '../db/backup-runs.table.js';
import { runBackupCommand } from './backup-command.js';
import { backupFileName, removeStalePartials, rotateBackups } from './backup-files.js';
import { makeBackup } from './make-backup.js';
import { failedRun, madeRun } from './backup-record.js';

/** After a failed backup the next try comes this soon (or at the usual time, if that is sooner). */
export const RETRY_AFTER_FAILURE_MS = 3_600_000;
/** How often the job looks whether a backup is due (more often when BACKUP_EVERY_HOURS is shorter). */
export const BACKUP_CHECK_MS = 5 * 60_000;

export interface BackupLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface RunBackupOptions {
  database: DatabaseConfig;
  /** The folder the copy goes into, under its timestamped name (backup-files.ts). */
  dir: string;
  keep?: number;
  command?: string;
  /** BACKUP_COMMAND_ENV: the variables handed to the command besides PATH, HOME and BACKUP_FILE. */
  commandEnv?: string[];
  runs: Pick<BackupRunsRepository, 'record'>;
  trigger: BackupTrigger;
  now?: () => Date;
  signal?: AbortSignal;
}

/** One backup into the folder, rotated and handed to the command; always recorded, never thrown. */
export async function runBackup({
  database,
  dir,
  keep,
  command,
  commandEnv = [],
  runs,
  trigger,
  now = () => new Date(),
  signal,
}: RunBackupOptions): Promise<BackupRun> {
  const startedAt = now();
  const kind = database.kind;
  let run: BackupRun;
  const file = path.join(dir, backupFileName(kind, startedAt));
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await removeStalePartials(dir, startedAt);
    const made = await makeBackup(database, file, signal ? { signal } : {});
    if (keep !== undefined) await rotateBackups(dir, keep);
    run = madeRun(trigger, startedAt, made, now());
    if (command) {
      try {
        await runBackupCommand(command, made.file, { passEnv: commandEnv, ...(signal ? { signal } : {}) });
        run = { ...run, copyOutcome: 'ok', finishedAt: now().toISOString() };
      } catch (error) {
        run = { ...run, copyOutcome: 'failed', copyDetail: (error as Error).message, finishedAt: now().toISOString() };
      }
    }
  } catch (error) {
    run = failedRun(trigger, startedAt, file, (error as Error).message, now());
  }
  // The record is what the dashboard shows; if even that fails, the log still has the run.
  await runs.record(run).catch(() => undefined);
  return run;
}

export interface BackupSchedule {
  /** Makes the backup if one is due (a backup under way stops with the signal, its half-written copy removed); says what it did. */
  runIfDue(signal?: AbortSignal): Promise<string>;
  /** How often to ask: BACKUP_CHECK_MS, or the interval itself when that is shorter. */
  checkEveryMs: number;
}

export interface BackupScheduleOptions {
  config: BackupConfig;
  database: DatabaseConfig;
  runs: Pick<BackupRunsRepository, 'record' | 'status'>;
  log: BackupLogger;
  now?: () => Date;
}

/** When the next backup is due: at once when none was made, the interval after the last, sooner after a failure. */
export function nextBackupAt(last: BackupRun | undefined, everyMs: number): number {
  if (!last) return 0;
  const wait = last.outcome === 'ok' ? everyMs : Math.min(everyMs, RETRY_AFTER_FAILURE_MS);
  return Date.parse(last.startedAt) + wait;
}

export function createBackupSchedule({
  config,
  database,
  runs,
  log,
  now = () => new Date(),
}: BackupScheduleOptions): BackupSchedule {
  const everyMs = config.everyHours * 3_600_000;
  // This process's own last run: what counts when the record cannot be read or written (the
  // database is away), so a failing database never makes the schedule try again at once, forever.
  let attempted: BackupRun | undefined;

  const due = async (): Promise<number> => {
    // Only the schedule's own runs count: a db:backup to somewhere else does not put the next one off.
    const recorded = await runs.status('schedule').then(
      ({ last }) => last,
      () => undefined,
    );
    const last = [recorded, attempted]
      .filter((run): run is BackupRun => run !== undefined)
      .sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt))[0];
    return nextBackupAt(last, everyMs);
  };

  return {
    checkEveryMs: Math.min(BACKUP_CHECK_MS, everyMs),
    async runIfDue(signal) {
      const dueAt = await due();
      if (dueAt > now().getTime())
        return `the next is due at ${new Date(dueAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      const run = await runBackup({
        database,
        dir: config.dir,
        keep: config.keep,
        ...(config.command ? { command: config.command } : {}),
        ...(config.commandEnv ? { commandEnv: config.commandEnv } : {}),
        runs,
        trigger: 'schedule',
        now,
        ...(signal ? { signal } : {}),
      });
      attempted = run;
      if (signal?.aborted) return 'stopped';
      if (run.copyOutcome === 'failed') log.error({ file: run.file, reason: run.copyDetail }, 'BACKUP_COMMAND failed');
      if (run.outcome === 'ok') {
        log.info({ file: run.file, bytes: run.bytes, people: run.people }, 'backup made and checked');
        return `made ${path.basename(run.file ?? '')}${run.copyOutcome === 'failed' ? '; BACKUP_COMMAND failed' : ''}`;
      }
      log.error(
        { file: run.file, reason: run.detail },
        'backup failed: the site goes on; the next try is within the hour',
      );
      // A failure is the job's: on record with its reason (the dashboard's backup block says it too).
      throw new Error(`the backup failed: ${run.detail ?? 'no reason given'}`);
    },
  };
}
