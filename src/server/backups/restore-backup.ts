// Brings a checked backup back into the database DATABASE_URL names: only into an empty one unless
// the owner says --replace (then what is there is backed up first), and migrated after, so a copy
// made by an older release opens in this one (decision 040).
import { existsSync, renameSync } from 'node:fs';
import type { DatabaseConfig } from '../config.js';
import { plural } from '../../shared/plain-numbers.js';
import { openDatabase } from '../db/open-database.js';
import { createAddressHasher } from '../messaging/link-tokens.js';
import { emailKey } from '../../shared/signup-schema.js';
import { BackupError } from '../db/database-errors.js';
import { postgresRestoreEntries, readBackup, type BackupContents } from './backup-contents.js';
import { readLiveDatabase, type LiveDatabase, type TableRows } from '../db/database-inspection.js';
import { restorePostgres, restoreSqlite } from '../db/database-copies.js';
import { claimDatabaseForRestore } from '../db/database-in-use.js';
import type { CarriedOver } from '../db/carry-over.js';
import type { CarryOver } from '../db/carry-over-read.js';
import { makeBackup, type MadeBackup } from './make-backup.js';

export interface RestoreOptions {
  /** Replace a database that holds rows (backing it up first to `safetyCopy`). */
  replace: boolean;
  /** SECRET_KEY (and SECRET_KEY_PREVIOUS): to know whom the replaced database's suppression list says was deleted. */
  secretKey?: string | undefined;
  previousSecretKey?: string | undefined;
  /** Where the copy of what was there goes, when there was something. */
  safetyCopy: string;
}

export interface Restored {
  contents: BackupContents;
  /**
   * What the replaced database knew and the backup did not, carried across (decision 041); absent
   * when there was nothing to carry from (an empty or unreadable database: what happened after the
   * backup was made is unknown).
   */
  carried?: CarriedOver;
  /** The copy of what the database held before, when --replace found something. */
  safety?: MadeBackup;
  /** A damaged SQLite file that could be neither read nor copied, renamed and kept (--replace). */
  setAside?: string;
}

/** Tables whose rows the running server writes by itself: they do not say anyone used the database. */
const SERVER_OWN_TABLES = [
  'schema_migrations',
  'backup_runs',
  'secret_keys',
  'restore_marks',
  'webhook_signatures',
  'background_jobs',
];

/** A table's rows that say someone used the database: schema_migrations and the backup record do not. */
export function rowsInUse(tables: TableRows[]): number {
  return tables.filter((table) => !SERVER_OWN_TABLES.includes(table.table)).reduce((sum, table) => sum + table.rows, 0);
}

const ENGINE_NAMES = { sqlite: 'an SQLite', postgres: 'a PostgreSQL' } as const;

export async function restoreBackup(
  database: DatabaseConfig,
  from: string,
  options: RestoreOptions,
): Promise<Restored> {
  const contents = await readBackup(from);
  if (contents.kind !== database.kind)
    throw new BackupError(
      `${from} is ${ENGINE_NAMES[contents.kind]} backup, and DATABASE_URL names ${ENGINE_NAMES[database.kind]} database: restore it into ${ENGINE_NAMES[contents.kind]} database.`,
    );
  if (contents.newerThanThisRelease)
    throw new BackupError(
      `${from} was made by a later release of this product (its schema is at migration ${contents.schemaVersion}): install that release, or a newer one, to restore it.`,
    );
  let live: LiveDatabase;
  try {
    live = await readLiveDatabase(database);
  } catch (error) {
    // The disaster a restore is for: an SQLite file too damaged to read. It is kept, under another name.
    if (database.kind !== 'sqlite' || !(error instanceof BackupError)) throw error;
    if (!options.replace)
      throw new BackupError(
        `${error.message} Add --replace to set it aside (renamed, kept beside it) and restore into its place.`,
      );
    const setAside = setAsideSqlite(database.file);
    await restoreInto(database, from, { unknownAfter: true });
    return { contents, setAside };
  }
  if (database.kind === 'postgres' && contents.schema && live.schema && contents.schema !== live.schema)
    throw new BackupError(
      `${from} holds the schema "${contents.schema}", and DATABASE_URL puts the tables in "${live.schema}": set the search_path in DATABASE_URL to "${contents.schema}", or restore into a database that uses it.`,
    );
  // Never under a running server: what it acknowledged meanwhile would be in neither copy.
  const release = await claimDatabaseForRestore(database);
  try {
    return await replaceWith(database, from, options, contents, live);
  } finally {
    await release();
  }
}

async function replaceWith(
  database: DatabaseConfig,
  from: string,
  options: RestoreOptions,
  contents: BackupContents,
  live: LiveDatabase,
): Promise<Restored> {
  const inUse = rowsInUse(live.tables);
  let safety: MadeBackup | undefined;
  let carry: CarryOver | undefined;
  if (inUse > 0) {
    if (!options.replace)
      throw new BackupError(
        `The database DATABASE_URL names is not empty (${plural(inUse, 'row')}, ${plural(live.tables.find((t) => t.table === 'signups')?.rows ?? 0, 'person', 'people')}). Restoring would replace them: add --replace to do so (what is there is backed up first), or point DATABASE_URL at an empty database.`,
      );
    // Every "no" and every send it knows, to carry across: a restore never rewinds them.
    carry = await readCarryOverFrom(database);
    try {
      safety = await makeBackup(database, options.safetyCopy);
    } catch (error) {
      // What cannot be copied (a damaged SQLite file) is still never thrown away: it is set aside.
      if (database.kind !== 'sqlite' || !(error instanceof BackupError)) throw error;
      const setAside = setAsideSqlite(database.file);
      await restoreInto(database, from, { unknownAfter: true });
      return { contents, setAside };
    }
  }
  try {
    // Nothing to carry from (an empty database, or one this release cannot read): what came after the
    // backup is unknown, and broadcasts wait until the owner settles it (decision 041).
    await restoreInto(database, from, { unknownAfter: carry === undefined });
  } catch (error) {
    const before = safety ? ` What the database held before is in ${safety.file}.` : '';
    throw new BackupError(`${(error as Error).message}${before}`);
  }
  const carried = carry ? await carryAcross(database, carry, options) : undefined;
  return { contents, ...(safety ? { safety } : {}), ...(carried ? { carried } : {}) };
}

/** The replaced database's "no"s and sends, read while it is whole (undefined when it cannot be read as this release's). */
async function readCarryOverFrom(database: DatabaseConfig): Promise<CarryOver | undefined> {
  let store;
  try {
    store = await openDatabase(database, { migrate: false });
  } catch {
    return undefined; // set up by another release, or damaged: said as unknown
  }
  try {
    return await store.carryOver.read();
  } finally {
    await store.close();
  }
}

async function carryAcross(database: DatabaseConfig, carry: CarryOver, options: RestoreOptions): Promise<CarriedOver> {
  const hasher = options.secretKey ? createAddressHasher(options.secretKey, options.previousSecretKey) : undefined;
  const store = await openDatabase(database, { migrate: false });
  try {
    return await store.carryOver.apply(carry, (email) => hasher?.hashes('email', emailKey(email)) ?? []);
  } finally {
    await store.close();
  }
}

/**
 * The copy written in, then the migrations this release has and the copy does not (the server would
 * run them at start); `unknownAfter`: marked as a restore whose later "no"s and sends are unknown.
 */
async function restoreInto(
  database: DatabaseConfig,
  from: string,
  { unknownAfter }: { unknownAfter: boolean },
): Promise<void> {
  if (database.kind === 'sqlite') await restoreSqlite(from, database.file);
  else await restorePostgres(from, database.url, await postgresRestoreEntries(from));
  const store = await openDatabase(database, { migrate: true });
  try {
    if (unknownAfter) await store.restoreMarks.mark(from);
  } finally {
    await store.close();
  }
}

/** Renames a damaged SQLite file (and its log and index beside it) to FILE.damaged-TIME; returns the new name. */
function setAsideSqlite(file: string): string {
  const aside = `${file}.damaged-${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}Z`;
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${aside}${suffix}`);
  return aside;
}
