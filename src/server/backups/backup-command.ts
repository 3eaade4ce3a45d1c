// BACKUP_COMMAND: the owner's own command that takes each new backup off the machine (rclone, aws s3
// cp, scp), run by the shell with the file's path; its failure is reported, never hidden.
import { spawn } from 'node:child_process';
import { BackupError } from '../db/database-errors.js';

/** Longer than any copy off the machine should take; the command is stopped then, and that is reported. */
export const BACKUP_COMMAND_TIMEOUT_MS = 3_600_000;

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** `{file}` in the command is replaced by the path (quoted); without it, the path is added at the end. */
export function backupCommandLine(command: string, file: string): string {
  return command.includes('{file}') ? command.replaceAll('{file}', quote(file)) : `${command} ${quote(file)}`;
}

/**
 * What the command may see of our environment (decision 041): PATH, HOME, BACKUP_FILE and the
 * variables BACKUP_COMMAND_ENV names, never SECRET_KEY, the database's password or a provider's key.
 */
export function backupCommandEnv(file: string, passEnv: string[], from: NodeJS.ProcessEnv = process.env) {
  const env: NodeJS.ProcessEnv = { BACKUP_FILE: file };
  for (const name of ['PATH', 'HOME', ...passEnv]) if (from[name] !== undefined) env[name] = from[name];
  return env;
}

/** Longest stretch of what the command said that is kept, shown on the dashboard and in the record. */
export const BACKUP_OUTPUT_CHARACTERS = 300;

/**
 * What the command said, cut to its end and scrubbed of anything that looks like a secret: the
 * values of the variables it was given, `key=…`/`token: …`-like pairs, credentials in URLs, and
 * long unbroken tokens.
 */
export function scrubbedOutput(said: string, secrets: string[]): string {
  let text = said.trim().split('\n').slice(-3).join(' ').replace(/\s+/g, ' ');
  for (const secret of secrets) if (secret.length >= 6) text = text.replaceAll(secret, '[hidden]');
  text = text
    .replace(/(\/\/[^\s:/@]+:)[^\s@/]+@/g, '$1[hidden]@')
    .replace(
      /\b([\w-]*(?:key|secret|token|password|passwd|pwd|credential|auth)[\w-]*\s*[=:]\s*)("[^"]*"|'[^']*'|\S+)/gi,
      '$1[hidden]',
    )
    .replace(/[A-Za-z0-9+/_=-]{32,}/g, '[hidden]');
  return text.length > BACKUP_OUTPUT_CHARACTERS ? `…${text.slice(-BACKUP_OUTPUT_CHARACTERS)}` : text;
}

export function runBackupCommand(
  command: string,
  file: string,
  {
    signal,
    timeoutMs = BACKUP_COMMAND_TIMEOUT_MS,
    passEnv = [],
  }: { signal?: AbortSignal; timeoutMs?: number; passEnv?: string[] } = {},
): Promise<void> {
  const env = backupCommandEnv(file, passEnv);
  const secrets = passEnv.map((name) => env[name] ?? '');
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', backupCommandLine(command, file)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
      timeout: timeoutMs,
      ...(signal ? { signal } : {}),
    });
    let said = '';
    const keep = (chunk: Buffer) => (said = (said + chunk.toString('utf8')).slice(-2000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => reject(new BackupError(`BACKUP_COMMAND could not run: ${error.message}`)));
    child.on('close', (code, killed) => {
      if (code === 0) return resolve();
      const output = scrubbedOutput(said, secrets);
      const how = killed ? `was stopped (${killed})` : `failed with exit code ${code}`;
      reject(new BackupError(`BACKUP_COMMAND ${how}${output ? `: ${output}` : ''}`));
    });
  });
}
