// SQLite migration 6, owners: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 6,
  name: 'owners',
  // The owner's dashboard (docs/owner-guide.md, decision 024): who may sign in, their one-time
  // links and sessions (hashes of the secrets only), and the audit log of what they did.
  up: (db) =>
    db.exec(`
        CREATE TABLE owners (
          id INTEGER PRIMARY KEY,
          email TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE owner_sign_in_links (
          token_hash TEXT PRIMARY KEY,
          owner_id INTEGER NOT NULL REFERENCES owners (id),
          created_at TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          used_at TEXT
        ) STRICT;
        CREATE TABLE owner_sessions (
          id_hash TEXT PRIMARY KEY,
          owner_id INTEGER NOT NULL REFERENCES owners (id),
          created_at TEXT NOT NULL,
          last_seen_at TEXT NOT NULL,
          ended_at TEXT
        ) STRICT;
        CREATE INDEX owner_sessions_owner ON owner_sessions (owner_id);
        CREATE TABLE owner_audit_log (
          id INTEGER PRIMARY KEY,
          at TEXT NOT NULL,
          owner_email TEXT NOT NULL,
          action TEXT NOT NULL,
          subject TEXT,
          detail TEXT
        ) STRICT;
      `),
};
