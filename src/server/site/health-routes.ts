// For load balancers: /api/health says the process is up, /api/ready that the database answers.
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/open-database.js';

export const healthRoutes: FastifyPluginAsync<{ db: Pick<Db, 'ping'> }> = async (app, { db }) => {
  app.get('/api/health', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  app.get('/api/ready', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await db.ping();
      return reply.send({ status: 'ready' });
    } catch (error) {
      request.log.warn({ err: (error as Error).message }, 'not ready: the database does not answer');
      return reply.code(503).header('retry-after', '5').send({ status: 'unavailable' });
    }
  });
};
