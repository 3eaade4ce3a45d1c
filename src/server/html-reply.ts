// How a route that answers with a page (the owner's dashboard, the link pages) reads a form and replies.
import type { FastifyReply } from 'fastify';

export function html(reply: FastifyReply, markup: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(markup);
}

/** A text field of a url-encoded form, trimmed; '' when absent. */
export function fieldOf(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
}
