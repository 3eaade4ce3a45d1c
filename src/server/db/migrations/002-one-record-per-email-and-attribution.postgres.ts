// PostgreSQL migration 2, one record per email and attribution: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 2,
  name: 'one-record-per-email-and-attribution',
  // Nothing to do: PostgreSQL's version 1 already creates these columns and the unique email_key.
  // It is here so that both engines number the same change the same way. Databases from before the numbers were unified recorded 3..6
  // as 2..5; the runner (migrate.ts) moves those rows forward by name.
  sql: '',
};
