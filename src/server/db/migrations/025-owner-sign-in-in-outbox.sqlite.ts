// SQLite migration 25, the owner's sign-in email in the outbox: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 25,
  name: 'owner-sign-in-in-outbox',
  // Every message leaves through the one outbox (issue 54), the owner's sign-in link too: its row
  // names the owner, not a sign-up. Exactly one of the two is named, by the row's kind; an owner has
  // at most one sign-in email being sent at a time.
  // SQLite cannot loosen NOT NULL or change a CHECK in place: the table is made anew and its rows
  // copied, ids kept, and its indexes made again as migration 23 made them.
  up: (db) =>
    db.exec(`
        CREATE TABLE outbox_25 (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL DEFAULT 'broadcast' CHECK (kind IN
            ('broadcast', 'confirmation', 'reminder', 'phone_change', 'joining_text', 'button', 'owner_sign_in')),
          broadcast_id INTEGER REFERENCES broadcasts (id),
          signup_id TEXT,
          owner_id INTEGER,
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
          CHECK ((kind = 'broadcast') = (broadcast_id IS NOT NULL)),
          CHECK ((kind = 'owner_sign_in') = (owner_id IS NOT NULL) AND (kind = 'owner_sign_in') = (signup_id IS NULL))
        ) STRICT;
        INSERT INTO outbox_25 (id, kind, broadcast_id, signup_id, channel, state, attempts, next_attempt_at,
            claimed_by, claimed_at, sent_at, provider_id, error, failure_kind, pause_mark, refused_for_our_sending,
            waiting_for)
          SELECT id, kind, broadcast_id, signup_id, channel, state, attempts, next_attempt_at,
            claimed_by, claimed_at, sent_at, provider_id, error, failure_kind, pause_mark, refused_for_our_sending,
            waiting_for
          FROM outbox;
        DROP TABLE outbox;
        ALTER TABLE outbox_25 RENAME TO outbox;
        CREATE INDEX outbox_due ON outbox (broadcast_id, channel, next_attempt_at, id)
          WHERE state IN ('queued', 'failed_temporary');
        CREATE INDEX outbox_state ON outbox (broadcast_id, state);
        CREATE UNIQUE INDEX outbox_one_live ON outbox (kind, signup_id)
          WHERE kind != 'broadcast' AND state IN ('queued', 'sending', 'failed_temporary');
        CREATE INDEX outbox_kind_due ON outbox (kind, next_attempt_at) WHERE broadcast_id IS NULL;
        CREATE INDEX outbox_person ON outbox (signup_id, kind) WHERE broadcast_id IS NULL;
        CREATE UNIQUE INDEX outbox_owner_live ON outbox (owner_id)
          WHERE kind = 'owner_sign_in' AND state IN ('queued', 'sending', 'failed_temporary');
      `),
};
