// SQLite migration 15, texts proven: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 15,
  name: 'texts-proven',
  // A "yes" to texts is proven (decision 041): the joining text (sent, or claimed by a sender until
  // then), the number's YES, and each inbound text's provider id, so a text replayed is acted on once.
  // The secret key's fingerprints: the keys this database's hashes and links were made with.
  up: (db) =>
    db.exec(`
        ALTER TABLE signups ADD COLUMN sms_confirmed_at TEXT;
        ALTER TABLE signups ADD COLUMN joining_text_sent_at TEXT;
        ALTER TABLE signups ADD COLUMN joining_text_claimed_at TEXT;
        CREATE INDEX signups_joining_text_due ON signups (created_at)
          WHERE joining_text_sent_at IS NULL AND sms_confirmed_at IS NULL;
        CREATE TABLE inbound_texts (
          provider_id TEXT PRIMARY KEY,
          received_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE secret_keys (
          fingerprint TEXT PRIMARY KEY,
          first_used_at TEXT NOT NULL
        ) STRICT;
      `),
};
