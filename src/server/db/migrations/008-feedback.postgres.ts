// PostgreSQL migration 8, feedback: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 8,
  name: 'feedback',
  // What comes back after a send (docs/messaging.md, "Hearing back"): every message sent, by its
  // signed token and the provider's ids, and every report about one, stored once per source and id.
  sql: `
      CREATE TABLE sent_messages (
        token text PRIMARY KEY,
        channel text NOT NULL CHECK (channel IN ('email', 'sms')),
        purpose text NOT NULL,
        signup_id uuid,
        broadcast_id bigint,
        outbox_id bigint,
        address_hash text,
        message_id text,
        provider_id text,
        state text NOT NULL,
        created_at timestamptz NOT NULL,
        state_at timestamptz NOT NULL
      );
      CREATE INDEX sent_messages_provider_id ON sent_messages (provider_id);
      CREATE INDEX sent_messages_message_id ON sent_messages (message_id);
      CREATE INDEX sent_messages_broadcast ON sent_messages (broadcast_id, channel);
      CREATE INDEX sent_messages_signup ON sent_messages (signup_id);
      CREATE TABLE feedback_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source text NOT NULL,
        event_id text NOT NULL,
        kind text NOT NULL,
        token text,
        code text,
        detail text,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        UNIQUE (source, event_id)
      );
      CREATE INDEX feedback_events_token ON feedback_events (token, occurred_at);
      ALTER TABLE broadcasts ADD COLUMN health_accepted_at timestamptz;
    `,
};
