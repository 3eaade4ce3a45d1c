// How the owner's routes answer with a page.
import type { FastifyReply } from 'fastify';

export function html(reply: FastifyReply, markup: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(markup);
}
