// What the SQLite writer's main-thread side and its thread share: settings, statements, messages.
import Database from 'better-sqlite3';
import { asksToConfirm, onRepeatSignup, OWN_CODE_IF_NEW, SIGNUP_CONSENT_EVENT, sqliteUpsert } from './signup-upsert.js';

/** How long a write waits for a lock another process holds before the database reports itself unavailable. */
export const WRITE_BUSY_TIMEOUT_MS = 2000;

/** Opens a connection with the settings every connection to the file uses. */
export function openSqlite(file: string, options: Database.Options = {}, busyTimeoutMs = 5000): Database.Database {
  const db = new Database(file, options);
  db.pragma('journal_mode = WAL');
  // FULL: every commit is synced to disk before we answer, so an acknowledged sign-up survives a power cut.
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  // A deleted person's bytes are overwritten, not left in free pages (issue 54: deleted means deleted).
  db.pragma('secure_delete = ON');
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
  'referral_code',
  'referred_by',
  'language',
] as const;

/**
 * Where a writer row keeps the values the consent event repeats, and after the columns: its
 * confirmation's moment, then its consent line's source and evidence.
 */
export const WRITER_ROW_INDEX = {
  confirmAt: WRITER_COLUMNS.length,
  consentSource: WRITER_COLUMNS.length + 1,
  consentEvidence: WRITER_COLUMNS.length + 2,
  referralCode: WRITER_COLUMNS.indexOf('referral_code'),
  emailKey: WRITER_COLUMNS.indexOf('email_key'),
  createdAt: WRITER_COLUMNS.indexOf('created_at'),
  consentVersion: WRITER_COLUMNS.indexOf('consent_version'),
} as const;

const REFERRED_BY_ON_RECORD =
  '(SELECT referrer.referral_code FROM signups AS referrer WHERE referrer.referral_code = ?)';

/**
 * The sign-up upsert (signup-upsert.ts) in SQLite's words. The code of the link the visit came through is
 * kept only if someone on record has it; the person's own code comes back for a new record only.
 */
export const SQLITE_UPSERT = `
  INSERT INTO signups (${WRITER_COLUMNS.join(', ')})
  VALUES (${WRITER_COLUMNS.map((column) => (column === 'referred_by' ? REFERRED_BY_ON_RECORD : '?')).join(', ')})
  ${onRepeatSignup(sqliteUpsert)}
  RETURNING ${OWN_CODE_IF_NEW}`;

/**
 * The consent history's line for a sign-up, in the same transaction: values source, evidence,
 * consent_version, created_at, email_key.
 */
export const SQLITE_INSERT_SIGNUP_CONSENT = `
  INSERT INTO consent_events (signup_id, kind, source, evidence, consent_version, created_at)
  SELECT id, '${SIGNUP_CONSENT_EVENT.kind}', ?, ?, ?, ? FROM signups WHERE email_key = ?`;

/**
 * The confirmation email a sign-up asks for (signup-upsert.ts asksToConfirm), queued in the outbox in
 * the same transaction: `at`, the sign-up's moment, and `key`, its email_key.
 */
export const SQLITE_ASK_CONFIRMATION = `
  INSERT INTO outbox (kind, signup_id, channel, state, attempts, next_attempt_at)
  SELECT 'confirmation', id, 'email', 'queued', 0, @at FROM signups
  WHERE email_key = @key AND ${asksToConfirm({ row: (column) => column, dayBefore: `strftime('%Y-%m-%dT%H:%M:%fZ', @at, '-1 day')` })}
  ON CONFLICT DO NOTHING`;

/**
 * The upsert's values for one sign-up, in WRITER_COLUMNS order, then the moment it asks for a
 * confirmation email (null when confirmation is off). A plain array, because it is
 * copied to the writer thread and arrays copy faster than objects.
 */
export type WriterRow = (string | number | null)[];

export interface WriterRequest {
  batch: number;
  /** The batch's rows as JSON: one string crosses to the writer thread faster than many small values. */
  rows: string;
}

/** One row written on its own; `idClash`: its random id or link code was taken, and it may be tried afresh. */
export type WriterRowResult =
  | { ok: true; referralCode: string | null }
  | { ok: false; idClash: boolean; code: string | undefined; message: string };

export interface WriterResult {
  batch: number;
  /**
   * Each row's own link code, in order, when the whole batch committed (the usual case); otherwise one
   * result per row.
   */
  results: { all: (string | null)[] } | WriterRowResult[];
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
