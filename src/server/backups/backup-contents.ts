// Reads a backup file and checks it: is it a backup of this product, is it whole, what does it hold.
// The same check runs on every copy before it gets its final name, and before any restore.
import { open } from 'node:fs/promises';
import { postgresMigrations } from '../db/postgres-migrations.js';
import { sqliteMigrations } from '../db/sqlite-migrations.js';
import { schemaState, type MigrationInfo } from '../db/migrate.js';
import { BackupError } from '../db/database-errors.js';
import { runPostgresTool } from '../db/postgres-tools.js';
import { readSqliteFile, type TableRows } from '../db/database-inspection.js';

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

function readSqliteBackup(file: string): BackupContents {
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
  return { kind: 'sqlite', tables: read.tables, ...schemaOf(file, read.recorded, read.tables, sqliteMigrations) };
}

/** A TOC line of `pg_restore --list`: "215; 1259 16390 TABLE public signups postgres". */
const TOC_TABLE = /^\d+; \d+ \d+ TABLE (?!DATA )(\S+) (\S+) /;
/** The start of a table's rows in `pg_restore --data-only` output. */
const COPY_START = /^COPY (?:"?([^".\s]+)"?\.)?"?([^"\s(]+)"? .*FROM stdin;$/;

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
