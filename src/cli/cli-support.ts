// What the owner's commands share: opening the database with errors a person can act on.
import { checkSecretKey, SecretKeyMismatchError } from '../server/messaging/secret-key-check.js';
import { createInterface } from 'node:readline/promises';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { pathToFileURL } from 'node:url';
import { loadConfig, type DatabaseConfig } from '../server/config.js';
import { loadSettingsFiles } from '../server/settings-files.js';
import { COMMAND_BUSY_TIMEOUT_MS, openDatabase, type Db } from '../server/db/open-database.js';
import { NotMigratedError } from '../server/db/database-errors.js';

/**
 * Every usage text shows a command as the owner types it on the server docs/production.md sets up
 * (the deploy/ wrapper); this line, printed after it, says the same command's form in a development
 * checkout.
 */
export const ON_YOUR_COMPUTER =
  'In the project folder on your own computer: npm run --silent COMMAND -- OPTIONS (docs/commands.md).';

export class CliError extends Error {}

/** Where a command writes: standard output and error, or a test's collectors. */
export interface Output {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
}

/** Where a command writes: the terminal, unless a test gives its own. */
export const TERMINAL: Output = { out: process.stdout, err: process.stderr };

type Flags = NonNullable<ParseArgsConfig['options']>;
type FlagValues<T extends Flags> = ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true }>>['values'];

/**
 * Reads a command's flags (T includes `help`). A mistake prints the problem and the usage (exit 2);
 * --help prints the usage (exit 0); either way the command then stops with that exit code.
 */
export function readFlags<const T extends Flags>(
  args: string[],
  options: T,
  usage: string,
  { out, err }: Output = TERMINAL,
): { values: FlagValues<T> } | { exitCode: number } {
  let values: FlagValues<T>;
  try {
    // Every command takes --help (-h): it prints the usage.
    ({ values } = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    err.write(`${(error as Error).message}\n\n${usage}\n${ON_YOUR_COMPUTER}\n`);
    return { exitCode: 2 };
  }
  if ((values as { help?: boolean }).help) {
    out.write(`${usage}\n${ON_YOUR_COMPUTER}\n`);
    return { exitCode: 0 };
  }
  return { values };
}

/** "the SQLite file …" or "PostgreSQL at host:port/db": where a command reads and writes. */
export function describe(database: DatabaseConfig): string {
  if (database.kind === 'sqlite') return `the SQLite file ${database.file}`;
  const url = new URL(database.url);
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/** Opens the store DATABASE_URL names, turning the usual failures into one clear sentence. */
export async function openStoreForCli({ migrate = false } = {}): Promise<{ store: Db; where: string }> {
  const { database, messaging } = loadConfig();
  const where = describe(database);
  try {
    // A command waits its turn while the server writes (a launch send): busy is not an error.
    const store = await openDatabase(database, { migrate, busyTimeoutMs: COMMAND_BUSY_TIMEOUT_MS });
    try {
      await checkSecretKey(store.secretKeys, messaging);
    } catch (error) {
      await store.close();
      throw error;
    }
    return { store, where };
  } catch (error) {
    if (error instanceof SecretKeyMismatchError) throw new CliError(error.message);
    const { code, message } = error as { code?: string; message: string };
    if (error instanceof NotMigratedError) throw new CliError(`${where} is not set up yet. ${error.message}`);
    // better-sqlite3 says a missing folder with a TypeError of its own, a missing file with SQLITE_CANTOPEN.
    if (code === 'SQLITE_CANTOPEN' || (database.kind === 'sqlite' && /directory does not exist/.test(message)))
      throw new CliError(
        `There is no database at ${where}. Check DATABASE_URL, or start the server once to create it.`,
      );
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || /timeout/i.test(message)) {
      throw new CliError(
        `Could not reach ${where} (${code ?? message}). Is the database running, and is DATABASE_URL right?`,
      );
    }
    if (code === '3D000') throw new CliError(`${where} does not exist. Create the database, or check DATABASE_URL.`);
    if (code === '28P01' || code === '28000')
      throw new CliError(`${where} refused the login. Check the user and password in DATABASE_URL.`);
    throw error;
  }
}

/**
 * Runs a command's main function with the exit codes and messages the owner sees, after reading the
 * settings files as the server does (server/settings-files.ts).
 */
export function runCli(main: (argv: string[]) => Promise<number>): void {
  Promise.resolve()
    .then(() => {
      loadSettingsFiles();
      return main(process.argv.slice(2));
    })
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        process.stderr.write(
          error instanceof CliError || error instanceof Error ? `${error.message}\n` : `${String(error)}\n`,
        );
        process.exitCode = 1;
      },
    );
}

/** `--since`: a day (2026-11-01, midnight UTC) or a full ISO 8601 time. */
export function parseSince(value: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw new CliError(`--since must be a date such as 2026-11-01, not "${value}".`);
  return date;
}

/** Asks the owner at the keyboard, "yes" to go on; false where nobody can answer (not a terminal). */
export async function confirmedAtKeyboard(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await prompt.question(question)).trim().toLowerCase() === 'yes';
  } finally {
    prompt.close();
  }
}

/** True when node was asked to run the file at `moduleUrl` (import.meta.url), not when a test imports it. */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && moduleUrl === pathToFileURL(realpathSync(script)).href;
}

/**
 * A file the owner named, where they meant it: relative to the folder they ran the command in (npm
 * runs it in the project's folder and says where it was called from in INIT_CWD; deploy/scamsavvy
 * says it in CALLER_DIR), not the project's.
 */
export function ownerPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.CALLER_DIR || env.INIT_CWD || process.cwd(), file);
}

/** Who the command runs as: the user a file must be readable or writable by. */
function runningAs(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/**
 * A file that could not be read or written, in one sentence: which file, why, and what to do;
 * never a stack trace. Anything else is handed back as it is.
 */
export function fileProblem(error: unknown, file: string, doing: 'read' | 'write'): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const user = runningAs();
  const wrapped = Boolean(process.env.SETTINGS_FILE);
  const elsewhere = wrapped
    ? `Commands run through sudo scamsavvy run as ${user}: use a folder it may ${doing === 'write' ? 'write' : 'read'}, such as /var/backups/scamsavvy or /tmp, then move the file as yourself.`
    : `Use a ${doing === 'write' ? 'folder' : 'file'} ${user} may ${doing === 'write' ? 'write in' : 'read'}, or give it the right to.`;
  const reasons: Record<string, string> = {
    EACCES: `${user} may not ${doing} it. ${elsewhere}`,
    EPERM: `${user} may not ${doing} it. ${elsewhere}`,
    ENOENT:
      doing === 'write'
        ? `the folder ${path.dirname(file)} does not exist. Create it, or name a file in a folder that does.`
        : 'there is no such file. Check the name and the folder.',
    ENOTDIR: 'part of the path is a file, not a folder. Check the path.',
    EISDIR: `it is a folder. Name a file${doing === 'write' ? ' in it' : ''}.`,
    ENOSPC: 'the disk is full. Free some space, or write to another disk.',
    EROFS: 'that disk is read-only. Write to another folder.',
    EEXIST: 'a file of that name is there already. Name another, or move that one.',
  };
  const reason = code ? reasons[code] : undefined;
  return reason ? new CliError(`Could not ${doing} ${file}: ${reason}`) : error;
}

/**
 * Why this file cannot be read (or written, in its folder), in one sentence; undefined when it can.
 * Asked before the work starts, so nothing is half done.
 */
export function cannotUse(file: string, doing: 'read' | 'write'): string | undefined {
  try {
    if (doing === 'read') accessSync(file, constants.R_OK);
    else {
      const parent = path.dirname(file);
      if (!statSync(parent).isDirectory()) throw Object.assign(new Error(`${parent} is a file`), { code: 'ENOTDIR' });
      accessSync(parent, constants.W_OK);
    }
    return undefined;
  } catch (error) {
    const problem = fileProblem(error, file, doing);
    if (problem instanceof CliError) return problem.message;
    throw problem;
  }
}

/** The file the owner named (`ownerPath`), and why it cannot be read or written there, if it cannot. */
export function ownerFile(given: string, doing: 'read' | 'write'): { file: string; problem: string | undefined } {
  const file = ownerPath(given);
  return { file, problem: cannotUse(file, doing) };
}
