// Starts a module of ours in a worker thread: the compiled JavaScript in production; in tests, which
// run the TypeScript source, the source through tsx.
import { Worker } from 'node:worker_threads';

/** `name` is the module's file name without extension, beside the caller (`callerUrl` is its import.meta.url). */
export function startWorkerThread(callerUrl: string, name: string, workerData: unknown): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), { workerData });
  const source = JSON.stringify(new URL(`./${name}.ts`, callerUrl).href);
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); })`;
  return new Worker(boot, { eval: true, workerData });
}
