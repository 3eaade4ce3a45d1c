// SQLite migration 1, create signups: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 1,
  name: 'create-signups',
  up: (db) =>
    db.exec(`
        CREATE TABLE signups (
          id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL,
          phone TEXT NOT NULL,
          email TEXT NOT NULL,
          beta_testing INTEGER NOT NULL DEFAULT 0 CHECK (beta_testing IN (0, 1)),
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX signups_created_at ON signups (created_at);
      `),
};
