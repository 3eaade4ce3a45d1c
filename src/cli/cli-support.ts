// What the owner's commands share: opening the database with errors a person can act on.
import { checkSecretKey, SecretKeyMismatchError } from '../server/messaging/secret-key-check.js';
import { createInterface } from 'node:readline/promises';
import { realpathSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { pathToFileURL } from 'node:url';
import { loadConfig, type DatabaseConfig } from '../server/config.js';
import { openDatabase, type Db } from '../server/db/open-database.js';
import { NotMigratedError } from '../server/db/database-errors.js';

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
    err.write(`${(error as Error).message}\n\n${usage}\n`);
    return { exitCode: 2 };
  }
  if ((values as { help?: boolean }).help) {
    out.write(`${usage}\n`);
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
    const store = await openDatabase(database, { migrate });
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
    if (code === 'SQLITE_CANTOPEN')
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

/** Runs a command's main function with the exit codes and messages the owner sees. */
export function runCli(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
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
