// PostgreSQL migration 27, webhooks: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 27,
  name: 'webhooks',
  // As the SQLite migration 27 says.
  sql: `
      CREATE TABLE webhook_endpoints (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('standard', 'slack')),
        url text NOT NULL,
        secret text NOT NULL,
        events text NOT NULL,
        with_personal_data boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        paused_at timestamptz,
        paused_reason text,
        deleted_at timestamptz
      );
      CREATE UNIQUE INDEX webhook_endpoints_live_name ON webhook_endpoints (name) WHERE deleted_at IS NULL;
      CREATE TABLE webhook_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        type text NOT NULL,
        signup_id text,
        data text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE webhook_marks (
        name text PRIMARY KEY,
        last_id bigint NOT NULL
      );
      INSERT INTO webhook_marks (name, last_id) SELECT 'consent_events', coalesce(max(id), 0) FROM consent_events;
      ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
      ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN
        ('broadcast', 'confirmation', 'reminder', 'phone_change', 'joining_text', 'button', 'owner_sign_in', 'webhook'));
      ALTER TABLE outbox DROP CONSTRAINT broadcast_messages_channel_check;
      ALTER TABLE outbox ADD CONSTRAINT outbox_channel_check CHECK (channel IN ('email', 'sms', 'webhook'));
      ALTER TABLE outbox ADD COLUMN webhook_endpoint_id bigint REFERENCES webhook_endpoints (id);
      ALTER TABLE outbox ADD COLUMN webhook_event_id bigint REFERENCES webhook_events (id);
      ALTER TABLE outbox DROP CONSTRAINT outbox_names_one;
      ALTER TABLE outbox ADD CONSTRAINT outbox_names_one CHECK (
        (kind = 'owner_sign_in') = (owner_id IS NOT NULL)
        AND (kind = 'webhook') = (webhook_endpoint_id IS NOT NULL AND webhook_event_id IS NOT NULL)
        AND (kind = 'webhook') = (channel = 'webhook')
        AND (signup_id IS NULL) = (kind IN ('owner_sign_in', 'webhook')));
      CREATE UNIQUE INDEX outbox_webhook_once ON outbox (webhook_endpoint_id, webhook_event_id) WHERE kind = 'webhook';
    `,
};
