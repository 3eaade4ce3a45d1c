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

export function runBackupCommand(
  command: string,
  file: string,
  { signal, timeoutMs = BACKUP_COMMAND_TIMEOUT_MS }: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', backupCommandLine(command, file)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BACKUP_FILE: file },
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
      const output = said.trim().split('\n').slice(-3).join(' ').replace(/\s+/g, ' ');
      const how = killed ? `was stopped (${killed})` : `failed with exit code ${code}`;
      reject(new BackupError(`BACKUP_COMMAND ${how}${output ? `: ${output}` : ''}`));
    });
  });
}
