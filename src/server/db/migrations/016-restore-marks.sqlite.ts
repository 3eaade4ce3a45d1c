// SQLite migration 16, restore marks: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 16,
  name: 'restore-marks',
  // A restore that could not read what it replaced (decision 041): broadcasts wait until it is settled.
  up: (db) =>
    db.exec(`
        CREATE TABLE restore_marks (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          restored_at TEXT NOT NULL,
          backup_file TEXT NOT NULL,
          settled_at TEXT,
          settled_by TEXT
        ) STRICT;
      `),
};
