// The owner's API keys page, /owner/api-keys (issue 56): list, make (the key shown once, in the
// answer to the POST, never in a link or a later page), and revoke.
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/open-database.js';
import { apiKeyName, apiKeyWords, isApiScope, makeApiKey, revokeApiKey } from '../api/api-keys.js';
import { fieldOf, html } from '../html-reply.js';
import { apiKeysPage } from './api-keys-page.js';
import { ownerOf, requireOwner } from './require-owner.js';

export interface ApiKeyRouteOptions {
  owners: Db['owners'];
  apiKeys: Db['apiKeys'];
  siteUrl: string;
}

export const apiKeyRoutes: FastifyPluginAsync<ApiKeyRouteOptions> = async (app, { owners, apiKeys, siteUrl }) => {
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };
  const stores = { owners, apiKeys };

  app.get<{ Querystring: { revoked?: string } }>('/owner/api-keys', page, async (request, reply) => {
    const revoked = apiKeyName(request.query.revoked);
    return html(
      reply,
      apiKeysPage({
        ownerEmail: ownerOf(request).email,
        keys: await apiKeys.list(),
        siteUrl,
        ...(revoked ? { revoked } : {}),
      }),
    );
  });

  app.post('/owner/api-keys', page, async (request, reply) => {
    const owner = ownerOf(request);
    const typed = { name: fieldOf(request.body, 'name').slice(0, 200), scope: fieldOf(request.body, 'scope') };
    const name = apiKeyName(typed.name);
    const again = async (problem: string) =>
      html(reply, apiKeysPage({ ownerEmail: owner.email, keys: await apiKeys.list(), siteUrl, problem, typed }), 400);
    if (!name) return again(apiKeyWords.nameRule);
    if (!isApiScope(typed.scope)) return again(apiKeyWords.scopeRule);
    const made = await makeApiKey(stores, { name, scope: typed.scope, by: owner.email });
    if (made === 'name_taken') return again(apiKeyWords.nameTaken(name));
    // The key is in this answer only: reloading it asks the browser to send the form again, which
    // makes no second key under a taken name.
    return html(
      reply,
      apiKeysPage({ ownerEmail: owner.email, keys: await apiKeys.list(), siteUrl, made: { name, key: made.key } }),
      201,
    );
  });

  app.post('/owner/api-keys/revoke', page, async (request, reply) => {
    const owner = ownerOf(request);
    const name = apiKeyName(fieldOf(request.body, 'name'));
    if (name) await revokeApiKey(stores, name, owner.email);
    return reply.redirect(name ? `/owner/api-keys?revoked=${encodeURIComponent(name)}` : '/owner/api-keys', 303);
  });
};
