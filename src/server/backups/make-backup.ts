// Makes a checked copy of the live database under a final name: written under a temporary name,
// checked, made readable by its owner only, synced, and only then renamed (decision 040).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseConfig } from '../config.js';
import { BackupError } from '../db/database-errors.js';
import { readBackup, type BackupContents } from './backup-contents.js';
import type { TableRows } from '../db/database-inspection.js';
import { copySqlite, dumpPostgres } from '../db/database-copies.js';

export interface MadeBackup {
  file: string;
  bytes: number;
  contents: BackupContents;
}

/** The prefix of a copy being written: never a backup, removed when its writer stops (or later, see removeStalePartials). */
export const PARTIAL_PREFIX = '.partial-';

/** Copies the database DATABASE_URL names to `out`; throws a BackupError (and leaves nothing) when it cannot. */
export async function makeBackup(
  database: DatabaseConfig,
  out: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<MadeBackup> {
  const file = path.resolve(out);
  if (existsSync(file)) throw new BackupError(`${file} already exists: choose another name, or remove it first.`);
  if (!existsSync(path.dirname(file))) throw new BackupError(`There is no folder ${path.dirname(file)}.`);
  const partial = path.join(
    path.dirname(file),
    `${PARTIAL_PREFIX}${randomBytes(6).toString('hex')}-${path.basename(file)}`,
  );
  try {
    // Made empty and private first: both engines write into it, so it is never readable by others.
    await (await open(partial, 'wx', 0o600)).close();
    let expected: TableRows[] | undefined;
    if (database.kind === 'sqlite') await copySqlite(database.file, partial, signal);
    else expected = await dumpPostgres(database.url, partial, signal);
    await chmod(partial, 0o600);
    await syncFile(partial);
    const contents = await readBackup(partial);
    if (expected) compareCounts(expected, contents.tables);
    await rename(partial, file);
    await syncFile(path.dirname(file));
    return { file, bytes: (await stat(file)).size, contents };
  } catch (error) {
    await rm(partial, { force: true });
    await rm(`${partial}-journal`, { force: true }); // SQLite's, if the copy stopped while writing
    throw error;
  }
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The dump holds exactly the rows the snapshot had, table by table. */
function compareCounts(expected: TableRows[], found: TableRows[]): void {
  const foundRows = new Map(found.map((table) => [table.table, table.rows]));
  for (const { table, rows } of expected) {
    if (foundRows.get(table) !== rows)
      throw new BackupError(
        `The copy does not hold what the database held: ${table} had ${rows} rows, the copy ${foundRows.get(table) ?? 'none'}.`,
      );
  }
}
