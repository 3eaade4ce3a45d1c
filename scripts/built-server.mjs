// The one way to start the built server (dist/) for the end-to-end tests, the benchmarks and the
// owner's scripts (screenshots, Lighthouse): on loopback, never reading a .env from the checkout, on
// a temporary SQLite database unless DATABASE_URL is given, and answering before it returns.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clearTimeout } from 'node:timers';

// Hang guards, not speed limits: far above what a start or a stop takes on a busy 2-core machine.
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * @typedef {object} RunningServer
 * @property {string} url where it answers (http://127.0.0.1:PORT)
 * @property {string} base the same, as the scripts name it
 * @property {import('node:child_process').ChildProcess} process
 * @property {() => string} output what it wrote so far (empty when its output is shown instead)
 * @property {() => Promise<number | null>} stop SIGTERM, then its exit code (a stop that hangs is an error)
 */

/**
 * Starts the built server on `port` with `env` over the caller's environment.
 * @param {number} port
 * @param {Record<string, string>} [env]
 * @param {{ nodeArgs?: string[], showOutput?: boolean, cwd?: string }} [options] nodeArgs: Node's own flags
 *   (--cpu-prof …); showOutput: its output goes to the caller's terminal instead of `output()`; cwd:
 *   the checkout whose build to start (another commit's worktree, for bench:page --against).
 * @returns {Promise<RunningServer>}
 */
export async function startBuiltServer(port, env = {}, { nodeArgs = [], showOutput = false, cwd } = {}) {
  const dir = env.DATABASE_URL ? undefined : mkdtempSync(path.join(tmpdir(), 'scamsavvy-server-'));
  const child = spawn(process.execPath, [...nodeArgs, 'dist/node/server/index.js'], {
    ...(cwd ? { cwd } : {}),
    env: {
      ...process.env,
      ENV_FILE: '', // a .env in the checkout never reaches a test's, a benchmark's or a script's server
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...(dir ? { DATABASE_URL: `sqlite:${dir}/signups.db` } : {}),
      ...env,
    },
    stdio: showOutput ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk) => (output += chunk.toString()));
  // 'close', not 'exit': by then everything the server wrote has been read into `output`.
  const exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  const removeDir = () => dir && rmSync(dir, { recursive: true, force: true });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      removeDir();
      throw new Error(`The server on port ${port} exited: ${output}`);
    }
    try {
      if ((await fetch(`${url}/`)).ok) break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        removeDir();
        throw new Error(`The server on port ${port} did not start within ${START_TIMEOUT_MS} ms: ${output}`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    base: url,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        // A graceful stop takes at most the 5 s grace; one that hangs is a bug worth seeing.
        let timer;
        const hung = new Promise((resolve) => (timer = setTimeout(() => resolve('hung'), STOP_TIMEOUT_MS)));
        const result = await Promise.race([exited, hung]);
        clearTimeout(timer);
        if (result === 'hung') {
          child.kill('SIGKILL');
          await exited;
          removeDir();
          throw new Error(
            `The server on port ${port} did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM:\n${output}`,
          );
        }
      }
      removeDir();
      return child.exitCode;
    },
  };
}
