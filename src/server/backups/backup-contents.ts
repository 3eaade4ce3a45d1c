// Reads a backup file and checks it: is it a backup of this product, is it whole, what does it hold.
// The same check runs on every copy before it gets its final name, and before any restore.
import { open } from 'node:fs/promises';
import { postgresMigrations } from '../db/postgres-migrations.js';
import { sqliteMigrations } from '../db/sqlite-migrations.js';
import { schemaState, type MigrationInfo } from '../db/migrate.js';
import { BackupError } from '../db/database-errors.js';
import { runPostgresTool } from '../db/postgres-tools.js';
import { KNOWN_TABLE_NAMES } from '../db/database.js';
import {
  migratedSqliteSchema,
  readSqliteFile,
  type SqliteSchemaEntry,
  type TableRows,
} from '../db/database-inspection.js';

export type BackupKind = 'sqlite' | 'postgres';

export interface BackupContents {
  kind: BackupKind;
  /** Every table in the copy and its rows, by name. */
  tables: TableRows[];
  /** The people on the list (rows of signups). */
  people: number;
  /** The highest migration the copy's schema has. */
  schemaVersion: number;
  /** Made by a later release than this one: this release cannot open it. */
  newerThanThisRelease: boolean;
  /** PostgreSQL: the schema its tables are in (public, unless DATABASE_URL chose another). */
  schema?: string;
}

const SQLITE_MAGIC = 'SQLite format 3\0';
const POSTGRES_MAGIC = 'PGDMP';

/** Which engine's backup the file is, by its first bytes; undefined for anything else. */
export async function backupKindOf(file: string): Promise<BackupKind | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupError(code === 'ENOENT' ? `There is no file at ${file}.` : `Could not read ${file}: ${code}.`);
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    const start = buffer.subarray(0, bytesRead).toString('latin1');
    if (start === SQLITE_MAGIC) return 'sqlite';
    if (start.startsWith(POSTGRES_MAGIC)) return 'postgres';
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Checks the file and says what it holds; a BackupError says what is wrong with it. */
export async function readBackup(file: string): Promise<BackupContents> {
  const kind = await backupKindOf(file);
  if (kind === undefined) throw notOurs(file, 'it is neither an SQLite database nor a PostgreSQL dump (pg_dump -Fc)');
  return kind === 'sqlite' ? readSqliteBackup(file) : readPostgresBackup(file);
}

function notOurs(file: string, why: string): BackupError {
  return new BackupError(`${file} is not a backup of this product: ${why}.`);
}

function damaged(file: string, said: string): BackupError {
  return new BackupError(`${file} fails its check (it is damaged or was cut short): ${said}`);
}

/** What a copy's schema_migrations says: ours from the first migration, and whether a later release made it. */
function schemaOf(
  file: string,
  recorded: MigrationInfo[] | undefined,
  tables: TableRows[],
  known: MigrationInfo[],
): Pick<BackupContents, 'schemaVersion' | 'newerThanThisRelease' | 'people'> {
  const first = known[0] as MigrationInfo;
  const signups = tables.find((table) => table.table === 'signups');
  if (!recorded || !signups || !recorded.some((row) => row.version === first.version && row.name === first.name))
    throw notOurs(file, "it has no sign-ups table or no record of this product's migrations");
  const { version, ahead } = schemaState(recorded, known);
  return { schemaVersion: version, newerThanThisRelease: ahead, people: signups.rows };
}

async function readSqliteBackup(file: string): Promise<BackupContents> {
  let read: ReturnType<typeof readSqliteFile>;
  try {
    read = readSqliteFile(file);
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (code === 'SQLITE_NOTADB') throw notOurs(file, 'it is not a database');
    throw damaged(file, message);
  }
  if (read.integrity.length !== 1 || read.integrity[0] !== 'ok')
    throw damaged(file, read.integrity.slice(0, 3).join('; '));
  const contents = {
    kind: 'sqlite' as const,
    tables: read.tables,
    ...schemaOf(file, read.recorded, read.tables, sqliteMigrations),
  };
  if (!contents.newerThanThisRelease) await onlyOurSchema(file, read.entries, contents.schemaVersion);
  return contents;
}

/**
 * A backup is data, never code (decision 041): its schema must be exactly what this product's
 * migrations make at its version (a fresh database migrated that far, compared entry by entry), so
 * no trigger, view or table of anyone else's comes back with a restore.
 */
async function onlyOurSchema(file: string, schema: SqliteSchemaEntry[], version: number): Promise<void> {
  const expected = await migratedSqliteSchema(version);
  const key = (entry: SqliteSchemaEntry) => `${entry.type}\u0000${entry.name}\u0000${entry.sql}`;
  const ours = new Set(expected.map(key));
  const theirs = new Set(schema.map(key));
  const extra = schema.filter((entry) => !ours.has(key(entry)));
  const missing = expected.filter((entry) => !theirs.has(key(entry)));
  if (extra.length === 0 && missing.length === 0) return;
  const named = (entries: SqliteSchemaEntry[]) =>
    entries
      .slice(0, 3)
      .map((entry) => `${entry.type} "${entry.name}"`)
      .join(', ');
  throw notOurs(
    file,
    extra.length > 0
      ? `its schema holds what this product's migrations did not make (${named(extra)}), and a restore would bring it back as code`
      : `its schema lacks what this product's migrations make (${named(missing)})`,
  );
}

/** A TOC line of `pg_restore --list`: "215; 1259 16390 TABLE public signups postgres". */
const TOC_TABLE = /^\d+; \d+ \d+ TABLE (?!DATA )(\S+) (\S+) /;
/** Any TOC entry: "215; 1259 16390 " then its type, its schema ("-" for none), its name and owner. */
const TOC_ENTRY = /^\d+; \d+ \d+ (.*)$/;
/**
 * The kinds of entry this product's migrations make, and that a restore brings back. Anything else
 * (a function, trigger, view, rule, policy, extension …) is code, never data: refused.
 */
export const POSTGRES_DATA_ENTRIES = [
  'TABLE',
  'TABLE DATA',
  'SEQUENCE',
  'SEQUENCE SET',
  'SEQUENCE OWNED BY',
  'DEFAULT',
  'CONSTRAINT',
  'FK CONSTRAINT',
  'INDEX',
] as const;
/** Entries a dump holds that a restore leaves out: the schema (it exists already), its comment and grants. */
const POSTGRES_LEFT_OUT = ['SCHEMA', 'COMMENT', 'ACL'];
const OUR_TABLES = KNOWN_TABLE_NAMES;

/**
 * The TOC lines a restore may use (this product's tables and what belongs to them), from `pg_restore
 * --list`; a BackupError naming the first entry that is code or someone else's table.
 */
export function postgresDataEntries(file: string, toc: string): string[] {
  const keep: string[] = [];
  for (const line of toc.split('\n')) {
    if (line.startsWith(';') || line.trim() === '') continue;
    const rest = TOC_ENTRY.exec(line)?.[1] ?? '';
    // The longest known type the entry starts with ("TABLE DATA" before "TABLE"), else its first word.
    const type =
      [...POSTGRES_DATA_ENTRIES, ...POSTGRES_LEFT_OUT]
        .sort((a, b) => b.length - a.length)
        .find((known) => rest.startsWith(`${known} `)) ?? (rest.split(' ')[0] as string);
    if ((POSTGRES_DATA_ENTRIES as readonly string[]).includes(type)) {
      const table = rest.slice(type.length + 1).split(' ')[1] ?? '';
      if ((type === 'TABLE' || type === 'TABLE DATA') && !OUR_TABLES.has(table))
        throw notOurs(file, `it holds a table this product's migrations did not make ("${table}")`);
      keep.push(line);
      continue;
    }
    if (POSTGRES_LEFT_OUT.includes(type) && (type !== 'COMMENT' || / - SCHEMA /.test(line))) continue;
    throw notOurs(
      file,
      `it holds ${type ? `a ${type.toLowerCase()}` : 'an entry'} this product's migrations did not make (${line.replace(/^\d+; \d+ \d+ /, '').trim()}), and a restore would bring it back as code`,
    );
  }
  return keep;
}
/** The start of a table's rows in `pg_restore --data-only` output. */
const COPY_START = /^COPY (?:"?([^".\s]+)"?\.)?"?([^"\s(]+)"? .*FROM stdin;$/;

/** The TOC lines a restore of this dump uses: this product's tables and what belongs to them, checked again. */
export async function postgresRestoreEntries(file: string): Promise<string[]> {
  return postgresDataEntries(file, await runPostgresTool('pg_restore', ['--list', file]));
}

/**
 * Lists the dump's tables, then reads every row of it (pg_restore fails on a file cut short), counting
 * each table's rows and reading schema_migrations as it passes.
 */
async function readPostgresBackup(file: string): Promise<BackupContents> {
  const counts = new Map<string, number>();
  let schema: string | undefined;
  const toc = await runPostgresTool('pg_restore', ['--list', file]).catch((error: Error) => {
    throw damaged(file, error.message);
  });
  postgresDataEntries(file, toc);
  for (const line of toc.split('\n')) {
    const match = TOC_TABLE.exec(line);
    if (!match) continue;
    schema ??= match[1];
    counts.set(match[2] as string, 0);
  }
  const recorded: MigrationInfo[] = [];
  let current: string | undefined;
  await runPostgresTool('pg_restore', ['--data-only', '--file=-', file], {
    onLine: (line) => {
      if (current === undefined) {
        const start = COPY_START.exec(line);
        if (start) current = start[2];
        return;
      }
      if (line === '\\.') {
        current = undefined;
        return;
      }
      counts.set(current, (counts.get(current) ?? 0) + 1);
      if (current === 'schema_migrations') {
        const [version, name] = line.split('\t');
        recorded.push({ version: Number(version), name: name ?? '' });
      }
    },
  }).catch((error: Error) => {
    throw damaged(file, error.message);
  });
  const tables = [...counts].map(([table, rows]) => ({ table, rows })).sort((a, b) => a.table.localeCompare(b.table));
  return {
    kind: 'postgres',
    tables,
    ...schemaOf(file, counts.has('schema_migrations') ? recorded : undefined, tables, postgresMigrations),
    ...(schema ? { schema } : {}),
  };
}
