// PostgreSQL migration 5, broadcasts: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 5,
  name: 'broadcasts',
  // Launch day (docs/launch-day.md, decision 023): a broadcast, its outbox (one row per person
  // and channel, unique, with its state), and the senders working on it, who claim rows with
  // FOR UPDATE SKIP LOCKED.
  sql: `
      CREATE TABLE broadcasts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL UNIQUE,
        template text NOT NULL,
        segment text NOT NULL,
        channels text NOT NULL,
        include_unconfirmed boolean NOT NULL,
        content text NOT NULL,
        state text NOT NULL,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        finished_at timestamptz
      );
      CREATE TABLE broadcast_messages (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        broadcast_id bigint NOT NULL REFERENCES broadcasts (id),
        signup_id uuid NOT NULL,
        channel text NOT NULL CHECK (channel IN ('email', 'sms')),
        state text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        claimed_by text,
        claimed_at timestamptz,
        sent_at timestamptz,
        provider_id text,
        error text,
        UNIQUE (broadcast_id, signup_id, channel)
      );
      CREATE INDEX broadcast_messages_due ON broadcast_messages (broadcast_id, channel, next_attempt_at, id)
        WHERE state IN ('queued', 'failed_temporary');
      CREATE INDEX broadcast_messages_state ON broadcast_messages (broadcast_id, state);
      CREATE TABLE broadcast_senders (
        id text PRIMARY KEY,
        broadcast_id bigint NOT NULL,
        slot integer UNIQUE,
        host text NOT NULL,
        pid integer NOT NULL,
        started_at timestamptz NOT NULL,
        heartbeat_at timestamptz NOT NULL,
        stopped_at timestamptz
      );
    `,
};
