// POST /api/events: the page's first-party analytics beacon. Parsed strictly, answered 204 at once,
// written a moment later; nothing about the visitor (address, browser, cookie) is kept or logged.
import type { FastifyBaseLogger, FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import { eventBatchSchema } from '../../shared/analytics-events.js';
import { AppError } from '../errors.js';
import { StoreUnavailableError } from '../db/database-errors.js';
import type { EventsRepository } from '../db/events-repository.js';

/** A full beacon (50 events) is about 8 KB; anything much larger is not from our page. */
export const EVENTS_BODY_LIMIT_BYTES = 16 * 1024;

const MAX_PROBLEMS = 10;
const MAX_PROBLEM_LENGTH = 200;

export interface EventRoutesOptions {
  events: Pick<EventsRepository, 'record'>;
  /** Rate limits, run before the body is looked at. */
  limits: preHandlerAsyncHookHandler[];
}

export const eventRoutes: FastifyPluginAsync<EventRoutesOptions> = async (app, { events, limits }) => {
  const writes = writeFailureLog(app.log);
  app.post(
    '/api/events',
    {
      bodyLimit: EVENTS_BODY_LIMIT_BYTES,
      preHandler: limits,
      // Fastify's lines per request (written at LOG_LEVEL=debug) carry the client's address: not here.
      logLevel: 'warn',
    },
    async (request, reply) => {
      const parsed = eventBatchSchema.safeParse(request.body);
      if (!parsed.success) {
        throw new AppError(400, 'invalid_events', 'The event batch is not valid.', {
          problems: describeProblems(parsed.error),
        });
      }
      // Answered before the write: sendBeacon neither reads the answer nor retries, so a 503 would
      // tell no one. A failed write drops the batch, and the log says so once.
      events.record(parsed.data.events).then(writes.succeeded, writes.failed);
      return reply.code(204).send();
    },
  );
};

/** One line per problem (`events[0].params: Unrecognized key: "email"`), a few at most, kept short. */
function describeProblems(error: z.ZodError): string[] {
  return error.issues.slice(0, MAX_PROBLEMS).map((issue) => {
    const where = issue.path.reduce<string>(
      (path, key) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${String(key)}` : String(key)),
      '',
    );
    return `${where || 'body'}: ${issue.message}`.slice(0, MAX_PROBLEM_LENGTH);
  });
}

/**
 * Logs the first failed write of a run and, when writes work again, how many batches were dropped:
 * two lines per outage, not one per beacon.
 */
function writeFailureLog(log: FastifyBaseLogger) {
  let failingSince: number | undefined;
  let dropped = 0;
  return {
    succeeded: () => {
      if (failingSince === undefined) return;
      log.info(
        { downForMs: Date.now() - failingSince, droppedBatches: dropped },
        'analytics events are being stored again',
      );
      failingSince = undefined;
      dropped = 0;
    },
    failed: (error: unknown) => {
      dropped += 1;
      if (failingSince !== undefined) return;
      failingSince = Date.now();
      log.error(
        error instanceof StoreUnavailableError ? { reason: error.reason } : { err: error },
        'could not store analytics events: dropping them until writes work again',
      );
    },
  };
}
