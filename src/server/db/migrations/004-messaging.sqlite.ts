// SQLite migration 4, messaging: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 4,
  name: 'messaging',
  // Confirmation, opt-outs and leaving live on the sign-up; every change of consent is a row of
  // consent_events; the suppression list keeps keyed hashes only, so it can outlive a deletion.
  up: (db) =>
    db.exec(`
        ALTER TABLE signups ADD COLUMN confirmed_at TEXT;
        ALTER TABLE signups ADD COLUMN confirm_requested_at TEXT;
        ALTER TABLE signups ADD COLUMN confirm_sent_at TEXT;
        ALTER TABLE signups ADD COLUMN confirm_attempts INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE signups ADD COLUMN confirm_error TEXT;
        ALTER TABLE signups ADD COLUMN email_opt_out_at TEXT;
        ALTER TABLE signups ADD COLUMN sms_opt_out_at TEXT;
        ALTER TABLE signups ADD COLUMN left_at TEXT;
        CREATE INDEX signups_confirm_due ON signups (confirm_requested_at) WHERE confirm_requested_at IS NOT NULL;
        CREATE INDEX signups_phone ON signups (phone);
        CREATE TABLE consent_events (
          id INTEGER PRIMARY KEY,
          signup_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          source TEXT NOT NULL,
          consent_version TEXT,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX consent_events_signup ON consent_events (signup_id, id);
        CREATE TABLE suppressions (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL CHECK (kind IN ('email', 'phone')),
          address_hash TEXT NOT NULL,
          reason TEXT NOT NULL,
          source TEXT NOT NULL,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX suppressions_address ON suppressions (kind, address_hash, created_at);
      `),
};
