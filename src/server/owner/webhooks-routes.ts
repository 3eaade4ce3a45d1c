// The owner's webhooks page, /owner/webhooks (issue 56): list, make (the secret shown once, in the
// POST's answer only), send a test, resume, delete. Every change is in the audit log.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Db } from '../db/open-database.js';
import { fieldOf, html } from '../html-reply.js';
import {
  endpointEvents,
  endpointName,
  endpointUrl,
  endpointWords,
  isWebhookKind,
  makeEndpoint,
  removeEndpoint,
  resumeEndpoint,
} from '../webhooks/webhook-endpoints.js';
import { WebhookSender } from '../webhooks/webhook-sender.js';
import { webhooksPage, webhooksWords, type WebhooksPageOptions } from './webhooks-page.js';
import { ownerOf, requireOwner } from './require-owner.js';

export interface WebhookRouteOptions {
  owners: Db['owners'];
  db: Pick<Db, 'webhooks' | 'outbox' | 'subscribers' | 'signups'>;
  siteUrl: string;
  /** Told when an endpoint is made here. */
  onEndpointMade?: () => void;
}

/** The form's ticked boxes: one value, several, or none. */
function listOf(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((item): item is string => typeof item === 'string').slice(0, 20);
}

export const webhookRoutes: FastifyPluginAsync<WebhookRouteOptions> = async (
  app,
  { owners, db, siteUrl, onEndpointMade },
) => {
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };
  const stores = { webhooks: db.webhooks, owners };
  const show = async (reply: FastifyReply, options: Omit<WebhooksPageOptions, 'endpoints'>, status = 200) => {
    const endpoints = await Promise.all(
      (await db.webhooks.list()).map(async (endpoint) => ({
        endpoint,
        waiting: await db.webhooks.waiting(endpoint.id),
        deliveries: await db.webhooks.deliveries(endpoint.id, 5),
      })),
    );
    return html(reply, webhooksPage({ ...options, endpoints }), status);
  };

  app.get('/owner/webhooks', page, async (request, reply) => show(reply, { ownerEmail: ownerOf(request).email }));

  app.post('/owner/webhooks', page, async (request, reply) => {
    const ownerEmail = ownerOf(request).email;
    const body = request.body;
    const typed = {
      name: fieldOf(body, 'name').slice(0, 200),
      url: fieldOf(body, 'url').slice(0, 2100),
      kind: fieldOf(body, 'kind') || 'standard',
      events: listOf(body, 'events'),
      personal: fieldOf(body, 'personal') === 'yes',
    };
    const again = (problem: string) => show(reply, { ownerEmail, problem, typed }, 400);
    const name = endpointName(typed.name);
    if (!name) return again(endpointWords.nameRule);
    const url = endpointUrl(typed.url);
    if (!url) return again(endpointWords.urlRule);
    if (!isWebhookKind(typed.kind)) return again(endpointWords.kindRule);
    if (typed.kind === 'slack' && typed.personal) return again(endpointWords.slackPersonal);
    const chosen = endpointEvents(typed.events.join(','), typed.kind);
    if ('problem' in chosen) return again(chosen.problem);
    const made = await makeEndpoint(stores, {
      name,
      kind: typed.kind,
      url,
      events: chosen.events,
      withPersonalData: typed.personal,
      by: ownerEmail,
    });
    if (made === 'name_taken') return again(endpointWords.nameTaken(name));
    onEndpointMade?.();
    return show(
      reply,
      { ownerEmail, made: { name, ...(typed.kind === 'standard' ? { secret: made.secret } : {}) } },
      201,
    );
  });

  app.post('/owner/webhooks/test', page, async (request, reply) => {
    const ownerEmail = ownerOf(request).email;
    const endpoint = await db.webhooks.byName(endpointName(fieldOf(request.body, 'name')) ?? '');
    if (!endpoint)
      return show(reply, { ownerEmail, problem: endpointWords.notFound(fieldOf(request.body, 'name')) }, 404);
    const withSecret = await db.webhooks.forSending(endpoint.id);
    const result = await new WebhookSender({ db, logger: request.log }).sendTest(withSecret!);
    const notice = result.ok
      ? webhooksWords.tested(endpoint.name, result.answer)
      : webhooksWords.testFailed(endpoint.name, result.answer);
    return show(reply, { ownerEmail, notice });
  });

  for (const [path, act, said] of [
    ['resume', resumeEndpoint, webhooksWords.resumed],
    ['delete', removeEndpoint, webhooksWords.deleted],
  ] as const)
    app.post(`/owner/webhooks/${path}`, page, async (request, reply) => {
      const ownerEmail = ownerOf(request).email;
      const name = endpointName(fieldOf(request.body, 'name'));
      if (!name || !(await act(stores, name, ownerEmail)))
        return show(reply, { ownerEmail, problem: endpointWords.notFound(fieldOf(request.body, 'name')) }, 404);
      return show(reply, { ownerEmail, notice: said(name) });
    });
};
