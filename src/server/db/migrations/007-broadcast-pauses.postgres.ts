// PostgreSQL migration 7, broadcast pauses: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 7,
  name: 'broadcast-pauses',
  // Launch day recovers (docs/launch-day.md, decision 026): whose fault each failure was, and a
  // channel paused by a failure of ours (credentials, an outage), with the reason the owner reads.
  sql: `
      ALTER TABLE broadcast_messages ADD COLUMN failure_kind text
        CHECK (failure_kind IN ('recipient', 'message', 'sender', 'unknown'));
      CREATE TABLE broadcast_pauses (
        broadcast_id bigint NOT NULL REFERENCES broadcasts (id),
        channel text NOT NULL CHECK (channel IN ('email', 'sms')),
        cause text NOT NULL,
        reason text NOT NULL,
        answer text,
        paused_at timestamptz NOT NULL,
        PRIMARY KEY (broadcast_id, channel)
      );
    `,
};
