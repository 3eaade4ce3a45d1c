// The audit log's page, /owner/audit: the latest things owners did, newest first.
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/open-database.js';
import { auditPage } from './audit-page.js';
import { html } from '../html-reply.js';
import { ownerOf, requireOwner } from './require-owner.js';

export interface AuditRouteOptions {
  owners: Db['owners'];
  siteUrl: string;
}

const AUDIT_ROWS = 200;

export const auditRoutes: FastifyPluginAsync<AuditRouteOptions> = async (app, { owners, siteUrl }) => {
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };

  app.get('/owner/audit', page, async (request, reply) =>
    html(reply, auditPage({ ownerEmail: ownerOf(request).email, entries: await owners.auditLog(AUDIT_ROWS) })),
  );
};
