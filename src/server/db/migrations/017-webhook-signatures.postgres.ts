// PostgreSQL migration 17, webhook signatures: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 17,
  name: 'webhook-signatures',
  // A signed token used once (Mailgun signs only timestamp and token, never the body): issue 42.
  sql: `
      CREATE TABLE webhook_signatures (
        source text NOT NULL,
        token text NOT NULL,
        body_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (source, token)
      );
      CREATE INDEX webhook_signatures_expiry ON webhook_signatures (expires_at);
    `,
};
