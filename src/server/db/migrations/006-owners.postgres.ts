// PostgreSQL migration 6, owners: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 6,
  name: 'owners',
  // The owner's dashboard (docs/owner-guide.md, decision 024): who may sign in, their one-time
  // links and sessions (hashes of the secrets only), and the audit log of what they did.
  sql: `
      CREATE TABLE owners (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE owner_sign_in_links (
        token_hash text PRIMARY KEY,
        owner_id bigint NOT NULL REFERENCES owners (id),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE TABLE owner_sessions (
        id_hash text PRIMARY KEY,
        owner_id bigint NOT NULL REFERENCES owners (id),
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        ended_at timestamptz
      );
      CREATE INDEX owner_sessions_owner ON owner_sessions (owner_id);
      CREATE TABLE owner_audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL,
        owner_email text NOT NULL,
        action text NOT NULL,
        subject text,
        detail text
      );
    `,
};
