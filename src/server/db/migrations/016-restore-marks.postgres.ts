// PostgreSQL migration 16, restore marks: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 16,
  name: 'restore-marks',
  // A restore that could not read what it replaced (decision 041): broadcasts wait until it is settled.
  sql: `
      CREATE TABLE restore_marks (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        restored_at timestamptz NOT NULL,
        backup_file text NOT NULL,
        settled_at timestamptz,
        settled_by text
      );
    `,
};
