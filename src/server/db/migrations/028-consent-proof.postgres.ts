// PostgreSQL migration 28, the proof of every consent: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 28,
  name: 'consent-proof',
  // As the SQLite migration 28 says.
  sql: `
      CREATE TABLE consent_texts (
        place text NOT NULL,
        language text NOT NULL,
        version text NOT NULL,
        words text NOT NULL,
        first_shown_at timestamptz NOT NULL,
        PRIMARY KEY (place, language, version)
      );
      ALTER TABLE suppressions ADD COLUMN history text;
    `,
};
