// SQLite migration 8, feedback: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 8,
  name: 'feedback',
  // What comes back after a send (docs/messaging.md, "Hearing back"): every message sent, by its
  // signed token and the provider's ids, and every report about one, stored once per source and id.
  up: (db) =>
    db.exec(`
        CREATE TABLE sent_messages (
          token TEXT PRIMARY KEY,
          channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
          purpose TEXT NOT NULL,
          signup_id TEXT,
          broadcast_id INTEGER,
          outbox_id INTEGER,
          address_hash TEXT,
          message_id TEXT,
          provider_id TEXT,
          state TEXT NOT NULL,
          created_at TEXT NOT NULL,
          state_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX sent_messages_provider_id ON sent_messages (provider_id);
        CREATE INDEX sent_messages_message_id ON sent_messages (message_id);
        CREATE INDEX sent_messages_broadcast ON sent_messages (broadcast_id, channel);
        CREATE INDEX sent_messages_signup ON sent_messages (signup_id);
        CREATE TABLE feedback_events (
          id INTEGER PRIMARY KEY,
          source TEXT NOT NULL,
          event_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          token TEXT,
          code TEXT,
          detail TEXT,
          occurred_at TEXT NOT NULL,
          received_at TEXT NOT NULL,
          UNIQUE (source, event_id)
        ) STRICT;
        CREATE INDEX feedback_events_token ON feedback_events (token, occurred_at);
        ALTER TABLE broadcasts ADD COLUMN health_accepted_at TEXT;
      `),
};
