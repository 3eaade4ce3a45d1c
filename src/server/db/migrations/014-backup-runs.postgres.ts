// PostgreSQL migration 14, backup runs: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 14,
  name: 'backup-runs',
  // Every backup made (automatic or db:backup) and how it ended, so the dashboard says when the list
  // was last copied, or why it was not (decision 040).
  sql: `
      CREATE TABLE backup_runs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL,
        trigger text NOT NULL CHECK (trigger IN ('schedule', 'command')),
        outcome text NOT NULL CHECK (outcome IN ('ok', 'failed')),
        file text,
        bytes bigint,
        people bigint,
        detail text,
        copy_outcome text CHECK (copy_outcome IN ('ok', 'failed')),
        copy_detail text
      );
      CREATE INDEX backup_runs_started_at ON backup_runs (started_at);
    `,
};
