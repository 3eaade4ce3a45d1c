// SQLite migration 21, sign-up language: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 21,
  name: 'signup-language',
  // The language of the page a person signed up on (issue 45): every message to them goes in it.
  // Everyone before was English.
  up: (db) =>
    db.exec(`
        ALTER TABLE signups ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'es'));
      `),
};
