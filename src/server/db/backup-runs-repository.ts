// The record of backups: each run written once when it ends; the dashboard and the schedule read the latest.
import { iso, type Engine } from './column-types.js';
import type { BackupOutcome, BackupRunsTable, BackupTrigger } from './backup-runs.table.js';
import type { QueryContext } from './sql-dialect.js';

/** One backup, as it ended. */
export interface BackupRun {
  startedAt: string;
  finishedAt: string;
  trigger: BackupTrigger;
  outcome: BackupOutcome;
  file: string | null;
  bytes: number | null;
  people: number | null;
  detail: string | null;
  copyOutcome: BackupOutcome | null;
  copyDetail: string | null;
}

/** The dashboard's line: the last run, and the last that worked when the last did not. */
export interface BackupStatus {
  last?: BackupRun;
  lastGood?: BackupRun;
}

const DETAIL_LENGTH = 1000;

const numberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toRun(row: Omit<BackupRunsTable, 'id'>): BackupRun {
  return {
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    trigger: row.trigger,
    outcome: row.outcome,
    file: row.file,
    bytes: numberOrNull(row.bytes),
    people: numberOrNull(row.people),
    detail: row.detail,
    copyOutcome: row.copy_outcome,
    copyDetail: row.copy_detail,
  };
}

export class BackupRunsRepository {
  constructor(private readonly context: QueryContext) {}

  get engine(): Engine {
    return this.context.dialect.engine;
  }

  async record(run: BackupRun): Promise<void> {
    await this.context.db
      .insertInto('backup_runs')
      .values({
        started_at: run.startedAt,
        finished_at: run.finishedAt,
        trigger: run.trigger,
        outcome: run.outcome,
        file: run.file,
        bytes: run.bytes,
        people: run.people,
        detail: run.detail?.slice(0, DETAIL_LENGTH) ?? null,
        copy_outcome: run.copyOutcome,
        copy_detail: run.copyDetail?.slice(0, DETAIL_LENGTH) ?? null,
      })
      .execute();
  }

  /** The last run and the last good one; of one trigger's runs only, when given (the schedule counts its own). */
  async status(trigger?: BackupTrigger): Promise<BackupStatus> {
    const latest = (outcome?: BackupOutcome) => {
      let query = this.context.db.selectFrom('backup_runs').selectAll();
      if (trigger) query = query.where('trigger', '=', trigger);
      if (outcome) query = query.where('outcome', '=', outcome);
      return query.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    };
    const [last, lastGood] = await Promise.all([latest(), latest('ok')]);
    return {
      ...(last ? { last: toRun(last) } : {}),
      ...(lastGood ? { lastGood: toRun(lastGood) } : {}),
    };
  }
}
