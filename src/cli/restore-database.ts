// `sudo scamsavvy db:restore --from FILE [--replace]`: a checked backup back into the database DATABASE_URL names.
import type { CarriedOver } from '../server/db/carry-over.js';
import path from 'node:path';
import { loadConfig, type Config } from '../server/config.js';
import { restoreBackup } from '../server/backups/restore-backup.js';
import { readLiveDatabase } from '../server/db/database-inspection.js';
import { BackupError } from '../server/db/database-errors.js';
import { backupFileName, SAFETY_COPY_PREFIX } from '../server/backups/backup-files.js';
import { fileSize, plural } from '../shared/plain-numbers.js';
import { describeTables } from './backup-report.js';
import { describe, isEntryPoint, ownerFile, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';

const usage = `Usage: sudo scamsavvy db:restore --from FILE [--replace]

Brings a backup (made by db:backup or by the automatic backups) back into the database DATABASE_URL
names, with the people, their consent history and the suppression list. Stop the server first.
The backup is checked first: a file that is not this product's backup, or fails its check, is
refused. Only an empty database is restored into, unless --replace is given. Afterwards the
migrations run, so a backup made by an older release opens in this one.
  --from FILE   the backup
  --replace     replace what the database holds; it is backed up first, and the copy's name printed`;

/** Where the copy of what a --replace finds goes: BACKUP_DIR, else beside the SQLite file, else here. */
function safetyCopyPath(config: Config, now: Date): string {
  const folder =
    config.backup?.dir ?? (config.database.kind === 'sqlite' ? path.dirname(config.database.file) : process.cwd());
  return path.join(folder, `${SAFETY_COPY_PREFIX}${backupFileName(config.database.kind, now)}`);
}

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const flags = readFlags(argv, { from: { type: 'string' }, replace: { type: 'boolean', default: false } }, usage, {
    out,
    err,
  });
  if ('exitCode' in flags) return flags.exitCode;
  const from = flags.values.from?.trim();
  if (!from) {
    err.write(`Say which backup to restore with --from FILE.\n\n${usage}\n`);
    return 2;
  }
  const { file, problem } = ownerFile(from, 'read');
  if (problem) {
    err.write(`The restore did not happen. ${problem}\n`);
    return 1;
  }
  const config = loadConfig();
  const where = describe(config.database);
  try {
    const restored = await restoreBackup(config.database, file, {
      replace: flags.values.replace === true,
      secretKey: config.messaging.secretKey,
      previousSecretKey: config.messaging.previousSecretKey,
      safetyCopy: safetyCopyPath(config, new Date()),
    });
    const now = await readLiveDatabase(config.database);
    out.write(
      [
        ...(restored.setAside
          ? [`${where} could not be read or copied, so it is set aside, kept as it was, in ${restored.setAside}.`]
          : []),
        ...(restored.safety
          ? [
              `What ${where} held before is backed up in ${restored.safety.file} (${fileSize(restored.safety.bytes)}, ${plural(restored.safety.contents.people, 'person', 'people')}).`,
            ]
          : []),
        `Restored ${file} into ${where}; its schema is up to date for this release.`,
        carriedWords(restored.carried),
        describeTables(now.tables),
        '',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    err.write(`The restore did not happen. ${error.message}\n`);
    return 1;
  }
}

/**
 * What the restore carried across from the database it replaced (decision 041), or, when there was
 * none to read, that what happened after the backup was made is unknown.
 */
export function carriedWords(carried: CarriedOver | undefined): string {
  if (!carried)
    return [
      'The database it replaced held nothing this release could read, so any "no" and any launch message after this backup was made are unknown here.',
      'Until that is settled, nothing is sent: broadcast send and resume refuse, and the joining texts, confirmation emails and texts waiting for daytime wait too. Ask your email and text providers for the addresses and numbers that unsubscribed, bounced, complained or replied STOP since the backup, and add them: sudo scamsavvy suppressions import FILE',
      'Or, if you are sure nothing like that happened since the backup, say so once: sudo scamsavvy broadcast send NAME --after-restore',
    ].join('\n');
  const parts = [
    `kept ${plural(carried.keptOut, 'person', 'people')} out who left after this backup was made`,
    `${plural(carried.optOuts, 'opt-out')} since then kept`,
    `${plural(carried.choices, 'person’s later choices', 'people’s later choices')} (confirmation, beta, language, number) kept`,
    `${plural(carried.deletions, 'deletion')} applied again`,
    `${plural(carried.suppressions, 'entry', 'entries')} of the suppression list added`,
    `${plural(carried.sends, 'message')} already sent or settled stay so (none goes twice)`,
  ];
  return `Carried across from the database it replaced: ${parts.join('; ')}.`;
}

if (isEntryPoint(import.meta.url)) runCli(main);
