// SQLite migration 17, webhook signatures: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 17,
  name: 'webhook-signatures',
  // A signed token used once (Mailgun signs only timestamp and token, never the body): issue 42.
  up: (db) =>
    db.exec(`
        CREATE TABLE webhook_signatures (
          source TEXT NOT NULL,
          token TEXT NOT NULL,
          body_hash TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          PRIMARY KEY (source, token)
        ) STRICT;
        CREATE INDEX webhook_signatures_expiry ON webhook_signatures (expires_at);
      `),
};
