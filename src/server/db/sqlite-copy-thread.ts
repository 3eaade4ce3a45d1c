// The worker thread that copies a live SQLite database: VACUUM INTO reads one consistent snapshot
// while the server's writer goes on committing (WAL), and the server's event loop is not held.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface SqliteCopyRequest {
  source: string;
  target: string;
}
export type SqliteCopyResult = { ok: true } | { ok: false; message: string; code?: string };

const { source, target } = workerData as SqliteCopyRequest;
let result: SqliteCopyResult;
try {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  // The copy is one file that stands alone: no write-ahead log beside it.
  const copy = new Database(target);
  copy.pragma('journal_mode = DELETE');
  copy.close();
  result = { ok: true };
} catch (error) {
  const { message, code } = error as { message: string; code?: string };
  result = { ok: false, message, ...(code ? { code } : {}) };
}
parentPort?.postMessage(result);
