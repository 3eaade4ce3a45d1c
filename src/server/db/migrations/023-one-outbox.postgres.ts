// PostgreSQL migration 23, one outbox: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 23,
  name: 'one-outbox',
  // Every message leaves through one table (issue 54, decision 052): the broadcasts' outbox becomes
  // `outbox`, each row of a kind; a broadcast's rows name their broadcast, the others do not. A
  // message other than a broadcast's has at most one live row per person and kind. The confirmation
  // emails waiting (three columns on signups, now gone) become its rows, as they stood. The joining
  // text's claims (a column on signups) become its rows, due when the claim would have ended; a
  // phone change's email still to go is queued by its sender's next run, so its claim column just goes;
  // each reminder ever claimed is a sent reminder row, so nobody is reminded twice.
  // The other kinds' two indexes hold their rows only (broadcast_id IS NULL, a term their queries
  // repeat), and a broadcast's rows cost them nothing.
  sql: `
      ALTER TABLE broadcast_messages RENAME TO outbox;
      ALTER INDEX broadcast_messages_due RENAME TO outbox_due;
      ALTER INDEX broadcast_messages_state RENAME TO outbox_state;
      ALTER TABLE outbox ADD COLUMN kind text NOT NULL DEFAULT 'broadcast'
        CHECK (kind IN ('broadcast', 'confirmation', 'reminder', 'phone_change', 'joining_text', 'button'));
      ALTER TABLE outbox ALTER COLUMN broadcast_id DROP NOT NULL;
      ALTER TABLE outbox ADD CHECK ((kind = 'broadcast') = (broadcast_id IS NOT NULL));
      CREATE UNIQUE INDEX outbox_one_live ON outbox (kind, signup_id)
        WHERE kind <> 'broadcast' AND state IN ('queued', 'sending', 'failed_temporary');
      CREATE INDEX outbox_kind_due ON outbox (kind, next_attempt_at) WHERE broadcast_id IS NULL;
      CREATE INDEX outbox_person ON outbox (signup_id, kind) WHERE broadcast_id IS NULL;
      INSERT INTO outbox (kind, signup_id, channel, state, attempts, next_attempt_at)
        SELECT 'joining_text', id, 'sms', 'queued', 0, joining_text_claimed_at + interval '5 minutes'
          FROM signups
          WHERE joining_text_claimed_at IS NOT NULL AND joining_text_sent_at IS NULL AND sms_confirmed_at IS NULL;
      INSERT INTO outbox (kind, signup_id, channel, state, attempts, next_attempt_at, error)
        SELECT 'confirmation', id, 'email', CASE WHEN confirm_error IS NULL THEN 'queued' ELSE 'failed_temporary' END,
            confirm_attempts, confirm_requested_at, confirm_error
          FROM signups WHERE confirm_requested_at IS NOT NULL ORDER BY confirm_requested_at;
      DROP INDEX signups_confirm_due;
      ALTER TABLE signups DROP COLUMN confirm_requested_at;
      ALTER TABLE signups DROP COLUMN confirm_attempts;
      ALTER TABLE signups DROP COLUMN confirm_error;
      INSERT INTO outbox (kind, signup_id, channel, state, attempts, sent_at)
        SELECT 'reminder', id, 'email', 'sent', 1, confirm_reminded_at FROM signups
          WHERE confirm_reminded_at IS NOT NULL;
      ALTER TABLE signups DROP COLUMN confirm_reminded_at;
      ALTER TABLE signups DROP COLUMN joining_text_claimed_at;
      ALTER TABLE signups DROP COLUMN phone_change_claimed_at;
    `,
};
