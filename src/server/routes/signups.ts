// POST /api/signups: validates with the shared schema, stores, answers 201 once the write is durable.
import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import { describeSignupIssues, looksAutomated, signupInputSchema } from '../../shared/signup-schema.js';
import { AppError } from '../errors.js';
import type { SignupStore } from '../storage/signup-store.js';

/** A sign-up is a few hundred bytes; anything much larger is not one. */
export const SIGNUP_BODY_LIMIT_BYTES = 10 * 1024;

const SIGNUP_OK = { status: 'ok' } as const;

export interface SignupRoutesOptions {
  store: SignupStore;
  /** Rate limits, run before the body is looked at. */
  limits: preHandlerAsyncHookHandler[];
}

export const signupRoutes: FastifyPluginAsync<SignupRoutesOptions> = async (app, { store, limits }) => {
  app.post('/api/signups', { bodyLimit: SIGNUP_BODY_LIMIT_BYTES, preHandler: limits }, async (request, reply) => {
    const parsed = signupInputSchema.safeParse(request.body);
    if (!parsed.success) {
      throw new AppError(400, 'validation_failed', 'Some details need attention.', {
        ...describeSignupIssues(parsed.error),
      });
    }
    // A bot gets the same answer as a person, so it learns nothing, and nothing is stored.
    if (looksAutomated(parsed.data)) {
      request.log.info({ trapFilled: Boolean(parsed.data.comments?.trim()), openedForMs: parsed.data.openedForMs }, 'dropped an automated sign-up');
      return reply.code(201).send(SIGNUP_OK);
    }
    await store.add(parsed.data);
    // The answer says nothing about the record: the spec reads it only as success or failure.
    return reply.code(201).send(SIGNUP_OK);
  });
};
