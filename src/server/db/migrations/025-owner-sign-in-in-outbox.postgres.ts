// PostgreSQL migration 25, the owner's sign-in email in the outbox: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 25,
  name: 'owner-sign-in-in-outbox',
  // Every message leaves through the one outbox (issue 54), the owner's sign-in link too: its row
  // names the owner, not a sign-up. Exactly one of the two is named, by the row's kind; an owner has
  // at most one sign-in email being sent at a time.
  sql: `
      ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
      ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN
        ('broadcast', 'confirmation', 'reminder', 'phone_change', 'joining_text', 'button', 'owner_sign_in'));
      ALTER TABLE outbox ADD COLUMN owner_id bigint;
      ALTER TABLE outbox ALTER COLUMN signup_id DROP NOT NULL;
      ALTER TABLE outbox ADD CONSTRAINT outbox_names_one CHECK (
        (kind = 'owner_sign_in') = (owner_id IS NOT NULL) AND (kind = 'owner_sign_in') = (signup_id IS NULL));
      CREATE UNIQUE INDEX outbox_owner_live ON outbox (owner_id)
        WHERE kind = 'owner_sign_in' AND state IN ('queued', 'sending', 'failed_temporary');
    `,
};
