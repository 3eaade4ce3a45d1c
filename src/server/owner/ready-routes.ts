// /owner/ready: the launch checks, made when the page is asked for (a few DNS and Twilio questions).
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/open-database.js';
import type { ReadyCheck } from '../ready/ready-check.js';
import { readyPage } from './ready-page.js';
import { html } from '../html-reply.js';
import { ownerOf, requireOwner } from './require-owner.js';

export interface ReadyRouteOptions {
  owners: Db['owners'];
  siteUrl: string;
  /** Makes the checks now (compose.ts gives it the settings, the database, DNS and Twilio). */
  checks: () => Promise<ReadyCheck[]>;
}

export const readyRoutes: FastifyPluginAsync<ReadyRouteOptions> = async (app, { owners, siteUrl, checks }) => {
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };
  app.get('/owner/ready', page, async (request, reply) =>
    html(reply, readyPage({ ownerEmail: ownerOf(request).email, checks: await checks() })),
  );
};
