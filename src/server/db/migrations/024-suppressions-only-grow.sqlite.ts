// SQLite migration 24, the suppression list only grows: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 24,
  name: 'suppressions-only-grow',
  // A "no" is never deleted (issue 54): the person's own undoing is a row of its own ('lifted') that
  // names the row it lifts by its reason and time, so the list keeps every "no" and every "yes again".
  up: (db) =>
    db.exec(`
        ALTER TABLE suppressions ADD COLUMN lifts_reason TEXT;
        ALTER TABLE suppressions ADD COLUMN lifts_at TEXT;
      `),
};
