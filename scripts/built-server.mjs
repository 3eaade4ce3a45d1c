// Starts the built server on a temporary SQLite database for the owner's scripts (screenshots, Lighthouse).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Resolves once the server answers; `stop()` ends it and removes its database. */
export async function startBuiltServer(port, env = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-script-'));
  const server = spawn(process.execPath, ['dist/node/server/index.js'], {
    env: {
      ...process.env,
      ENV_FILE: '', // a .env in the checkout never reaches a measured server
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${dir}/signups.db`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: 'inherit',
  });
  const stop = () => {
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      if (tries > 50) {
        stop();
        throw new Error('The server did not start.');
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { base, stop };
}
