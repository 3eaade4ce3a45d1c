// PostgreSQL migration 1, create signups: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 1,
  name: 'create-signups',
  sql: `
      CREATE TABLE signups (
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id uuid PRIMARY KEY,
        name text NOT NULL,
        phone text NOT NULL,
        email text NOT NULL,
        email_key text NOT NULL UNIQUE,
        beta_testing boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        signup_count integer NOT NULL DEFAULT 1,
        utm_source text,
        utm_medium text,
        utm_campaign text,
        utm_term text,
        utm_content text,
        referrer text,
        landing_path text,
        button text,
        source text NOT NULL DEFAULT '(direct)',
        consent_version text
      );
      CREATE INDEX signups_created_at ON signups (created_at);
    `,
};
