// SQLite migration 22, SMS replies: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 22,
  name: 'sms-replies',
  // The replies no rule acted on, for the owner to read (issue 54): kept, never dropped unseen.
  up: (db) =>
    db.exec(`
        CREATE TABLE sms_replies (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          received_at TEXT NOT NULL,
          phone_hash TEXT NOT NULL,
          phone_end TEXT NOT NULL,
          body TEXT NOT NULL
        ) STRICT;
        CREATE INDEX sms_replies_received ON sms_replies (received_at);
        CREATE INDEX sms_replies_phone ON sms_replies (phone_hash);
      `),
};
