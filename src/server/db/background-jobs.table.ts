// The server's recurring jobs as they ran (jobs/job-runner.ts): one row a job, for the dashboard and
// `sudo scamsavvy jobs`, and the lease that lets exactly one instance run a one-instance job (issue 43).
import type { Time } from './column-types.js';

export type JobOutcome = 'ok' | 'failed';

export interface BackgroundJobsTable {
  /** The job's name in the list (jobs/job-list.ts). */
  name: string;
  /** The instance that runs a one-instance job, while its lease lasts; null for an every-instance job. */
  lease_holder: string | null;
  lease_until: Time | null;
  last_started_at: Time | null;
  last_finished_at: Time | null;
  last_outcome: JobOutcome | null;
  /** What the last run did, in a few words ("acted on 2 reports"). */
  last_summary: string | null;
  last_failure_at: Time | null;
  /** Why the last failure failed, in plain words. */
  last_failure: string | null;
  /** Failures since the last run that worked: the back-off grows with them. */
  failures_in_row: number;
  next_run_at: Time | null;
  /** How often the instance that ran it last runs it (the list's interval, or what the settings make it). */
  every_ms: number | string | null;
  /** The instance the last run was on (host and process). */
  ran_on: string | null;
}
