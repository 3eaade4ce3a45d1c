// The key and the data belong together, and a restore never writes under a running server (decision
// 041), tried as the owner would: the built server and the built commands, on an SQLite file.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { startBuiltServer } from '../scripts/built-server.mjs';

const run = promisify(execFile);
const KEY = 'the-key-kept-with-the-backups-long-enough-1';
const ANOTHER = 'a-new-machines-freshly-made-key-long-enough-2';

async function command(script: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [`dist/node/cli/${script}.js`, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

test('a restore is refused while the server runs; a server with another SECRET_KEY is refused at start, with what to do', async () => {
  test.setTimeout(120_000); // four starts and a restore: 44 s in a CI run on a slow day
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-key-'));
  try {
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'signups.db')}`,
      SECRET_KEY: KEY,
      RATE_LIMIT_SIGNUPS_PER_MINUTE: '0',
    };
    const server = await startBuiltServer(4387, env);
    try {
      const signedUp = await fetch(`${server.url}/api/signups`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Rosa Díaz',
          phone: '+15551234567',
          email: 'rosa@example.com',
          openedForMs: 5000,
        }),
      });
      expect(signedUp.status).toBe(201);
      const backup = path.join(dir, 'copy.sqlite');
      const made = await command('backup-database', ['--out', backup], env);
      expect(made.code).toBe(0);
      expect(made.stdout).toContain('Keep SECRET_KEY with your backups');

      const refused = await command('restore-database', ['--from', backup, '--replace'], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('The server (or another program) is using');
      expect(refused.stderr).toContain('Stop it first');
    } finally {
      expect(await server.stop()).toBe(0);
    }

    // A new machine, the data restored, and a key made afresh: refused before it serves anyone.
    const wrong = await startBuiltServer(4388, { ...env, SECRET_KEY: ANOTHER }).catch((error: Error) => error);
    expect(wrong).toBeInstanceOf(Error);
    expect((wrong as Error).message).toContain('SECRET_KEY does not match this database');
    expect((wrong as Error).message).not.toContain(KEY);
    const byCommand = await command('export-signups', ['--format', 'json'], { ...env, SECRET_KEY: ANOTHER });
    expect(byCommand.code).toBe(1);
    expect(byCommand.stderr).toContain('SECRET_KEY does not match this database');

    // The server stopped, the restore goes ahead.
    const restored = await command('restore-database', ['--from', path.join(dir, 'copy.sqlite'), '--replace'], env);
    expect(restored.code).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
