// SQLite migration 23, one outbox: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 23,
  name: 'one-outbox',
  // Every message leaves through one table (issue 54, decision 052): the broadcasts' outbox becomes
  // `outbox`, each row of a kind; a broadcast's rows name their broadcast, the others do not. A
  // message other than a broadcast's has at most one live row per person and kind. The confirmation
  // emails waiting (three columns on signups, now gone) become its rows, as they stood. The joining
  // text's claims (a column on signups) become its rows, due when the claim would have ended; a
  // phone change's email still to go is queued by its sender's next run, so its claim column just goes;
  // each reminder ever claimed is a sent reminder row, so nobody is reminded twice.
  // SQLite cannot loosen NOT NULL in place: the table is made anew and its rows copied, ids kept.
  // The other kinds' two indexes hold their rows only (broadcast_id IS NULL, a term their queries
  // repeat, so SQLite's planner can use them), and a broadcast's rows cost them nothing.
  up: (db) =>
    db.exec(`
        CREATE TABLE outbox (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL DEFAULT 'broadcast'
            CHECK (kind IN ('broadcast', 'confirmation', 'reminder', 'phone_change', 'joining_text', 'button')),
          broadcast_id INTEGER REFERENCES broadcasts (id),
          signup_id TEXT NOT NULL,
          channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
          state TEXT NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at TEXT,
          claimed_by TEXT,
          claimed_at TEXT,
          sent_at TEXT,
          provider_id TEXT,
          error TEXT,
          failure_kind TEXT CHECK (failure_kind IN ('recipient', 'message', 'sender', 'unknown')),
          pause_mark TEXT CHECK (pause_mark IN ('paused_the_channel', 'held')),
          refused_for_our_sending INTEGER NOT NULL DEFAULT 0 CHECK (refused_for_our_sending IN (0, 1)),
          waiting_for TEXT CHECK (waiting_for IN ('daytime', 'cap')),
          UNIQUE (broadcast_id, signup_id, channel),
          CHECK ((kind = 'broadcast') = (broadcast_id IS NOT NULL))
        ) STRICT;
        INSERT INTO outbox (id, broadcast_id, signup_id, channel, state, attempts, next_attempt_at, claimed_by,
            claimed_at, sent_at, provider_id, error, failure_kind, pause_mark, refused_for_our_sending, waiting_for)
          SELECT id, broadcast_id, signup_id, channel, state, attempts, next_attempt_at, claimed_by,
            claimed_at, sent_at, provider_id, error, failure_kind, pause_mark, refused_for_our_sending, waiting_for
          FROM broadcast_messages;
        DROP TABLE broadcast_messages;
        CREATE INDEX outbox_due ON outbox (broadcast_id, channel, next_attempt_at, id)
          WHERE state IN ('queued', 'failed_temporary');
        CREATE INDEX outbox_state ON outbox (broadcast_id, state);
        CREATE UNIQUE INDEX outbox_one_live ON outbox (kind, signup_id)
          WHERE kind != 'broadcast' AND state IN ('queued', 'sending', 'failed_temporary');
        CREATE INDEX outbox_kind_due ON outbox (kind, next_attempt_at) WHERE broadcast_id IS NULL;
        CREATE INDEX outbox_person ON outbox (signup_id, kind) WHERE broadcast_id IS NULL;
        INSERT INTO outbox (kind, signup_id, channel, state, attempts, next_attempt_at)
          SELECT 'joining_text', id, 'sms', 'queued', 0,
              strftime('%Y-%m-%dT%H:%M:%fZ', joining_text_claimed_at, '+5 minutes')
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
      `),
};
