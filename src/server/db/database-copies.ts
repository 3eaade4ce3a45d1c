// Copies of a whole database and back, in each engine's own way: SQLite's VACUUM INTO (on a thread)
// and backup API, PostgreSQL's pg_dump and pg_restore. backups/ decides when, where and whether.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startWorkerThread } from '../worker-thread.js';
import { BackupError } from './database-errors.js';
import { KNOWN_TABLE_NAMES } from './database.js';
import { currentSchema, postgresTables, withPostgres, type TableRows } from './database-inspection.js';
import { connectionFor, runPostgresTool } from './postgres-tools.js';
import type { SqliteCopyResult } from './sqlite-copy-thread.js';

/** A consistent copy of a live SQLite file, made on a thread while the server goes on writing. */
export function copySqlite(source: string, target: string, signal?: AbortSignal): Promise<void> {
  if (!existsSync(source)) return Promise.reject(new BackupError(`There is no database at ${source}.`));
  return new Promise((resolve, reject) => {
    const worker = startWorkerThread(import.meta.url, 'sqlite-copy-thread', { source, target });
    const abort = () => {
      void worker.terminate();
      reject(new BackupError('The backup was stopped before it finished.'));
    };
    signal?.addEventListener('abort', abort, { once: true });
    worker.once('message', (result: SqliteCopyResult) => {
      signal?.removeEventListener('abort', abort);
      if (result.ok) resolve();
      else reject(new BackupError(`Could not copy ${source}: ${result.message}.`));
    });
    worker.once('error', (error) => {
      signal?.removeEventListener('abort', abort);
      reject(new BackupError(`Could not copy ${source}: ${error.message}.`));
    });
  });
}

/**
 * pg_dump in its custom format, reading the snapshot a transaction of ours exported: the rows counted
 * in that transaction are exactly the rows the dump must hold, and are returned to check it by.
 */
export function dumpPostgres(url: string, target: string, signal?: AbortSignal): Promise<TableRows[]> {
  return withPostgres(url, async (client) => {
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const snapshot = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]?.id as string;
      const schema = await currentSchema(client);
      const expected = await postgresTables(client, schema);
      const { dbname, env } = connectionFor(url);
      await runPostgresTool(
        'pg_dump',
        ['--format=custom', `--snapshot=${snapshot}`, `--schema=${schema}`, `--file=${target}`, `--dbname=${dbname}`],
        { env, ...(signal ? { signal } : {}) },
      );
      return expected;
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
    }
  });
}

/** SQLite's backup API writes the copy into the file through SQLite itself, page by page, under its locks. */
export async function restoreSqlite(from: string, file: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true }); // as the server makes data/ on its first start
  const source = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await source.backup(file);
  } catch (error) {
    throw new BackupError(`Could not write ${file}: ${(error as Error).message}.`);
  } finally {
    source.close();
  }
}

/**
 * Replaces this product's tables with the backup's, in one transaction: the DROP of what is there
 * (a migrated but empty database has them; a replaced one had rows, copied first) and the restore of
 * `entries` (the TOC lines of the backup's tables and what belongs to them, never code: the caller
 * checked them) run as one psql script, so a failure halfway leaves the database as it was.
 */
export async function restorePostgres(from: string, url: string, entries: string[]): Promise<void> {
  const ours = KNOWN_TABLE_NAMES;
  const drop = await withPostgres(url, async (client) => {
    const schema = await currentSchema(client);
    const tables = (await postgresTables(client, schema)).map(({ table }) => table).filter((table) => ours.has(table));
    return tables.map((table) => `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(table)}`);
  });
  const work = path.join(tmpdir(), `scamsavvy-restore-${randomBytes(6).toString('hex')}`);
  const files = { list: `${work}.list`, drop: `${work}-drop.sql`, rows: `${work}-rows.sql` };
  const { dbname, env } = connectionFor(url);
  try {
    // Only we can read these: the rows are people's details.
    await writeFile(files.list, entries.join('\n'), { mode: 0o600 });
    await writeFile(files.drop, drop.length > 0 ? `DROP TABLE IF EXISTS ${drop.join(', ')} CASCADE;\n` : '', {
      mode: 0o600,
    });
    await writeFile(files.rows, '', { mode: 0o600 });
    // The restore as SQL (the rows as COPY blocks), written by pg_restore straight into its file.
    await runPostgresTool('pg_restore', [
      '--no-owner',
      '--no-privileges',
      `--use-list=${files.list}`,
      `--file=${files.rows}`,
      from,
    ]);
    // Both files in one transaction (psql's --single-transaction covers every --file).
    await runPostgresTool(
      'psql',
      [
        '--no-psqlrc',
        '--quiet',
        '--single-transaction',
        '--set=ON_ERROR_STOP=1',
        `--file=${files.drop}`,
        `--file=${files.rows}`,
        `--dbname=${dbname}`,
      ],
      { env },
    );
  } finally {
    for (const file of Object.values(files)) await rm(file, { force: true });
  }
}
