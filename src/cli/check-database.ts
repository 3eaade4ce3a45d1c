// `sudo scamsavvy db:check`: is the database whole, and do its migrations match this release; or the same of a backup file.
import { loadConfig } from '../server/config.js';
import { checkBackupFile, checkLiveDatabase, type CheckAnswer } from '../server/backups/database-check.js';
import { BackupError } from '../server/db/database-errors.js';
import { describeTables } from './backup-report.js';
import { describe, isEntryPoint, ownerFile, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';

const usage = `Usage: sudo scamsavvy db:check
       sudo scamsavvy db:check --file FILE

Checks the database DATABASE_URL names: that it is whole (SQLite's integrity_check; PostgreSQL: that
every table reads), and that its migrations match this release. With --file, checks a backup the
same way a restore would. Says what it found in plain words and what it holds.
Exit code 0: all is well. 1: something needs doing, and the answer says what.
  --file FILE   a backup made by db:backup or BACKUP_DIR, instead of the live database`;

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const flags = readFlags(argv, { file: { type: 'string' } }, usage, { out, err });
  if ('exitCode' in flags) return flags.exitCode;
  let answer: CheckAnswer;
  try {
    if (flags.values.file) {
      const { file, problem } = ownerFile(flags.values.file, 'read');
      if (problem) {
        err.write(`Problem: ${problem}\n`);
        return 1;
      }
      answer = await checkBackupFile(file);
    } else {
      const { database } = loadConfig();
      answer = await checkLiveDatabase(database, describe(database));
    }
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    err.write(`Problem: ${error.message}\n`);
    return 1;
  }
  const report = [...answer.said, ...(answer.tables.length > 0 ? [describeTables(answer.tables)] : []), ''].join('\n');
  (answer.ok ? out : err).write(report);
  return answer.ok ? 0 : 1;
}

if (isEntryPoint(import.meta.url)) runCli(main);
