// SQLite migration 27, webhooks: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 27,
  name: 'webhooks',
  // The owner's webhook endpoints (issue 56), the events they are told of (ids and facts, never a
  // person's details: those are read when a delivery goes), and how far the consent history has been
  // read for them (from the upgrade on: an endpoint is told of what happens after it). A delivery is an outbox row of kind 'webhook' on the channel 'webhook' naming its
  // endpoint and event: at most one per event and endpoint, ever (outbox_webhook_once). SQLite cannot
  // change a CHECK in place: the outbox is made anew and its rows copied, ids kept, its indexes made
  // again as migration 25 made them.
  up: (db) =>
    db.exec(`
        CREATE TABLE webhook_endpoints (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('standard', 'slack')),
          url TEXT NOT NULL,
          secret TEXT NOT NULL,
          events TEXT NOT NULL,
          with_personal_data INTEGER NOT NULL DEFAULT 0 CHECK (with_personal_data IN (0, 1)),
          created_at TEXT NOT NULL,
          created_by TEXT NOT NULL,
          paused_at TEXT,
          paused_reason TEXT,
          deleted_at TEXT
        ) STRICT;
        CREATE UNIQUE INDEX webhook_endpoints_live_name ON webhook_endpoints (name) WHERE deleted_at IS NULL;
        CREATE TABLE webhook_events (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          type TEXT NOT NULL,
          signup_id TEXT,
          data TEXT NOT NULL,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE webhook_marks (
          name TEXT PRIMARY KEY,
          last_id INTEGER NOT NULL
        ) STRICT;
        INSERT INTO webhook_marks (name, last_id) SELECT 'consent_events', coalesce(max(id), 0) FROM consent_events;
        CREATE TABLE outbox_27 (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL DEFAULT 'broadcast' CHECK (kind IN
            ('broadcast', 'confirmation', 'reminder', 'phone_change', 'joining_text', 'button', 'owner_sign_in', 'webhook')),
          broadcast_id INTEGER REFERENCES broadcasts (id),
          signup_id TEXT,
          owner_id INTEGER,
          channel TEXT NOT NULL CHECK (channel IN ('email', 'sms', 'webhook')),
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
          webhook_endpoint_id INTEGER REFERENCES webhook_endpoints (id),
          webhook_event_id INTEGER REFERENCES webhook_events (id),
          UNIQUE (broadcast_id, signup_id, channel),
          CHECK ((kind = 'broadcast') = (broadcast_id IS NOT NULL)),
          CHECK ((kind = 'owner_sign_in') = (owner_id IS NOT NULL)),
          CHECK ((kind = 'webhook') = (webhook_endpoint_id IS NOT NULL AND webhook_event_id IS NOT NULL)),
          CHECK ((kind = 'webhook') = (channel = 'webhook')),
          CHECK ((signup_id IS NULL) = (kind IN ('owner_sign_in', 'webhook')))
        ) STRICT;
        INSERT INTO outbox_27 (id, kind, broadcast_id, signup_id, owner_id, channel, state, attempts, next_attempt_at,
            claimed_by, claimed_at, sent_at, provider_id, error, failure_kind, pause_mark, refused_for_our_sending,
            waiting_for)
          SELECT id, kind, broadcast_id, signup_id, owner_id, channel, state, attempts, next_attempt_at,
            claimed_by, claimed_at, sent_at, provider_id, error, failure_kind, pause_mark, refused_for_our_sending,
            waiting_for
          FROM outbox;
        DROP TABLE outbox;
        ALTER TABLE outbox_27 RENAME TO outbox;
        CREATE INDEX outbox_due ON outbox (broadcast_id, channel, next_attempt_at, id)
          WHERE state IN ('queued', 'failed_temporary');
        CREATE INDEX outbox_state ON outbox (broadcast_id, state);
        CREATE UNIQUE INDEX outbox_one_live ON outbox (kind, signup_id)
          WHERE kind != 'broadcast' AND state IN ('queued', 'sending', 'failed_temporary');
        CREATE INDEX outbox_kind_due ON outbox (kind, next_attempt_at) WHERE broadcast_id IS NULL;
        CREATE INDEX outbox_person ON outbox (signup_id, kind) WHERE broadcast_id IS NULL;
        CREATE UNIQUE INDEX outbox_owner_live ON outbox (owner_id)
          WHERE kind = 'owner_sign_in' AND state IN ('queued', 'sending', 'failed_temporary');
        CREATE UNIQUE INDEX outbox_webhook_once ON outbox (webhook_endpoint_id, webhook_event_id) WHERE kind = 'webhook';
      `),
};
