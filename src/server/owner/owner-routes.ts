// The owner's pages under /owner (docs/owner-guide.md, decision 024). Only the sign-in pages answer
// without a session; every other page redirects to sign-in and every data answer is 401. Every
// change is a POST from one of our own pages; nothing here is cached by anyone or indexed.
import { Readable } from 'node:stream';
import cookie from '@fastify/cookie';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { broadcastProgress } from '../broadcast/broadcast-progress.js';
import type { BroadcastControl } from '../broadcast/broadcast-control.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import {
  clearSessionCookie,
  sameOrigin,
  SECRET_PATTERN,
  secretHash,
  SESSION_COOKIE,
  SESSION_IDLE_MS,
} from './owner-auth.js';
import { ownerWords } from './owner-words.js';
import type { SignInMailer } from './sign-in-mailer.js';
import { maskEmail } from '../consent/link-page-routes.js';
import { auditPage } from './audit-page.js';
import {
  BROADCAST_ACTIONS,
  broadcastMissingPage,
  broadcastPage,
  broadcastsPage,
  confirmActionPage,
  type BroadcastAction,
} from './broadcast-pages.js';
import { overviewPage } from './overview-page.js';
import {
  deleteQuestionPage,
  peoplePage,
  personMissingPage,
  personPage,
  SEARCH_LIMIT,
} from './people-pages.js';
import { forbiddenPage, signedOutPage } from './sign-in-pages.js';
import { fieldOf, html } from './owner-reply.js';
import { exportChunks, type ExportFormat } from '../signups/signup-export.js';
import type { Owner } from '../db/owner-repository.js';
import type { Broadcast } from '../db/outbox-repository.js';
import type { Db } from '../db/open-database.js';
import { signInRoutes } from './owner-sign-in-routes.js';

export interface OwnerRouteOptions {
  store: Db;
  subscriptions: Subscriptions;
  /** The site's address: a POST's Origin may be it, and sign-in links point to it. */
  siteUrl: string;
  /** Sends sign-in links; absent when email is not set up (owner:link prints one instead). */
  mailer?: SignInMailer;
  /** Launch day from the browser; absent without SECRET_KEY (nothing can be sent then). */
  control?: BroadcastControl;
  /** The owner's script (/assets/owner-….js), from the build's manifest; absent in API tests. */
  script?: string;
  /** Counts a sign-in attempt against the connection's allowance (memory or Redis); false once used up. */
  allowSignIn: (request: FastifyRequest) => Promise<boolean>;
}

/** The days the overview's chart and funnel cover, and how many sources and campaigns it lists. */
const OVERVIEW_DAYS = 30;
const OVERVIEW_TOP = 10;
const AUDIT_ROWS = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in owner, set by the owner pages' session check. */
    owner?: Owner;
  }
}

/** A data answer (JSON, a file) rather than a page: refused with 401 instead of a redirect. */
const isDataRoute = (url: string) => {
  const path = url.split('?')[0] ?? '';
  return path.endsWith('/progress') || /\/export\.(csv|json)$/.test(path);
};

export const ownerRoutes: FastifyPluginAsync<OwnerRouteOptions> = async (app, options) => {
  const { store, siteUrl } = options;
  await app.register(cookie);
  await app.register(formBody, { bodyLimit: 8 * 1024 });

  // Personal data: never kept by a browser's back button or any cache, never indexed, never sent on as a referrer.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex, nofollow');
    reply.header('referrer-policy', 'no-referrer');
  });

  signInRoutes(app, options);

  await app.register(async (signedIn) => {
    signedIn.decorateRequest('owner', undefined);
    signedIn.addHook('preHandler', async (request, reply) => {
      const secret = request.cookies[SESSION_COOKIE];
      const owner =
        secret && SECRET_PATTERN.test(secret)
          ? await store.owners.session(secretHash(secret), SESSION_IDLE_MS)
          : undefined;
      if (!owner) {
        if (secret) clearSessionCookie(request, reply);
        // A page, or a form's POST (a session that ran out mid-task): to the sign-in page.
        if (!isDataRoute(request.url)) return reply.redirect('/owner/sign-in', 303);
        return reply.code(401).send({ error: { code: 'signed_out', message: 'Sign in at /owner/sign-in.' } });
      }
      if (request.method !== 'GET' && !sameOrigin(request, siteUrl)) return html(reply, forbiddenPage(), 403);
      request.owner = owner;
    });
    dashboardRoutes(signedIn, options);
    broadcastRoutes(signedIn, options);
  });
};

const ownerOf = (request: FastifyRequest): Owner => {
  if (!request.owner) throw new Error('An owner route ran without the session check.');
  return request.owner;
};

function dashboardRoutes(app: FastifyInstance, { store, subscriptions }: OwnerRouteOptions): void {
  const audit = store.owners.audit.bind(store.owners);

  app.get('/owner', async (request, reply) => {
    const now = new Date();
    const [stats, funnel] = await Promise.all([
      store.signups.stats({ days: OVERVIEW_DAYS, top: OVERVIEW_TOP, now }),
      store.events.funnel({ days: OVERVIEW_DAYS, now }),
    ]);
    return html(reply, overviewPage({ stats, funnel, days: OVERVIEW_DAYS, now, ownerEmail: ownerOf(request).email }));
  });

  app.get<{ Querystring: { q?: string; deleted?: string } }>('/owner/people', async (request, reply) => {
    const owner = ownerOf(request);
    const query = (request.query.q ?? '').trim().slice(0, 200);
    const deleted = maskedOnly(request.query.deleted);
    if (!query) return html(reply, peoplePage({ ownerEmail: owner.email, query, ...(deleted ? { deleted } : {}) }));
    const digits = query.replace(/\D/g, '');
    if (query.length < 3 && digits.length < 4)
      return html(reply, peoplePage({ ownerEmail: owner.email, query, tooShort: true }), 400);
    const results = await store.consent.search(query, SEARCH_LIMIT + 1);
    await audit({
      ownerEmail: owner.email,
      action: 'searched',
      detail: ownerWords.audit.searchedDetail(
        query,
        Math.min(results.length, SEARCH_LIMIT),
        results.length > SEARCH_LIMIT,
      ),
    });
    return html(reply, peoplePage({ ownerEmail: owner.email, query, results }));
  });

  const person = async (id: string) => (UUID.test(id) ? store.consent.subscriber(id) : undefined);

  app.get<{ Params: { id: string } }>('/owner/people/:id', async (request, reply) => {
    const owner = ownerOf(request);
    const found = await person(request.params.id);
    if (!found) return html(reply, personMissingPage(owner.email), 404);
    await audit({
      ownerEmail: owner.email,
      action: 'viewed_person',
      subject: found.id,
      detail: maskEmail(found.email),
    });
    const history = await store.consent.history(found.id);
    return html(reply, personPage({ ownerEmail: owner.email, person: found, history }));
  });

  app.get<{ Params: { id: string } }>('/owner/people/:id/delete', async (request, reply) => {
    const owner = ownerOf(request);
    const found = await person(request.params.id);
    if (!found) return html(reply, personMissingPage(owner.email), 404);
    return html(reply, deleteQuestionPage({ ownerEmail: owner.email, person: found }));
  });

  app.post<{ Params: { id: string } }>('/owner/people/:id/delete', async (request, reply) => {
    const owner = ownerOf(request);
    const found = await person(request.params.id);
    if (!found) return html(reply, personMissingPage(owner.email), 404);
    const removed = await subscriptions.remove(found.id, 'owner');
    if (!removed) return html(reply, personMissingPage(owner.email), 404);
    const masked = maskEmail(found.email);
    await audit({ ownerEmail: owner.email, action: 'deleted_person', subject: found.id, detail: masked });
    return reply.redirect(`/owner/people?deleted=${encodeURIComponent(masked)}`, 303);
  });

  for (const format of ['csv', 'json'] as const satisfies ExportFormat[]) {
    app.get(`/owner/export.${format}`, async (request, reply) => {
      const owner = ownerOf(request);
      // Written before any data leaves, so an export that breaks half-way is still in the log.
      const people = await store.signups.count();
      await audit({
        ownerEmail: owner.email,
        action: 'exported',
        detail: ownerWords.audit.exportedDetail(format, people),
      });
      // Streamed as the store reads it, in batches: a million rows never sit in memory, and a
      // cancelled download stops the read.
      const body = Readable.from(exportChunks(store, format));
      body.on('error', (error) => request.log.error({ err: error }, 'export failed part-way'));
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="scamsavvy-signups-${day}.${format}"`)
        .send(body);
    });
  }

  app.get('/owner/audit', async (request, reply) =>
    html(reply, auditPage({ ownerEmail: ownerOf(request).email, entries: await store.owners.auditLog(AUDIT_ROWS) })),
  );

  app.post('/owner/sign-out', async (request, reply) => {
    const secret = request.cookies[SESSION_COOKIE];
    if (secret) await store.owners.endSession(secretHash(secret));
    clearSessionCookie(request, reply);
    return html(reply, signedOutPage());
  });
}

type BroadcastParams = { Params: { name: string; action?: string }; Querystring: { to?: string; done?: string } };

function broadcastRoutes(app: FastifyInstance, { store, control, script }: OwnerRouteOptions): void {
  const words = ownerWords.broadcasts;
  const stateLabel = (state: string) => words.states[state] ?? state;

  /** A broadcast's page with its progress now, and what just happened or went wrong. */
  const pageOf = async (
    owner: Owner,
    broadcast: Broadcast,
    said: { notice?: string | undefined; problem?: string | undefined },
  ) =>
    broadcastPage({
      ownerEmail: owner.email,
      broadcast,
      progress: await broadcastProgress(store.outbox, broadcast),
      ...(script ? { script } : {}),
      ...(said.notice ? { notice: said.notice } : {}),
      ...(said.problem ? { problem: said.problem } : {}),
    });

  app.get('/owner/broadcasts', async (request, reply) => {
    const all = await store.outbox.list();
    const broadcasts = await Promise.all(
      all.map(async (broadcast) => ({ broadcast, progress: await broadcastProgress(store.outbox, broadcast) })),
    );
    return html(reply, broadcastsPage({ ownerEmail: ownerOf(request).email, broadcasts }));
  });

  app.get<BroadcastParams>('/owner/broadcasts/:name', async (request, reply) => {
    const owner = ownerOf(request);
    const broadcast = await store.outbox.get(request.params.name);
    if (!broadcast) return html(reply, broadcastMissingPage(owner.email), 404);
    const done = request.query.done;
    const notice =
      done === 'test' && maskedOnly(request.query.to)
        ? words.doneTest(maskedOnly(request.query.to) ?? '')
        : done === 'send' || done === 'resume' || done === 'pause'
          ? words.done[done]
          : undefined;
    const missing = control?.missingChannels(broadcast) ?? [];
    const problem = !control
      ? words.noSecretKey
      : missing.length > 0
        ? words.notSetUp(missing.join(' and '))
        : undefined;
    return html(reply, await pageOf(owner, broadcast, { notice, problem }));
  });

  app.get<BroadcastParams>('/owner/broadcasts/:name/progress', async (request, reply) => {
    const broadcast = await store.outbox.get(request.params.name);
    if (!broadcast) return reply.code(404).send({ error: { code: 'not_found', message: 'No such broadcast.' } });
    const progress = await broadcastProgress(store.outbox, broadcast);
    return reply.send({ ...progress, stateLabel: stateLabel(progress.state) });
  });

  const isAction = (value: string | undefined): value is BroadcastAction =>
    (BROADCAST_ACTIONS as readonly string[]).includes(value ?? '');

  app.get<BroadcastParams>('/owner/broadcasts/:name/:action', async (request, reply) => {
    const owner = ownerOf(request);
    const { action } = request.params;
    const broadcast = await store.outbox.get(request.params.name);
    if (!broadcast || !isAction(action)) return html(reply, broadcastMissingPage(owner.email), 404);
    const to = (request.query.to ?? '').trim();
    if (action === 'test' && !to) return reply.redirect(`/owner/broadcasts/${encodeURIComponent(broadcast.name)}`, 303);
    const counts = await store.outbox.counts(broadcast.id);
    const question =
      action === 'test'
        ? words.confirm.test(to)
        : action === 'send'
          ? words.confirm.send(broadcast.name, counts.total)
          : action === 'resume'
            ? words.confirm.resume(broadcast.name)
            : words.confirm.pause(broadcast.name);
    return html(
      reply,
      confirmActionPage({ ownerEmail: owner.email, broadcast, action, question, ...(to ? { to } : {}) }),
    );
  });

  app.post<BroadcastParams>('/owner/broadcasts/:name/:action', async (request, reply) => {
    const owner = ownerOf(request);
    const { action } = request.params;
    const broadcast = await store.outbox.get(request.params.name);
    if (!broadcast || !isAction(action)) return html(reply, broadcastMissingPage(owner.email), 404);
    const back = (query: string) =>
      reply.redirect(`/owner/broadcasts/${encodeURIComponent(broadcast.name)}?${query}`, 303);
    if (!control) return back('');
    const to = fieldOf(request.body, 'to');
    try {
      if (action === 'test') await control.test(broadcast, to);
      else if (action === 'pause') await control.pause(broadcast);
      else await control.send(broadcast);
    } catch (error) {
      return html(reply, await pageOf(owner, broadcast, { problem: (error as Error).message }), 409);
    }
    await store.owners.audit({
      ownerEmail: owner.email,
      action: 'broadcast',
      subject: broadcast.name,
      detail: ownerWords.audit.broadcastDetail(action, action === 'test' ? maskAddress(to) : ''),
    });
    return back(action === 'test' ? `done=test&to=${encodeURIComponent(maskAddress(to))}` : `done=${action}`);
  });
}

/**
 * A masked address from a redirect's query string ("ro•••@example.com", "a phone ending 4567"), or
 * undefined: a crafted link cannot make a notice say anything else.
 */
function maskedOnly(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^[^\s•@]{0,2}•••@[^\s@]{1,253}$/.test(value) || /^a phone ending \d{4}$/.test(value) ? value : undefined;
}

/** An email masked as on the link pages, or a phone number's last four digits. */
function maskAddress(to: string): string {
  return to.includes('@') ? maskEmail(to) : `a phone ending ${to.replace(/\D/g, '').slice(-4)}`;
}
