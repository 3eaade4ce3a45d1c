// The Replies list's page, /owner/replies: the texts no rule acted on, for the owner to read.
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/open-database.js';
import { REPLY_KEEP_DAYS } from '../../shared/kept-days.js';
import { html } from '../html-reply.js';
import { repliesPage } from './replies-page.js';
import { ownerOf, requireOwner } from './require-owner.js';

export interface RepliesRouteOptions {
  owners: Db['owners'];
  replies: Db['smsReplies'];
  siteUrl: string;
}

const REPLY_ROWS = 200;

export const repliesRoutes: FastifyPluginAsync<RepliesRouteOptions> = async (app, { owners, replies, siteUrl }) => {
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };

  app.get('/owner/replies', page, async (request, reply) => {
    const ownerEmail = ownerOf(request).email;
    const latest = await replies.latest(REPLY_ROWS);
    // Their words are people's data: reading them is in the audit log, as a look at a person is.
    if (latest.length > 0) await owners.audit({ ownerEmail, action: 'read_replies', detail: `${latest.length}` });
    return html(reply, repliesPage({ ownerEmail, replies: latest, keepDays: REPLY_KEEP_DAYS }));
  });
};
