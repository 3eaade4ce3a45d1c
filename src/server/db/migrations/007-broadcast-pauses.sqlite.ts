// SQLite migration 7, broadcast pauses: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 7,
  name: 'broadcast-pauses',
  // Launch day recovers (docs/launch-day.md, decision 026): whose fault each failure was, and a
  // channel paused by a failure of ours (credentials, an outage), with the reason the owner reads.
  up: (db) =>
    db.exec(`
        ALTER TABLE broadcast_messages ADD COLUMN failure_kind TEXT
          CHECK (failure_kind IN ('recipient', 'message', 'sender', 'unknown'));
        CREATE TABLE broadcast_pauses (
          broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id),
          channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
          cause TEXT NOT NULL,
          reason TEXT NOT NULL,
          answer TEXT,
          paused_at TEXT NOT NULL,
          PRIMARY KEY (broadcast_id, channel)
        ) STRICT;
      `),
};
