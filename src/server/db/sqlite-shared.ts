// What the SQLite store's main thread and its writer thread share: settings, statements, messages.
import Database from 'better-sqlite3';
import type { StoredSignupColumns } from './signup-store.js';

/** How long a write waits for a lock another process holds before the store reports itself unavailable. */
export const WRITE_BUSY_TIMEOUT_MS = 2000;

/** Opens a connection with the settings every connection to the file uses. */
export function openSqlite(file: string, options: Database.Options = {}, busyTimeoutMs = 5000): Database.Database {
  const db = new Database(file, options);
  db.pragma('journal_mode = WAL');
  // FULL: every commit is synced to disk before we answer, so an acknowledged sign-up survives a power cut.
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return db;
}

/** SQLite errors that mean "the database cannot take writes now", not "this sign-up is wrong". */
export function isSqliteUnavailable(code: string | undefined): boolean {
  return /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|READONLY|PROTOCOL|NOTADB|CORRUPT)/.test(code ?? '');
}

/** The upsert's columns, in the order a writer row lists its values. */
export const WRITER_COLUMNS = [
  'id',
  'name',
  'phone',
  'email',
  'email_key',
  'beta_testing',
  'created_at',
  'last_seen_at',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'referrer',
  'landing_path',
  'button',
  'source',
  'consent_version',
  'confirm_requested_at',
] as const;

/** Where a writer row keeps the values the consent event repeats. */
export const WRITER_ROW_INDEX = {
  emailKey: WRITER_COLUMNS.indexOf('email_key'),
  createdAt: WRITER_COLUMNS.indexOf('created_at'),
  consentVersion: WRITER_COLUMNS.indexOf('consent_version'),
} as const;

/**
 * One statement for new and repeated emails alike, so both take the same path and time. A repeat
 * sign-up is new consent: it lifts earlier opt-outs and leaving, and someone who had left or turned
 * email off confirms again (anyone can type an address, so only its owner may undo their "no"). It
 * asks for a confirmation email (confirm_requested_at, null when confirmation is off) unless the
 * person is confirmed, one is already waiting, or one went out in the last day; someone coming back
 * after leaving or turning email off is asked whenever they come back (the last email confirmed the
 * consent they withdrew; withdrawing takes their personal link, so this is one email per "no" at most).
 * (In DO UPDATE, a bare column is the stored row's value before this update.)
 */
export const SQLITE_UPSERT = `
  INSERT INTO signups (${WRITER_COLUMNS.join(', ')})
  VALUES (${WRITER_COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (email_key) DO UPDATE SET
    beta_testing = max(beta_testing, excluded.beta_testing),
    last_seen_at = excluded.last_seen_at,
    signup_count = signup_count + 1,
    left_at = NULL,
    email_opt_out_at = NULL,
    sms_opt_out_at = NULL,
    confirmed_at = CASE WHEN left_at IS NULL AND email_opt_out_at IS NULL THEN confirmed_at END,
    confirm_requested_at = CASE
      WHEN excluded.confirm_requested_at IS NULL THEN confirm_requested_at
      WHEN confirmed_at IS NOT NULL AND left_at IS NULL AND email_opt_out_at IS NULL THEN confirm_requested_at
      WHEN confirm_requested_at IS NOT NULL THEN confirm_requested_at
      WHEN left_at IS NOT NULL
        OR email_opt_out_at IS NOT NULL
        OR confirm_sent_at IS NULL
        OR confirm_sent_at < strftime('%Y-%m-%dT%H:%M:%fZ', excluded.last_seen_at, '-1 day')
        THEN excluded.confirm_requested_at
    END`;

/** The consent history's line for a sign-up, in the same transaction: values consent_version, created_at, email_key. */
export const SQLITE_INSERT_SIGNUP_CONSENT = `
  INSERT INTO consent_events (signup_id, kind, source, consent_version, created_at)
  SELECT id, 'signed_up', 'signup_form', ?, ? FROM signups WHERE email_key = ?`;

/** SQLite's rows carry `rowid`, the insertion order the export follows. */
export interface StoredSqliteRow extends StoredSignupColumns {
  rowid: number;
}

/**
 * The upsert's values for one sign-up, in WRITER_COLUMNS order. A plain array, because it is
 * copied to the writer thread and arrays copy faster than objects.
 */
export type WriterRow = (string | number | null)[];

export interface WriterRequest {
  batch: number;
  /** The batch's rows as JSON: one string crosses to the writer thread faster than many small values. */
  rows: string;
}

export interface WriterResult {
  batch: number;
  /** "all" when the whole batch committed (the usual case, and the cheapest message); otherwise one result per row. */
  results: 'all' | ({ ok: true } | { ok: false; idClash: boolean; code: string | undefined; message: string })[];
}

/** One analytics event, in the order SQLITE_INSERT_EVENT takes them; a null time is the database's clock. */
export type EventWriterRow = [name: string, pageName: string, params: string, createdAt: string | null];

export const SQLITE_INSERT_EVENT = `
  INSERT INTO analytics_events (name, page_name, params, created_at)
  VALUES (?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))`;

/** A batch of analytics events, written in one transaction of its own (never in a sign-up's). */
export interface EventWriterRequest {
  batch: number;
  /** The batch's EventWriterRows as JSON. */
  events: string;
}

export interface EventWriterResult {
  batch: number;
  /** "ok" once the batch committed; otherwise why none of it was written. */
  events: 'ok' | { code: string | undefined; message: string };
}
