// /owner/suppressions: the suppression list and its way back (decision 037). GET the list (filtered
// by reason, since and code), GET the question before lifting, POST the lift: audit-logged by the
// way back itself, then the list again by a GET, saying how many were lifted.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Db } from '../db/open-database.js';
import type { SuppressionReason } from '../db/suppressions.table.js';
import { fieldOf, html } from '../html-reply.js';
import { LIFTABLE, NotLiftable, REASONS, type SuppressionFilter, type WayBack } from '../suppressions/way-back.js';
import { ownerWords } from './owner-words.js';
import { ownerOf, requireOwner } from './require-owner.js';
import { filterQuery, liftQuestionPage, suppressionsPage } from './suppressions-page.js';

export interface SuppressionRouteOptions {
  owners: Db['owners'];
  siteUrl: string;
  /** Absent without SECRET_KEY: the list's keyed hashes cannot be read then. */
  wayBack?: WayBack;
}

/** The filter from a query string or a form; anything unreadable is left out (and the list shows more, never less). */
function filterFrom(read: (name: string) => string): SuppressionFilter {
  const reason = read('reason');
  const since = read('since');
  const code = read('code').trim().slice(0, 20);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(since) ? new Date(`${since}T00:00:00Z`) : undefined;
  return {
    ...(REASONS.includes(reason as SuppressionReason) ? { reason: reason as SuppressionReason } : {}),
    ...(day && !Number.isNaN(day.getTime()) ? { since: day } : {}),
    ...(code ? { code } : {}),
  };
}

const fromQuery = (request: FastifyRequest) => (name: string) => {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
};

export const suppressionRoutes: FastifyPluginAsync<SuppressionRouteOptions> = async (
  app,
  { owners, siteUrl, wayBack },
) => {
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };
  const words = ownerWords.suppressions;

  app.get('/owner/suppressions', page, async (request, reply) => {
    const filter = filterFrom(fromQuery(request));
    const lifted = Number(fromQuery(request)('lifted'));
    return html(
      reply,
      suppressionsPage({
        ownerEmail: ownerOf(request).email,
        filter,
        entries: wayBack ? await wayBack.list(filter) : [],
        unreadable: !wayBack,
        ...(Number.isInteger(lifted) && lifted > 0 ? { notice: words.lifted(lifted) } : {}),
      }),
    );
  });

  app.get('/owner/suppressions/lift', page, async (request, reply) => {
    const filter = filterFrom(fromQuery(request));
    const owner = ownerOf(request);
    const count = wayBack ? (await wayBack.list(filter)).filter((entry) => entry.liftable).length : 0;
    if (filter.reason && !LIFTABLE.includes(filter.reason))
      return html(
        reply,
        suppressionsPage({
          ownerEmail: owner.email,
          filter,
          entries: [],
          problem: new NotLiftable(filter.reason).message,
        }),
        409,
      );
    if (count === 0) return reply.redirect(`/owner/suppressions${filterQuery(filter)}`, 303);
    return html(reply, liftQuestionPage({ ownerEmail: owner.email, filter, count }));
  });

  app.post('/owner/suppressions/lift', page, async (request, reply) => {
    const filter = filterFrom((name) => fieldOf(request.body, name));
    const owner = ownerOf(request);
    if (!wayBack) return reply.redirect('/owner/suppressions', 303);
    try {
      const lifted = await wayBack.lift(filter, { ownerEmail: owner.email });
      return reply.redirect(`/owner/suppressions?lifted=${lifted.length}`, 303);
    } catch (error) {
      if (!(error instanceof NotLiftable)) throw error;
      return html(
        reply,
        suppressionsPage({ ownerEmail: owner.email, filter, entries: [], problem: error.message }),
        409,
      );
    }
  });
};
