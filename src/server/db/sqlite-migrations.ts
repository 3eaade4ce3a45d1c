// Numbered schema changes for SQLite, applied in order on start; never edit one that has shipped.
// Same version and name as PostgreSQL's for the same change (postgres-migrations.ts).
import type Database from 'better-sqlite3';
import { emailKey } from '../../shared/signup-schema.js';

export interface SqliteMigration {
  version: number;
  name: string;
  up: (db: Database.Database) => void;
}

export const sqliteMigrations: SqliteMigration[] = [
  {
    version: 1,
    name: 'create-signups',
    up: (db) =>
      db.exec(`
        CREATE TABLE signups (
          id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL,
          phone TEXT NOT NULL,
          email TEXT NOT NULL,
          beta_testing INTEGER NOT NULL DEFAULT 0 CHECK (beta_testing IN (0, 1)),
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX signups_created_at ON signups (created_at);
      `),
  },
  {
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
  },
  {
    version: 3,
    name: 'create-analytics-events',
    // The page's first-party events: what happened and on which page, never who or from where.
    // created_at defaults to the database's clock, in the same ISO 8601 form as the sign-ups' times.
    up: (db) =>
      db.exec(`
        CREATE TABLE analytics_events (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          page_name TEXT NOT NULL,
          params TEXT NOT NULL CHECK (json_valid(params)),
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ) STRICT;
        CREATE INDEX analytics_events_created_at ON analytics_events (created_at);
      `),
  },
  {
    version: 4,
    name: 'messaging',
    // Confirmation, opt-outs and leaving live on the sign-up; every change of consent is a row of
    // consent_events; the suppression list keeps keyed hashes only, so it can outlive a deletion.
    up: (db) =>
      db.exec(`
        ALTER TABLE signups ADD COLUMN confirmed_at TEXT;
        ALTER TABLE signups ADD COLUMN confirm_requested_at TEXT;
        ALTER TABLE signups ADD COLUMN confirm_sent_at TEXT;
        ALTER TABLE signups ADD COLUMN confirm_attempts INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE signups ADD COLUMN confirm_error TEXT;
        ALTER TABLE signups ADD COLUMN email_opt_out_at TEXT;
        ALTER TABLE signups ADD COLUMN sms_opt_out_at TEXT;
        ALTER TABLE signups ADD COLUMN left_at TEXT;
        CREATE INDEX signups_confirm_due ON signups (confirm_requested_at) WHERE confirm_requested_at IS NOT NULL;
        CREATE INDEX signups_phone ON signups (phone);
        CREATE TABLE consent_events (
          id INTEGER PRIMARY KEY,
          signup_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          source TEXT NOT NULL,
          consent_version TEXT,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX consent_events_signup ON consent_events (signup_id, id);
        CREATE TABLE suppressions (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL CHECK (kind IN ('email', 'phone')),
          address_hash TEXT NOT NULL,
          reason TEXT NOT NULL,
          source TEXT NOT NULL,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX suppressions_address ON suppressions (kind, address_hash, created_at);
      `),
  },
  {
    version: 5,
    name: 'broadcasts',
    // Launch day (docs/launch-day.md, decision 023): a broadcast, its outbox (one row per person
    // and channel, unique, with its state), and the senders working on it. Only one sender at a
    // time on SQLite: the one row with slot 1.
    up: (db) =>
      db.exec(`
        CREATE TABLE broadcasts (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          template TEXT NOT NULL,
          segment TEXT NOT NULL,
          channels TEXT NOT NULL,
          include_unconfirmed INTEGER NOT NULL,
          content TEXT NOT NULL,
          state TEXT NOT NULL,
          created_at TEXT NOT NULL,
          started_at TEXT,
          finished_at TEXT
        ) STRICT;
        CREATE TABLE broadcast_messages (
          id INTEGER PRIMARY KEY,
          broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id),
          signup_id TEXT NOT NULL,
          channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
          state TEXT NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at TEXT,
          claimed_by TEXT,
          claimed_at TEXT,
          sent_at TEXT,
          provider_id TEXT,
          error TEXT,
          UNIQUE (broadcast_id, signup_id, channel)
        ) STRICT;
        CREATE INDEX broadcast_messages_due ON broadcast_messages (broadcast_id, channel, next_attempt_at, id)
          WHERE state IN ('queued', 'failed_temporary');
        CREATE INDEX broadcast_messages_state ON broadcast_messages (broadcast_id, state);
        CREATE TABLE broadcast_senders (
          id TEXT PRIMARY KEY,
          broadcast_id INTEGER NOT NULL,
          slot INTEGER UNIQUE,
          host TEXT NOT NULL,
          pid INTEGER NOT NULL,
          started_at TEXT NOT NULL,
          heartbeat_at TEXT NOT NULL,
          stopped_at TEXT
        ) STRICT;
      `),
  },
  {
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
  },
  {
    version: 7,
    name: 'broadcast-pauses',
    // Launch day recovers (docs/launch-day.md, decision 026): whose fault each failure was, and a
    // channel paused by a failure of ours (credentials, an outage), with the reason the owner reads.
    up: (db) =>
      db.exec(`
        ALTER TABLE broadcast_messages ADD COLUMN failure_kind TEXT
          CHECK (failure_kind IN ('recipient', 'message', 'sender', 'unknown'));
        CREATE TABLE broadcast_pauses (
          broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id),
          channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
          cause TEXT NOT NULL,
          reason TEXT NOT NULL,
          answer TEXT,
          paused_at TEXT NOT NULL,
          PRIMARY KEY (broadcast_id, channel)
        ) STRICT;
      `),
  },
  {
    version: 8,
    name: 'feedback',
    // What comes back after a send (docs/messaging.md, "Hearing back"): every message sent, by its
    // signed token and the provider's ids, and every report about one, stored once per source and id.
    up: (db) =>
      db.exec(`
        CREATE TABLE sent_messages (
          token TEXT PRIMARY KEY,
          channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
          purpose TEXT NOT NULL,
          signup_id TEXT,
          broadcast_id INTEGER,
          outbox_id INTEGER,
          address_hash TEXT,
          message_id TEXT,
          provider_id TEXT,
          state TEXT NOT NULL,
          created_at TEXT NOT NULL,
          state_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX sent_messages_provider_id ON sent_messages (provider_id);
        CREATE INDEX sent_messages_message_id ON sent_messages (message_id);
        CREATE INDEX sent_messages_broadcast ON sent_messages (broadcast_id, channel);
        CREATE INDEX sent_messages_signup ON sent_messages (signup_id);
        CREATE TABLE feedback_events (
          id INTEGER PRIMARY KEY,
          source TEXT NOT NULL,
          event_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          token TEXT,
          code TEXT,
          detail TEXT,
          occurred_at TEXT NOT NULL,
          received_at TEXT NOT NULL,
          UNIQUE (source, event_id)
        ) STRICT;
        CREATE INDEX feedback_events_token ON feedback_events (token, occurred_at);
        ALTER TABLE broadcasts ADD COLUMN health_accepted_at TEXT;
      `),
  },
  {
    version: 9,
    name: 'broadcast-confirmation-rule',
    // Who a broadcast takes among the unconfirmed (decision 032): 'asked' (the default: everyone but
    // those asked to confirm who did not), 'confirmed_only', or 'everyone'. Broadcasts made before
    // keep what they meant.
    up: (db) =>
      db.exec(`
        ALTER TABLE broadcasts ADD COLUMN confirmation TEXT NOT NULL DEFAULT 'asked'
          CHECK (confirmation IN ('asked', 'confirmed_only', 'everyone'));
        UPDATE broadcasts SET confirmation = CASE WHEN include_unconfirmed = 1 THEN 'everyone' ELSE 'confirmed_only' END;
      `),
  },
  {
    version: 10,
    name: 'confirmation-reminder',
    // The one reminder an unconfirmed sign-up gets before it is deleted (CONFIRMATION_REMINDER_DAYS).
    up: (db) => db.exec(`ALTER TABLE signups ADD COLUMN confirm_reminded_at TEXT;`),
  },
  {
    version: 11,
    name: 'phone-change-requests',
    // A repeat sign-up with another phone number asks the address on record first (decision 031):
    // the number asked for, when, when the email asking went out, and a sender's claim on it (a
    // lease, so a sender that dies mid-send leaves it for another). The index is small (only
    // waiting changes are in it): the mailer looks for them after every sign-up.
    up: (db) =>
      db.exec(`
        ALTER TABLE signups ADD COLUMN phone_change_to TEXT;
        ALTER TABLE signups ADD COLUMN phone_change_at TEXT;
        ALTER TABLE signups ADD COLUMN phone_change_sent_at TEXT;
        ALTER TABLE signups ADD COLUMN phone_change_claimed_at TEXT;
        CREATE INDEX signups_phone_change_at ON signups (phone_change_at) WHERE phone_change_at IS NOT NULL;
      `),
  },
];
