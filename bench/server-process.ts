// Starting and stopping the server processes a benchmark drives (the production server or a bare one).
import type { ChildProcess } from 'node:child_process';

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
