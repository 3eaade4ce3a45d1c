// PostgreSQL migration 18, background jobs: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 18,
  name: 'background-jobs',
  // Each recurring job's last run, next run and last failure, and who holds a one-instance job (issue 43).
  sql: `
      CREATE TABLE background_jobs (
        name text PRIMARY KEY,
        lease_holder text,
        lease_until timestamptz,
        last_started_at timestamptz,
        last_finished_at timestamptz,
        last_outcome text CHECK (last_outcome IN ('ok', 'failed')),
        last_summary text,
        last_failure_at timestamptz,
        last_failure text,
        failures_in_row integer NOT NULL DEFAULT 0,
        next_run_at timestamptz,
        every_ms bigint,
        ran_on text
      );
    `,
};
