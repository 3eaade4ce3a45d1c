// PostgreSQL migration 10, confirmation reminder: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 10,
  name: 'confirmation-reminder',
  // The one reminder an unconfirmed sign-up gets before it is deleted (CONFIRMATION_REMINDER_DAYS).
  sql: `ALTER TABLE signups ADD COLUMN confirm_reminded_at timestamptz;`,
};
