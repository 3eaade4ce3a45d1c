// The backup folder's files: their names (the time in each sorts them), the rotation that keeps the
// last BACKUP_KEEP (and lets a restore's safety copy go with the backups of its time), and the
// clean-up of copies a stopped writer left half-written.
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BackupKind } from './backup-contents.js';
import { PARTIAL_PREFIX } from './make-backup.js';

const EXTENSIONS = { sqlite: 'sqlite', postgres: 'pgdump' } as const satisfies Record<BackupKind, string>;
const BACKUP_NAME = /^scamsavvy-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.(sqlite|pgdump)$/;
/** The copy `db:restore --replace` makes of what it replaces (cli/restore-database.ts names it). */
export const SAFETY_COPY_PREFIX = 'before-restore-';

/** A half-written copy this old has no writer any more (a live writer keeps its file's time fresh). */
export const STALE_PARTIAL_MS = 3_600_000;

/** scamsavvy-2026-11-26T03-00-00Z.sqlite: the time, in UTC, sorts the names in the order they were made. */
export function backupFileName(kind: BackupKind, at: Date): string {
  const time = at.toISOString().slice(0, 19).replaceAll(':', '-');
  return `scamsavvy-${time}Z.${EXTENSIONS[kind]}`;
}

/** The backups in the folder, newest first (only files named as backups: nothing else there is touched). */
export async function listBackups(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  return names
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .reverse();
}

/**
 * Removes all but the newest `keep` backups, and every restore's safety copy older than the oldest
 * backup kept once `keep` are kept: it goes when a backup of its time would have, so a deleted person
 * leaves every copy within the days the privacy notice names. Returns the names removed.
 */
export async function rotateBackups(dir: string, keep: number): Promise<string[]> {
  const backups = await listBackups(dir);
  const removed = backups.slice(keep);
  const oldestKept = backups.length >= keep ? backups[keep - 1] : undefined;
  if (oldestKept !== undefined)
    for (const name of await readdir(dir)) {
      const copyOf = name.startsWith(SAFETY_COPY_PREFIX) ? name.slice(SAFETY_COPY_PREFIX.length) : '';
      if (BACKUP_NAME.test(copyOf) && copyOf < oldestKept) removed.push(name);
    }
  for (const name of removed) await rm(path.join(dir, name), { force: true });
  return removed;
}

/** Removes half-written copies nobody is writing any more (a process stopped by SIGKILL or a power cut). */
export async function removeStalePartials(dir: string, now: Date): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!name.startsWith(PARTIAL_PREFIX)) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now.getTime() - info.mtimeMs > STALE_PARTIAL_MS) await rm(file, { force: true });
  }
}
