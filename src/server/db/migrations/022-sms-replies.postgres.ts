// PostgreSQL migration 22, SMS replies: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 22,
  name: 'sms-replies',
  // The replies no rule acted on, for the owner to read (issue 54): kept, never dropped unseen.
  sql: `
      CREATE TABLE sms_replies (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        received_at timestamptz NOT NULL,
        phone_hash text NOT NULL,
        phone_end text NOT NULL,
        body text NOT NULL
      );
      CREATE INDEX sms_replies_received ON sms_replies (received_at);
      CREATE INDEX sms_replies_phone ON sms_replies (phone_hash);
    `,
};
