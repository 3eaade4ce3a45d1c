// Starts extra copies of the built server for tests that need more than the one Playwright runs.
import { spawn, type ChildProcess } from 'node:child_process';

export interface RunningServer {
  url: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

// Hang guards, not speed limits: far above what a start or a stop takes on a busy 2-core machine.
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

export async function startServer(port: number, env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, ['dist/node/server/index.js'], {
    // ENV_FILE empty: a .env in the checkout never reaches a test's server.
    env: { ...process.env, ENV_FILE: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  // 'close', not 'exit': by then everything the server wrote has been read into `output`.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server on port ${port} exited: ${output}`);
    try {
      if ((await fetch(`${url}/`)).ok) break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`The server on port ${port} did not start within ${START_TIMEOUT_MS} ms: ${output}`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      // A graceful stop takes at most the 5 s grace; one that hangs is a bug worth seeing, not a silent timeout.
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), STOP_TIMEOUT_MS)));
      const result = await Promise.race([exited, hung]);
      clearTimeout(timer);
      if (result !== 'hung') return result;
      child.kill('SIGKILL');
      await exited;
      throw new Error(`The server on port ${port} did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM:\n${output}`);
    },
  };
}
