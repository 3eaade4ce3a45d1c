// Fixture: a database as release ea7849e leaves it (its migrations and numbers: release-migrate.ts), filled
// with people, consent, an analytics event or two, a broadcast with its outbox, and an owner.
import pg from 'pg';
import { openSqlite } from '../sqlite-shared.js';
import { migratePostgresAsRelease, migrateSqliteAsRelease } from './release-migrate.js';

export const ROSA = '0b6d1c52-3c1e-4f4e-9a38-6f0f2f1d7a01';
export const BOB = '5a0e8f7d-2b1c-4d3e-8f90-1a2b3c4d5e6f';
export const BROADCAST = 'launch-day';
export const OWNER = 'owner@example.com';

/** The same rows on both engines, in each one's words for true and false; plain SQL, so no code of today writes them. */
function fillSql(engine: 'sqlite' | 'postgres'): string {
  const bool = (value: boolean) => (engine === 'sqlite' ? (value ? '1' : '0') : String(value));
  const content = JSON.stringify({ subject: 'We are live', text: 'Hello', html: '<p>Hello</p>', sms: 'Hello' });
  return `
    INSERT INTO signups (id, name, phone, email, email_key, beta_testing, created_at, last_seen_at, signup_count,
        utm_source, utm_campaign, source, consent_version, confirmed_at, email_opt_out_at) VALUES
      ('${ROSA}', 'Rosa Díaz', '+15551234567', 'Rosa@Example.com', 'rosa@example.com', ${bool(true)},
        '2026-11-01T10:00:00.000Z', '2026-11-03T10:00:00.000Z', 2, 'newsletter', 'launch', 'newsletter', 'v1',
        '2026-11-01T10:05:00.000Z', NULL),
      ('${BOB}', 'Bob Ng', '+15557654321', 'bob@example.com', 'bob@example.com', ${bool(false)},
        '2026-11-02T10:00:00.000Z', '2026-11-02T10:00:00.000Z', 1, NULL, NULL, '(direct)', 'v1',
        NULL, '2026-11-04T09:00:00.000Z');
    INSERT INTO consent_events (signup_id, kind, source, consent_version, created_at) VALUES
      ('${ROSA}', 'signed_up', 'signup_form', 'v1', '2026-11-01T10:00:00.000Z'),
      ('${ROSA}', 'confirmed', 'confirm_page', NULL, '2026-11-01T10:05:00.000Z'),
      ('${BOB}', 'signed_up', 'signup_form', 'v1', '2026-11-02T10:00:00.000Z'),
      ('${BOB}', 'email_off', 'preferences_page', NULL, '2026-11-04T09:00:00.000Z');
    INSERT INTO suppressions (kind, address_hash, reason, source, created_at) VALUES
      ('phone', 'hash-of-an-old-number', 'sms_stop', 'sms_reply', '2026-11-02T11:00:00.000Z');
    INSERT INTO analytics_events (name, page_name, params, created_at) VALUES
      ('page_view', 'home', '{"page_name":"home"}', '2026-11-02T09:59:00.000Z'),
      ('sign_up', 'home', '{"page_name":"home"}', '2026-11-02T10:00:00.000Z');
    INSERT INTO broadcasts (name, template, segment, channels, include_unconfirmed, content, state, created_at, started_at)
      VALUES ('${BROADCAST}', 'launch', 'all', 'email,sms', ${bool(false)}, '${content}', 'sending',
        '2026-11-05T08:00:00.000Z', '2026-11-05T08:01:00.000Z');
    INSERT INTO broadcast_messages (broadcast_id, signup_id, channel, state, attempts, next_attempt_at, sent_at, provider_id, error)
      VALUES
      (1, '${ROSA}', 'email', 'sent', 1, NULL, '2026-11-05T08:01:05.000Z', 'provider-1', NULL),
      (1, '${ROSA}', 'sms', 'queued', 0, NULL, NULL, NULL, NULL),
      (1, '${BOB}', 'sms', 'failed_temporary', 1, '2026-11-05T08:06:00.000Z', NULL, NULL, 'timeout');
    INSERT INTO owners (email, created_at) VALUES ('${OWNER}', '2026-10-30T12:00:00.000Z');
    INSERT INTO owner_sessions (id_hash, owner_id, created_at, last_seen_at) VALUES
      ('hash-of-a-session', 1, '2026-11-05T07:00:00.000Z', '2026-11-05T07:30:00.000Z');
    INSERT INTO owner_audit_log (at, owner_email, action, subject, detail) VALUES
      ('2026-11-05T07:10:00.000Z', '${OWNER}', 'exported', NULL, 'CSV, 2 people');
  `;
}

/** Creates and fills an SQLite file the way release ea7849e would have. */
export function createReleaseSqlite(file: string): void {
  const db = openSqlite(file);
  try {
    migrateSqliteAsRelease(db);
    db.exec(fillSql('sqlite'));
  } finally {
    db.close();
  }
}

/** Creates and fills a PostgreSQL database the way release ea7849e would have (its numbers: owners is 5). */
export async function createReleasePostgres(url: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await migratePostgresAsRelease(client);
    await client.query(fillSql('postgres'));
  } finally {
    await client.end();
  }
}
