// SQLite migration 26, API keys and the evidence of a sign-up from another channel: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 26,
  name: 'api-keys-and-evidence',
  // The owner's API keys (issue 56), kept only as SHA-256 hashes of their secrets, with the last
  // characters to tell them apart; a revoked key stays, so the audit log's name for it keeps its
  // meaning. A live name is one key. A consent event may carry the evidence its channel gave (a
  // partner's page: the words or their version, when, where from, the address), as JSON.
  up: (db) =>
    db.exec(`
        CREATE TABLE api_keys (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL,
          scope TEXT NOT NULL CHECK (scope IN ('read', 'write')),
          key_hash TEXT NOT NULL UNIQUE,
          key_end TEXT NOT NULL,
          created_at TEXT NOT NULL,
          created_by TEXT NOT NULL,
          last_used_at TEXT,
          revoked_at TEXT
        ) STRICT;
        CREATE UNIQUE INDEX api_keys_live_name ON api_keys (name) WHERE revoked_at IS NULL;
        ALTER TABLE consent_events ADD COLUMN evidence TEXT;
      `),
};
