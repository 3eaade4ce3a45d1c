// db:check's judgement: is the database (or a backup file) whole, and where do its migrations stand
// against this release's; the answer in plain words, and whether anything needs doing.
import type { DatabaseConfig } from '../config.js';
import { readLiveDatabase, type TableRows } from '../db/database-inspection.js';
import { schemaState } from '../db/migrate.js';
import { postgresMigrations } from '../db/postgres-migrations.js';
import { sqliteMigrations } from '../db/sqlite-migrations.js';
import { readBackup } from './backup-contents.js';

export interface CheckAnswer {
  /** True when nothing needs doing. */
  ok: boolean;
  /** Sentences, the first the answer. */
  said: string[];
  tables: TableRows[];
}

export async function checkLiveDatabase(database: DatabaseConfig, where: string): Promise<CheckAnswer> {
  const live = await readLiveDatabase(database, { integrity: true });
  if (!live.exists)
    return {
      ok: false,
      said: [`There is no database at ${where} yet: the server creates it when it first starts.`],
      tables: [],
    };
  const said: string[] = [];
  const damaged = live.integrity && !(live.integrity.length === 1 && live.integrity[0] === 'ok');
  if (damaged)
    said.push(
      `Problem: ${where} is damaged (integrity_check: ${live.integrity?.slice(0, 3).join('; ')}). Stop the server and restore the last backup: sudo scamsavvy db:restore --from FILE --replace.`,
    );
  if (!live.recorded) {
    said.push(
      `${where} has none of this product's tables yet: start the server once, or run sudo scamsavvy db:migrate.`,
    );
    return { ok: false, said, tables: live.tables };
  }
  const known = database.kind === 'sqlite' ? sqliteMigrations : postgresMigrations;
  const { missing, version, newest, ahead } = schemaState(live.recorded, known);
  const state = ahead ? 'ahead' : missing.length > 0 ? 'behind' : 'current';
  const whole = database.kind === 'sqlite' ? 'is whole (integrity_check: ok)' : 'answers and every table reads';
  if (state === 'ahead')
    said.push(
      `Problem: ${where} was set up by a later release (its schema is at migration ${version}; this release knows up to ${newest}). Run that release, or a newer one.`,
    );
  else if (state === 'behind')
    said.push(
      `To do: ${where} needs ${missing.length === 1 ? 'a migration' : `${missing.length} migrations`} this release has (${missing.map((m) => `${m.version} ${m.name}`).join(', ')}). The server runs them when it starts; sudo scamsavvy db:migrate runs them now.`,
    );
  if (said.length === 0)
    said.push(`All is well: ${where} ${whole}, and its schema is up to date (migration ${version}).`);
  return { ok: !damaged && state === 'current', said, tables: live.tables };
}

/** A backup file: checked as a restore would check it. */
export async function checkBackupFile(file: string): Promise<CheckAnswer> {
  const contents = await readBackup(file);
  const { newest } = schemaState([], contents.kind === 'sqlite' ? sqliteMigrations : postgresMigrations);
  const engine = contents.kind === 'sqlite' ? 'an SQLite' : 'a PostgreSQL';
  const said = [
    contents.newerThanThisRelease
      ? `Problem: ${file} is ${engine} backup made by a later release (its schema is at migration ${contents.schemaVersion}; this release knows up to ${newest}). Restore it with that release, or a newer one.`
      : `All is well: ${file} is ${engine} backup of this product, whole, with its schema at migration ${contents.schemaVersion}${contents.schemaVersion < newest ? ' (a restore brings it up to date)' : ''}.`,
  ];
  return { ok: !contents.newerThanThisRelease, said, tables: contents.tables };
}
