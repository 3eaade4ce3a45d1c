// SQLite migration 14, backup runs: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 14,
  name: 'backup-runs',
  // Every backup made (automatic or db:backup) and how it ended, so the dashboard says when the list
  // was last copied, or why it was not (decision 040).
  up: (db) =>
    db.exec(`
        CREATE TABLE backup_runs (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          started_at TEXT NOT NULL,
          finished_at TEXT NOT NULL,
          trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'command')),
          outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'failed')),
          file TEXT,
          bytes INTEGER,
          people INTEGER,
          detail TEXT,
          copy_outcome TEXT CHECK (copy_outcome IN ('ok', 'failed')),
          copy_detail TEXT
        ) STRICT;
        CREATE INDEX backup_runs_started_at ON backup_runs (started_at);
      `),
};
