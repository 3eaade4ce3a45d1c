// The thread the server sends its own messages from (sending-thread.ts starts it): the confirmation
// emails, the phone-change emails, the joining texts and the reminders (with the sweep that sends
// them), each job run here when the server's job runner asks. Their work (reading the record, writing each message, the SMTP and Twilio
// conversations) never waits on the event loop that answers sign-ups, and never holds it up.
import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import type { Config } from './config.js';
import { composeMessaging } from './compose.js';
import { openDatabase } from './db/open-database.js';
import { loggerOptions } from './logger.js';
import type { JobRun } from './jobs/job-runner.js';
import type { SendingAnswer, SendingRequest } from './sending-thread.js';

const { config } = workerData as { config: Config };
const port = parentPort!;
const answer = (message: SendingAnswer) => port.postMessage(message);
const logger = pino(loggerOptions(config.logLevel)).child({ part: 'sending' });

// The server migrated the database before starting this thread: this connection only reads and writes.
const db = await openDatabase(config.database, {
  migrate: false,
  confirmSignups: config.messaging.emailConfirmation,
});
const { messaging } = composeMessaging(config, db);
// Woken by the server's runner, not from here: a sign-up is stored on the server's side.
const runs = new Map<string, JobRun>(messaging.queueJobs(logger, () => undefined).map((job) => [job.name, job.run]));
// The sweep of sign-ups never confirmed sends the one reminder before it: a message of the one sender too.
const { sweepUnconfirmed } = messaging;
if (sweepUnconfirmed) runs.set('unconfirmed-sign-ups', () => sweepUnconfirmed(logger));
const stopping = new AbortController();
const running = new Set<Promise<unknown>>();
let closed: Promise<void> | undefined;

port.on('message', (request: SendingRequest) => {
  if ('stop' in request) {
    // Asked again (by each run's stop, then the server's): one close, each told when it is done.
    stopping.abort();
    closed ??= Promise.allSettled(running)
      .then(() => messaging.stop())
      .then(() => db.close());
    void closed.finally(() => answer({ stopped: true }));
    return;
  }
  const run = runs.get(request.run);
  const done = (run ? run(stopping.signal) : Promise.reject(new Error(`no job ${request.run} here`))).then(
    (said) => answer({ id: request.id, said: said ?? undefined }),
    (error: unknown) => answer({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
  running.add(done);
  void done.finally(() => running.delete(done));
});
answer({ ready: true });
