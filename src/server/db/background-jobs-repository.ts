// The recurring jobs' record (jobs/job-runner.ts): what each did last, when it runs next, its last
// failure, and the lease through which exactly one instance runs a one-instance job. Written once
// with Kysely for SQLite and PostgreSQL: a lease is one conditional update, so no engine's own lock
// is needed.
import { iso, isoOrNull } from './column-types.js';
import type { JobOutcome } from './background-jobs.table.js';
import { stamp, type QueryContext } from './sql-dialect.js';

export type { JobOutcome };

/** One job as it ran, for the dashboard and `sudo scamsavvy jobs`. */
export interface JobRecord {
  name: string;
  leaseHolder: string | null;
  leaseUntil: string | null;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastOutcome: JobOutcome | null;
  lastSummary: string | null;
  lastFailureAt: string | null;
  lastFailure: string | null;
  failuresInRow: number;
  nextRunAt: string | null;
  ranOn: string | null;
  /** How often it runs, as the instance that ran it last runs it. */
  everyMs: number | null;
}

/** How a run ended. */
export interface JobEnding {
  outcome: JobOutcome;
  /** What it did (ok) or why it failed (failed), in plain words. */
  said: string;
  failuresInRow: number;
  nextRunAt: Date;
}

/** Longest summary or failure kept: a line for the owner, not a log. */
const SAID_LENGTH = 500;

export class BackgroundJobsRepository {
  constructor(private readonly context: QueryContext) {}

  /** Makes a row for each job not yet on record (a new release's new job). */
  async ensure(names: string[]): Promise<void> {
    if (names.length === 0) return;
    await this.context.db
      .insertInto('background_jobs')
      .values(names.map((name) => ({ name, failures_in_row: 0 })))
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
  }

  /**
   * Takes or keeps a one-instance job's lease until `until`: true when this holder has it (no one
   * had it, the last holder's ran out, or it is this holder's already).
   */
  async lease(name: string, holder: string, until: Date): Promise<boolean> {
    const now = stamp(this.context);
    const result = await this.context.db
      .updateTable('background_jobs')
      .set({ lease_holder: holder, lease_until: until.toISOString() })
      .where('name', '=', name)
      .where((where) =>
        where.or([
          where('lease_holder', 'is', null),
          where('lease_until', 'is', null),
          where('lease_until', '<', now),
          where('lease_holder', '=', holder),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Lets a lease go (the instance stops): another instance may take the job at once. */
  async release(names: string[], holder: string): Promise<void> {
    if (names.length === 0) return;
    await this.context.db
      .updateTable('background_jobs')
      .set({ lease_holder: null, lease_until: null })
      .where('name', 'in', names)
      .where('lease_holder', '=', holder)
      .execute();
  }

  async started(name: string, ranOn: string, at: Date, everyMs: number): Promise<void> {
    await this.context.db
      .updateTable('background_jobs')
      .set({ last_started_at: at.toISOString(), ran_on: ranOn, every_ms: everyMs })
      .where('name', '=', name)
      .execute();
  }

  async finished(name: string, ending: JobEnding, at: Date): Promise<void> {
    const said = ending.said.slice(0, SAID_LENGTH);
    await this.context.db
      .updateTable('background_jobs')
      .set({
        last_finished_at: at.toISOString(),
        last_outcome: ending.outcome,
        failures_in_row: ending.failuresInRow,
        next_run_at: ending.nextRunAt.toISOString(),
        ...(ending.outcome === 'ok'
          ? { last_summary: said }
          : { last_failure_at: at.toISOString(), last_failure: said }),
      })
      .where('name', '=', name)
      .execute();
  }

  /** Every job on record, by name. */
  async list(): Promise<JobRecord[]> {
    const rows = await this.context.db.selectFrom('background_jobs').selectAll().orderBy('name').execute();
    return rows.map((row) => ({
      name: row.name,
      leaseHolder: row.lease_holder,
      leaseUntil: isoOrNull(row.lease_until),
      lastStartedAt: isoOrNull(row.last_started_at),
      lastFinishedAt: isoOrNull(row.last_finished_at),
      lastOutcome: row.last_outcome,
      lastSummary: row.last_summary,
      lastFailureAt: isoOrNull(row.last_failure_at),
      lastFailure: row.last_failure,
      failuresInRow: Number(row.failures_in_row),
      nextRunAt: row.next_run_at === null ? null : iso(row.next_run_at),
      ranOn: row.ran_on,
      everyMs: row.every_ms === null ? null : Number(row.every_ms),
    }));
  }
}
