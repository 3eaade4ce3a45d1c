// Each recurring job as the owner reads it, the same on the dashboard and from `sudo scamsavvy jobs`: what
// it does, how often and where, its last run, its next run, and its last failure.
import type { JobRecord } from '../db/background-jobs-repository.js';
import { JOB_LIST, JOB_NAMES, type JobName } from './job-list.js';
import { plural } from '../../shared/plain-numbers.js';

export interface JobStatus {
  name: JobName;
  does: string;
  /** "every minute", "every hour, on one instance". */
  schedule: string;
  /** When it is on. */
  when: string;
  /** "2026-11-27 10:30 UTC: acted on 2 reports", "not run yet", or "never" (not on). */
  lastRun: string;
  lastOk: boolean | undefined;
  nextRun: string;
  /** "2026-11-27 09:00 UTC: the database is away (3 in a row)", or "none". */
  lastFailure: string;
}

const at = (time: string) => `${time.slice(0, 16).replace('T', ' ')} UTC`;

function every(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (ms < 60_000) return `every ${plural(Math.max(1, Math.round(ms / 1000)), 'second')}`;
  if (minutes === 1) return 'every minute';
  if (minutes % 60 === 0) return minutes === 60 ? 'every hour' : `every ${minutes / 60} hours`;
  return `every ${minutes} minutes`;
}

/** The list's jobs in its order, each with what the record says of it. */
export function jobStatuses(records: JobRecord[]): JobStatus[] {
  const byName = new Map(records.map((record) => [record.name, record]));
  return JOB_NAMES.map((name) => {
    const declared = JOB_LIST[name];
    const record = byName.get(name);
    const ran = record?.lastFinishedAt;
    return {
      name,
      does: declared.does,
      schedule: `${every(record?.everyMs ?? declared.everyMs)}, ${declared.where === 'one' ? 'on one instance' : 'on every instance'}`,
      when: declared.when,
      // No record: no server has had it on (its settings are not set), so it says when it would run.
      lastRun: ran
        ? `${at(ran)}: ${record.lastOutcome === 'ok' ? (record.lastSummary ?? 'done') : 'failed'}`
        : record
          ? 'not run yet'
          : 'never',
      lastOk: record?.lastOutcome ? record.lastOutcome === 'ok' : undefined,
      nextRun: record?.nextRunAt ? at(record.nextRunAt) : record ? 'soon' : `not on: it runs ${declared.when}`,
      lastFailure:
        record?.lastFailureAt && record.lastFailure
          ? `${at(record.lastFailureAt)}: ${record.lastFailure}${record.failuresInRow > 1 ? ` (${record.failuresInRow} in a row)` : ''}`
          : 'none',
    };
  });
}
