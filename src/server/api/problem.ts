// The API's errors as RFC 9457 problem details (application/problem+json): a type that names the
// kind of problem (its code), a title, the status, and a detail saying what to do.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

export const PROBLEM_TYPE_PREFIX = 'urn:scamsavvy:problem:';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The problem's code, as in its type (for clients that switch on a plain word). */
  code: string;
  /** Per field, what to fix (a sign-up that needs attention). */
  fields?: Record<string, string>;
}

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly extra: Pick<ProblemBody, 'fields'> = {},
  ) {
    super(detail);
    this.name = 'Problem';
  }

  body(): ProblemBody {
    return {
      type: `${PROBLEM_TYPE_PREFIX}${this.code}`,
      title: this.title,
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...this.extra,
    };
  }
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply
    .code(problem.status)
    .type('application/problem+json; charset=utf-8')
    .send(JSON.stringify(problem.body()));
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Unavailable',
};

/** Every error under /api/v1, ours or Fastify's, as a problem; a 5xx shows no internals (they go to the log). */
export function problemHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof Problem) return sendProblem(reply, error);
  if (error instanceof AppError) {
    const status = error.status;
    return sendProblem(reply, new Problem(status, error.code, TITLES[status] ?? 'Error', error.message));
  }
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) {
    request.log.error({ err: error }, 'API request failed');
    return sendProblem(
      reply,
      new Problem(500, 'internal_error', TITLES[500] as string, 'Something went wrong on our side. Please try again.'),
    );
  }
  const detail =
    error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? 'The request is too large.'
      : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? 'Send JSON (content-type: application/json).'
        : error instanceof SyntaxError || error.code?.startsWith('FST_ERR_CTP')
          ? 'The request body is not valid JSON.'
          : 'The request was refused.';
  const code =
    error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? 'body_too_large'
      : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? 'unsupported_media_type'
        : 'bad_request';
  return sendProblem(reply, new Problem(status, code, TITLES[status] ?? 'Error', detail));
}
