// PostgreSQL migration 11, phone change requests: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 11,
  name: 'phone-change-requests',
  // A repeat sign-up with another phone number asks the address on record first (decision 031):
  // the number asked for, when, when the email asking went out, and a sender's claim on it (a
  // lease, so a sender that dies mid-send leaves it for another). The index is small (only
  // waiting changes are in it): the mailer looks for them after every sign-up.
  sql: `
      ALTER TABLE signups ADD COLUMN phone_change_to text;
      ALTER TABLE signups ADD COLUMN phone_change_at timestamptz;
      ALTER TABLE signups ADD COLUMN phone_change_sent_at timestamptz;
      ALTER TABLE signups ADD COLUMN phone_change_claimed_at timestamptz;
      CREATE INDEX signups_phone_change_at ON signups (phone_change_at) WHERE phone_change_at IS NOT NULL;
    `,
};
