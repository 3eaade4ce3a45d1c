// SQLite migration 2, one record per email and attribution: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import { emailKey } from '../../../shared/signup-schema.js';
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 2,
  name: 'one-record-per-email-and-attribution',
  up: (db) => {
    db.exec(`
        ALTER TABLE signups ADD COLUMN email_key TEXT;
        ALTER TABLE signups ADD COLUMN last_seen_at TEXT;
        ALTER TABLE signups ADD COLUMN signup_count INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE signups ADD COLUMN utm_source TEXT;
        ALTER TABLE signups ADD COLUMN utm_medium TEXT;
        ALTER TABLE signups ADD COLUMN utm_campaign TEXT;
        ALTER TABLE signups ADD COLUMN utm_term TEXT;
        ALTER TABLE signups ADD COLUMN utm_content TEXT;
        ALTER TABLE signups ADD COLUMN referrer TEXT;
        ALTER TABLE signups ADD COLUMN landing_path TEXT;
        ALTER TABLE signups ADD COLUMN button TEXT;
        ALTER TABLE signups ADD COLUMN source TEXT NOT NULL DEFAULT '(direct)';
        ALTER TABLE signups ADD COLUMN consent_version TEXT;
      `);
    // Earlier rows: compute the key in JavaScript (SQLite's lower() knows only ASCII), then fold
    // any repeated email into its first record by the same rule new sign-ups follow.
    const rows = db.prepare('SELECT rowid, email, beta_testing, created_at FROM signups ORDER BY rowid').all() as {
      rowid: number;
      email: string;
      beta_testing: number;
      created_at: string;
    }[];
    const first = new Map<string, { rowid: number; beta: number; lastSeen: string; count: number }>();
    const remove = db.prepare('DELETE FROM signups WHERE rowid = ?');
    for (const row of rows) {
      const key = emailKey(row.email);
      const kept = first.get(key);
      if (!kept) {
        first.set(key, { rowid: row.rowid, beta: row.beta_testing, lastSeen: row.created_at, count: 1 });
        continue;
      }
      kept.beta = Math.max(kept.beta, row.beta_testing);
      kept.lastSeen = row.created_at > kept.lastSeen ? row.created_at : kept.lastSeen;
      kept.count += 1;
      remove.run(row.rowid);
    }
    const update = db.prepare(
      'UPDATE signups SET email_key = ?, beta_testing = ?, last_seen_at = ?, signup_count = ? WHERE rowid = ?',
    );
    for (const [key, kept] of first) update.run(key, kept.beta, kept.lastSeen, kept.count, kept.rowid);
    // No index on source: stats read every row once anyway, and each index slows every sign-up.
    db.exec('CREATE UNIQUE INDEX signups_email_key ON signups (email_key)');
  },
};
