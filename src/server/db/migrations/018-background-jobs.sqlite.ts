// SQLite migration 18, background jobs: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 18,
  name: 'background-jobs',
  // Each recurring job's last run, next run and last failure, and who holds a one-instance job (issue 43).
  up: (db) =>
    db.exec(`
        CREATE TABLE background_jobs (
          name TEXT PRIMARY KEY,
          lease_holder TEXT,
          lease_until TEXT,
          last_started_at TEXT,
          last_finished_at TEXT,
          last_outcome TEXT CHECK (last_outcome IN ('ok', 'failed')),
          last_summary TEXT,
          last_failure_at TEXT,
          last_failure TEXT,
          failures_in_row INTEGER NOT NULL DEFAULT 0,
          next_run_at TEXT,
          every_ms INTEGER,
          ran_on TEXT
        ) STRICT;
      `),
};
