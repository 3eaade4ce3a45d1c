// PostgreSQL migration 4, messaging: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 4,
  name: 'messaging',
  // Confirmation, opt-outs and leaving live on the sign-up; every change of consent is a row of
  // consent_events; the suppression list keeps keyed hashes only, so it can outlive a deletion.
  sql: `
      ALTER TABLE signups
        ADD COLUMN confirmed_at timestamptz,
        ADD COLUMN confirm_requested_at timestamptz,
        ADD COLUMN confirm_sent_at timestamptz,
        ADD COLUMN confirm_attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN confirm_error text,
        ADD COLUMN email_opt_out_at timestamptz,
        ADD COLUMN sms_opt_out_at timestamptz,
        ADD COLUMN left_at timestamptz;
      CREATE INDEX signups_confirm_due ON signups (confirm_requested_at) WHERE confirm_requested_at IS NOT NULL;
      CREATE INDEX signups_phone ON signups (phone);
      CREATE TABLE consent_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        signup_id uuid NOT NULL,
        kind text NOT NULL,
        source text NOT NULL,
        consent_version text,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX consent_events_signup ON consent_events (signup_id, id);
      CREATE TABLE suppressions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('email', 'phone')),
        address_hash text NOT NULL,
        reason text NOT NULL,
        source text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX suppressions_address ON suppressions (kind, address_hash, created_at);
    `,
};
