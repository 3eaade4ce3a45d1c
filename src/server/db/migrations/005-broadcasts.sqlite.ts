// SQLite migration 5, broadcasts: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 5,
  name: 'broadcasts',
  // Launch day (docs/launch-day.md, decision 023): a broadcast, its outbox (one row per person
  // and channel, unique, with its state), and the senders working on it. Only one sender at a
  // time on SQLite: the one row with slot 1.
  up: (db) =>
    db.exec(`
        CREATE TABLE broadcasts (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          template TEXT NOT NULL,
          segment TEXT NOT NULL,
          channels TEXT NOT NULL,
          include_unconfirmed INTEGER NOT NULL,
          content TEXT NOT NULL,
          state TEXT NOT NULL,
          created_at TEXT NOT NULL,
          started_at TEXT,
          finished_at TEXT
        ) STRICT;
        CREATE TABLE broadcast_messages (
          id INTEGER PRIMARY KEY,
          broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id),
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
          UNIQUE (broadcast_id, signup_id, channel)
        ) STRICT;
        CREATE INDEX broadcast_messages_due ON broadcast_messages (broadcast_id, channel, next_attempt_at, id)
          WHERE state IN ('queued', 'failed_temporary');
        CREATE INDEX broadcast_messages_state ON broadcast_messages (broadcast_id, state);
        CREATE TABLE broadcast_senders (
          id TEXT PRIMARY KEY,
          broadcast_id INTEGER NOT NULL,
          slot INTEGER UNIQUE,
          host TEXT NOT NULL,
          pid INTEGER NOT NULL,
          started_at TEXT NOT NULL,
          heartbeat_at TEXT NOT NULL,
          stopped_at TEXT
        ) STRICT;
      `),
};
