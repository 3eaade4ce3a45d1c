// The SQLite writer thread (started by sqlite-signup-writer.ts): it owns the write connection, so
// the event loop never waits on the disk. It takes batches of rows, writes each batch in one
// transaction (group commit), and answers once the transaction is committed and synced: "all", or,
// when the batch had to be written row by row, one result per row. Analytics events come as batches
// of their own, each in its own transaction, so they can never fail a sign-up.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import {
  isSqliteUnavailable,
  openSqlite,
  SQLITE_INSERT_EVENT,
  SQLITE_ASK_CONFIRMATION,
  SQLITE_INSERT_SIGNUP_CONSENT,
  SQLITE_UPSERT,
  WRITER_ROW_INDEX,
  WRITE_BUSY_TIMEOUT_MS,
  type EventWriterRequest,
  type EventWriterResult,
  type EventWriterRow,
  type WriterRequest,
  type WriterResult,
  type WriterRow,
  type WriterRowResult,
} from './sqlite-shared.js';

const { file } = workerData as { file: string };
const db: Database.Database = openSqlite(file, {}, WRITE_BUSY_TIMEOUT_MS);
const upsert = db.prepare(SQLITE_UPSERT);
const insertConsent = db.prepare(SQLITE_INSERT_SIGNUP_CONSENT);
const askConfirmation = db.prepare(SQLITE_ASK_CONFIRMATION);
/**
 * The sign-up, its line in the consent history and the confirmation email it asks for, together; the
 * person's own link code when the record is new.
 */
function writeRow(row: WriterRow): string | null {
  const confirmAt = row[WRITER_ROW_INDEX.confirmAt];
  const { referral_code: referralCode } = upsert.get(row.slice(0, WRITER_ROW_INDEX.confirmAt)) as {
    referral_code: string | null;
  };
  const emailKey = row[WRITER_ROW_INDEX.emailKey];
  insertConsent.run(
    row[WRITER_ROW_INDEX.consentSource],
    row[WRITER_ROW_INDEX.consentEvidence],
    row[WRITER_ROW_INDEX.consentVersion],
    row[WRITER_ROW_INDEX.createdAt],
    emailKey,
  );
  if (confirmAt) askConfirmation.run({ at: confirmAt, key: emailKey });
  return referralCode;
}
const writeAll = db.transaction((rows: WriterRow[]) => rows.map(writeRow));
const writeAlone = db.transaction(writeRow);
const insertEvent = db.prepare(SQLITE_INSERT_EVENT);
const writeEvents = db.transaction((rows: EventWriterRow[]) => {
  for (const row of rows) insertEvent.run(row);
});

function writeEventBatch({ batch, events }: EventWriterRequest): EventWriterResult {
  try {
    writeEvents(JSON.parse(events) as EventWriterRow[]);
    return { batch, events: 'ok' };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return { batch, events: { code, message } };
  }
}

function writeOne(row: WriterRow): WriterRowResult {
  try {
    return { ok: true, referralCode: writeAlone(row) };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    // A taken id, or a taken link code (the email's own clash is the upsert's ON CONFLICT, never an error).
    const idClash = code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
    return { ok: false, idClash, code, message };
  }
}

parentPort?.on('message', (message: WriterRequest | EventWriterRequest | { close: true }) => {
  if ('close' in message) {
    db.close();
    parentPort?.close();
    return;
  }
  if ('events' in message) {
    parentPort?.postMessage(writeEventBatch(message));
    return;
  }
  const rows = JSON.parse(message.rows) as WriterRow[];
  let results: WriterResult['results'];
  try {
    results = { all: writeAll(rows) };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    // Locked, full or unreadable: every row would fail the same way, after the same wait.
    if (isSqliteUnavailable(code)) results = rows.map(() => ({ ok: false as const, idClash: false, code, message }));
    // One bad row (an id clash) must not fail its neighbours: write each on its own.
    else results = rows.map(writeOne);
  }
  parentPort?.postMessage({ batch: message.batch, results } satisfies WriterResult);
});
