// SQLite migration 28, the proof of every consent: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 28,
  name: 'consent-proof',
  // The exact words each place a choice is made on showed, per language and version, kept for good
  // (issue 56): a consent's proof names the words, not a label. A deletion's "no" keeps, by the
  // address's hash, the history of what the person agreed to and when they said no (JSON, no details).
  up: (db) =>
    db.exec(`
        CREATE TABLE consent_texts (
          place TEXT NOT NULL,
          language TEXT NOT NULL,
          version TEXT NOT NULL,
          words TEXT NOT NULL,
          first_shown_at TEXT NOT NULL,
          PRIMARY KEY (place, language, version)
        ) STRICT;
        ALTER TABLE suppressions ADD COLUMN history TEXT;
      `),
};
