// The one error type the API answers with, and the one handler that turns every error into it:
// Fastify's own client errors in words a caller can act on, anything unexpected a plain 500.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}

/** Fastify's own client errors, in words a caller can act on. */
const clientErrors: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'body_too_large', message: 'The request is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Send JSON (content-type: application/json).',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad_request', message: 'The request is malformed.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The request body is empty.' },
};

/** The app's error handler: a 4xx says what to fix; a 5xx never shows internals (they go to the log). */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) return reply.code(error.status).send(error.toJSON());
  const known = error.code ? clientErrors[error.code] : undefined;
  if (known) return reply.code(known.status).send(new AppError(known.status, known.code, known.message).toJSON());
  if (error instanceof SyntaxError || (error.statusCode === 400 && error.code?.startsWith('FST_ERR_CTP'))) {
    return reply.code(400).send(new AppError(400, 'invalid_json', 'The request body is not valid JSON.').toJSON());
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return reply
      .code(error.statusCode)
      .send(new AppError(error.statusCode, 'bad_request', 'The request was refused.').toJSON());
  }
  request.log.error({ err: error }, 'request failed');
  return reply
    .code(500)
    .send(new AppError(500, 'internal_error', 'Something went wrong on our side. Please try again.').toJSON());
}
