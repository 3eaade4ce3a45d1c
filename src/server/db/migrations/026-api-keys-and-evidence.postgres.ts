// PostgreSQL migration 26, API keys and the evidence of a sign-up from another channel: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 26,
  name: 'api-keys-and-evidence',
  // As the SQLite migration 26 says.
  sql: `
      CREATE TABLE api_keys (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        scope text NOT NULL CHECK (scope IN ('read', 'write')),
        key_hash text NOT NULL UNIQUE,
        key_end text NOT NULL,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE UNIQUE INDEX api_keys_live_name ON api_keys (name) WHERE revoked_at IS NULL;
      ALTER TABLE consent_events ADD COLUMN evidence text;
    `,
};
