// `sudo scamsavvy db:backup --out FILE`: a checked copy of the live database, made while the server runs.
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../server/config.js';
import { backupFileName } from '../server/backups/backup-files.js';
import { makeBackup, type MadeBackup } from '../server/backups/make-backup.js';
import { failedRun, madeRun } from '../server/backups/backup-record.js';
import type { BackupRun } from '../server/db/backup-runs-repository.js';
import { BackupError } from '../server/db/database-errors.js';
import { COMMAND_BUSY_TIMEOUT_MS, openDatabase } from '../server/db/open-database.js';
import { fileSize } from '../shared/plain-numbers.js';
import { describeTables } from './backup-report.js';
import {
  cannotUse,
  describe,
  fileProblem,
  isEntryPoint,
  ownerPath,
  readFlags,
  runCli,
  TERMINAL,
  type Output,
} from './cli-support.js';

const usage = `Usage: sudo scamsavvy db:backup --out FILE
       sudo scamsavvy db:backup              (into BACKUP_DIR, when it is set)

Makes a consistent copy of the database DATABASE_URL names while the server runs and takes sign-ups
(SQLite: VACUUM INTO, never a copy of the file; PostgreSQL: pg_dump in its custom format), checks it
(it is whole, it is this product's, every table's rows), and says what it holds. The copy is written
under a temporary name and renamed when it is complete and checked; only its owner can read it.
  --out FILE   where the copy goes; it must not exist yet. A folder: the copy is named by the time in it`;

/** Said with every backup: the copy's suppression list and links are unreadable without the key (decision 041). */
export const KEY_WITH_BACKUPS =
  'Keep SECRET_KEY with your backups, apart from this machine: without it a restored list cannot tell who asked never to hear from us, and the server refuses to start (docs/production.md).';

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const flags = readFlags(argv, { out: { type: 'string' } }, usage, { out, err });
  if ('exitCode' in flags) return flags.exitCode;
  const config = loadConfig();
  const { database } = config;
  const startedAt = new Date();
  const given = flags.values.out?.trim();
  const named = given ? ownerPath(given) : undefined;
  const folder = named ? (isFolder(named) ? named : undefined) : config.backup?.dir;
  if (!named && !folder) {
    err.write(`Say where the copy goes with --out FILE (or set BACKUP_DIR).\n\n${usage}\n`);
    return 2;
  }
  // BACKUP_DIR is made when it is not there yet, readable by its owner only (as the schedule makes it).
  const file = path.resolve(folder ? path.join(folder, backupFileName(database.kind, startedAt)) : (named as string));
  try {
    if (folder) mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw fileProblem(error, folder!, 'write');
  }
  const problem = cannotUse(file, 'write');
  if (problem) {
    err.write(`No backup was made. ${problem}\n`);
    return 1;
  }

  let made: MadeBackup;
  try {
    made = await makeBackup(database, file);
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    await record(config.database, failedRun('command', startedAt, file, error.message, new Date()));
    err.write(`No backup was made. ${error.message}\n`);
    return 1;
  }
  const { contents, bytes } = made;
  const recorded = await record(config.database, madeRun('command', startedAt, made, new Date()));
  out.write(
    [
      `Backed up ${describe(database)} to ${made.file} (${fileSize(bytes)}).`,
      `Checked: it is whole, it is this product's, and its schema is at migration ${contents.schemaVersion}.`,
      describeTables(contents.tables),
      ...(recorded ? [] : ['(Not shown on the dashboard: the database is not set up for this release yet.)']),
      ...(config.messaging.secretKey ? [KEY_WITH_BACKUPS] : []),
      '',
    ].join('\n'),
  );
  return 0;
}

/** True for a folder; false for a file, nothing there, or a path that cannot be looked at (said when writing). */
function isFolder(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** Adds the run to the record the dashboard reads; false when the database cannot take it (not set up, unreachable). */
async function record(database: Parameters<typeof openDatabase>[0], run: BackupRun): Promise<boolean> {
  try {
    const store = await openDatabase(database, { migrate: false, busyTimeoutMs: COMMAND_BUSY_TIMEOUT_MS });
    try {
      await store.backupRuns.record(run);
      return true;
    } finally {
      await store.close();
    }
  } catch {
    return false;
  }
}

if (isEntryPoint(import.meta.url)) runCli(main);
