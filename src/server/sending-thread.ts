// The server's own messages are sent from a thread of their own (sending-thread-worker.ts, issue 54):
// the job runner here still says when each kind's job runs (at its interval, or woken by a sign-up),
// and the thread runs it. A rush of sign-ups then never slows the emails it asks for, and the emails
// never slow the answers: each has its own event loop. A thread that dies fails the runs it held
// (the runner tries them again) and the next run starts another.
import type { Worker } from 'node:worker_threads';
import type { Config } from './config.js';
import type { JobRun } from './jobs/job-runner.js';
import { startWorkerThread } from './worker-thread.js';

/** What the server asks the thread: run a job (`run`, with the id its answer carries), or stop. */
export type SendingRequest = { id: number; run: string } | { stop: true };
/** What the thread answers: ready; a run's outcome; or that it has stopped. */
export type SendingAnswer =
  { ready: true } | { id: number; said: string | undefined } | { id: number; error: string } | { stopped: true };

export interface SendingThread {
  /** Resolves once the thread has opened the database and built its senders; rejects if it could not. */
  ready: Promise<void>;
  /** The job `name`, run in the thread: what it did, in a few words. */
  runner(name: string): JobRun;
  /**
   * Lets the runs under way finish (their stop is asked), then ends the thread; one still busy after
   * `graceMs` (a mail server that never answers) is ended as it is. True when it finished in time.
   */
  stop(graceMs?: number): Promise<boolean>;
}

/**
 * How long a stopping server waits for the messages in flight (well inside systemd's 90 s). A message
 * cut off in flight is tried again after its lease, as after a crash (docs/architecture.md).
 */
export const STOP_GRACE_MS = 20_000;

export function startSendingThread(config: Config): SendingThread {
  let worker: Worker | undefined;
  let next = 0;
  const waiting = new Map<number, { resolve: (said: string | undefined) => void; reject: (error: Error) => void }>();
  let stopped: (() => void) | undefined;
  let isReady: (() => void) | undefined;
  let notReady: ((error: Error) => void) | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    isReady = resolve;
    notReady = reject;
  });
  ready.catch(() => undefined); // a caller that never waits for it is told by the runs instead

  const started = (): Worker => {
    if (worker) return worker;
    const thread = startWorkerThread(import.meta.url, 'sending-thread-worker', { config });
    thread.on('message', (message: SendingAnswer) => {
      if ('ready' in message) return isReady?.();
      if ('stopped' in message) return stopped?.();
      if (!('id' in message)) return;
      const run = waiting.get(message.id);
      waiting.delete(message.id);
      if ('error' in message) run?.reject(new Error(message.error));
      else run?.resolve(message.said);
    });
    const ended = (why: string) => {
      if (worker === thread) worker = undefined;
      for (const [id, run] of waiting) {
        run.reject(new Error(why));
        waiting.delete(id);
      }
      stopped?.();
      notReady?.(new Error(why));
    };
    thread.on('error', (error) => ended(`the sending thread failed: ${error.message}`));
    thread.on('exit', (code) => ended(`the sending thread stopped (${code})`));
    worker = thread;
    return thread;
  };

  const post = (thread: Worker, request: SendingRequest) => thread.postMessage(request);
  // Started now, so the first sign-up's email does not wait for the thread to load and open the database.
  started();

  return {
    ready,
    runner: (name) => async (signal) => {
      const thread = started();
      // The server is stopping: the thread is asked to stop too (its runs end after what is in flight).
      const onStop = () => post(thread, { stop: true });
      signal.addEventListener('abort', onStop, { once: true });
      try {
        return await new Promise<string | undefined>((resolve, reject) => {
          const id = (next += 1);
          waiting.set(id, { resolve, reject });
          post(thread, { id, run: name });
        });
      } finally {
        signal.removeEventListener('abort', onStop);
      }
    },
    async stop(graceMs = STOP_GRACE_MS) {
      const thread = worker;
      if (!thread) return true;
      let timer: NodeJS.Timeout | undefined;
      const inTime = await Promise.race([
        new Promise<boolean>((resolve) => {
          stopped = () => resolve(true);
          post(thread, { stop: true });
        }),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
      ]);
      clearTimeout(timer);
      worker = undefined;
      await thread.terminate();
      return inTime;
    },
  };
}
