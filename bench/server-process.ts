// Starting and stopping the server processes a benchmark drives (the production server or a bare one).
import type { ChildProcess } from 'node:child_process';
import { startBuiltServer } from '../scripts/built-server.mjs';
import type { DatabaseConfig } from '../src/server/config.js';

/** Resolves once the process answers at `url`; fails if it exits first or never answers. */
export async function waitForServer(child: ChildProcess, url: string): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}.`);
    try {
      await fetch(url, { method: 'HEAD' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('The server did not start.');
}

/** Stops the process with SIGTERM and waits for it to exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The built production server on `port`, on this database, its rate limits lifted (one client sends
 * everything), started and answering (scripts/built-server.mjs, as the tests and scripts start it);
 * `env` adds or overrides settings.
 */
export async function startProductionServer(
  port: number,
  database: DatabaseConfig,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  // BENCH_SERVER_NODE_ARGS: Node's own flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
  // to see where its time goes (written when it stops).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = await startBuiltServer(
    port,
    {
      DATABASE_URL: database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url,
      SITE_URL: `http://127.0.0.1:${port}`,
      SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
      SIGNUP_RATE_LIMIT_PER_HOUR: '0',
      ...env,
    },
    { nodeArgs, showOutput: true },
  );
  return server.process;
}
