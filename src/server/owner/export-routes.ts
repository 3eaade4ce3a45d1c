// The list as a download, /owner/export.csv and .json: the same safe export as the command,
// streamed, and written in the audit log before any data leaves.
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/open-database.js';
import { exportChunks, type ExportFormat, type StandingReader } from '../signups/signup-export.js';
import { ownerWords } from './owner-words.js';
import { ownerOf, requireOwner } from './require-owner.js';

export interface ExportRouteOptions {
  signups: Db['signups'];
  owners: Db['owners'];
  siteUrl: string;
  /** Where each person stands for the launch (consent/launch-standing.ts); unset without SECRET_KEY. */
  standing?: StandingReader | undefined;
}

export const exportRoutes: FastifyPluginAsync<ExportRouteOptions> = async (
  app,
  { signups, owners, siteUrl, standing },
) => {
  // Data (a file) rather than a page: refused with 401 instead of a redirect to sign-in.
  const data = { preHandler: requireOwner({ owners, siteUrl, refuse: '401' }) };

  for (const format of ['csv', 'json'] as const satisfies ExportFormat[]) {
    app.get(`/owner/export.${format}`, data, async (request, reply) => {
      const owner = ownerOf(request);
      // Written before any data leaves, so an export that breaks half-way is still in the log.
      const people = await signups.count();
      await owners.audit({
        ownerEmail: owner.email,
        action: 'exported',
        detail: ownerWords.audit.exportedDetail(format, people),
      });
      // Streamed as the store reads it, in batches: a million rows never sit in memory, and a
      // cancelled download stops the read.
      const body = Readable.from(exportChunks(signups, format, {}, standing));
      body.on('error', (error) => request.log.error({ err: error }, 'export failed part-way'));
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="scamsavvy-signups-${day}.${format}"`)
        .send(body);
    });
  }
};
