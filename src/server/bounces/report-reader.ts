// Reads a message from the bounce mailbox in a worker thread (report-reader-thread.ts), one at a
// time, with a time limit: a message that takes longer is given up on (the thread is ended and a
// new one started for the next), and the mailbox moves it aside with the reason (issue 42).
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../worker-thread.js';
import type { ReadReport } from './parse-mail-report.js';
import type { ReaderSetup } from './report-reader-thread.js';

/** How long reading one message may take: a bounce is read in milliseconds, a 2 MB one in about a second. */
export const READ_TIME_LIMIT_MS = 15_000;

export type ReaderAnswer = ReadReport | { tooSlow: true };

export interface ReportReader {
  read(raw: Buffer): Promise<ReaderAnswer>;
  close(): Promise<void>;
}

export function createReportReader(setup: ReaderSetup, timeLimitMs = READ_TIME_LIMIT_MS): ReportReader {
  let worker: Worker | undefined;
  let next = 0;
  const waiting = new Map<number, (answer: ReaderAnswer | { error: string }) => void>();

  const started = (): Worker => {
    if (worker) return worker;
    const thread = startWorkerThread(import.meta.url, 'report-reader-thread', setup);
    thread.unref();
    thread.on('message', ({ id, ...answer }: { id: number } & ({ report: ReadReport } | { error: string })) => {
      waiting.get(id)?.('report' in answer ? answer.report : answer);
      waiting.delete(id);
    });
    // A thread that dies answers everything it held as an error; the next read starts another.
    const ended = (why: string) => {
      if (worker === thread) worker = undefined;
      for (const [id, answer] of waiting) {
        answer({ error: why });
        waiting.delete(id);
      }
    };
    thread.on('error', (error) => ended(error.message));
    thread.on('exit', (code) => ended(`the reading thread stopped (${code})`));
    worker = thread;
    return thread;
  };

  return {
    async read(raw) {
      const thread = started();
      const id = (next += 1);
      const answer = await new Promise<ReaderAnswer | { error: string } | 'too slow'>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve('too slow');
        }, timeLimitMs);
        waiting.set(id, (result) => {
          clearTimeout(timer);
          resolve(result);
        });
        thread.postMessage({ id, raw: new Uint8Array(raw) });
      });
      if (answer === 'too slow') {
        // Whatever it is doing, it stops: the next message gets a fresh thread.
        if (worker === thread) worker = undefined;
        await thread.terminate();
        return { tooSlow: true };
      }
      if ('error' in answer) throw new Error(answer.error);
      return answer;
    },
    async close() {
      const thread = worker;
      worker = undefined;
      await thread?.terminate();
    },
  };
}
