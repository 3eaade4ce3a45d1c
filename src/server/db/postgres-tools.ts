// PostgreSQL's own tools, pg_dump and pg_restore, run as child processes: found or explained, and
// their failures turned into sentences (decision 040).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BackupError } from './database-errors.js';

const INSTALL_HINT =
  'Install PostgreSQL\'s client tools, the same major version as the server or newer (Debian and Ubuntu: "sudo apt install postgresql-client").';

/**
 * How the tools reach the database: the URL without its password on the command line (which every
 * user of the machine can read in the process list), the password in PGPASSWORD.
 */
export function connectionFor(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  // libpq reads %20 as a space but not "+", which URLSearchParams writes (options=-c+search_path=…).
  url.search = [...url.searchParams]
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

export interface ToolRun {
  /** Added to this process's environment for the tool (PGPASSWORD). */
  env?: NodeJS.ProcessEnv;
  /** Called with each line the tool writes to its standard output (when given, the output is not kept). */
  onLine?: (line: string) => void;
  /** Stops the tool (SIGTERM) when aborted. */
  signal?: AbortSignal;
}

/** Runs pg_dump, pg_restore or psql to the end; resolves with what it printed, rejects with a BackupError that says why. */
export function runPostgresTool(
  tool: 'pg_dump' | 'pg_restore' | 'psql',
  args: string[],
  run: ToolRun = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...run.env },
      ...(run.signal ? { signal: run.signal } : {}),
    });
    let output = '';
    let errors = '';
    if (run.onLine) createInterface({ input: child.stdout }).on('line', run.onLine);
    else child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') reject(new BackupError(`${tool} is not installed on this machine. ${INSTALL_HINT}`));
      else if (error.name === 'AbortError') reject(new BackupError(`${tool} was stopped before it finished.`));
      else reject(new BackupError(`${tool} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(output);
      const said = errors.trim().split('\n').slice(-3).join(' ').replace(/\s+/g, ' ');
      const hint = /version mismatch/i.test(said) ? ` ${INSTALL_HINT}` : '';
      reject(
        new BackupError(`${tool} failed (${signal ?? `exit code ${code}`}): ${said || 'it said nothing'}.${hint}`),
      );
    });
  });
}
