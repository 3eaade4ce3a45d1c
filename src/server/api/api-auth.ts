// Who may use the API (issue 56): a request carries an API key the owner made (Authorization: Bearer
// ssk_…), over https unless it comes from this computer. A write needs a key of scope write. Each key
// has its own allowance per minute. The key's name is what the audit log says did each thing.
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ApiKey } from '../db/api-keys-repository.js';
import type { Db } from '../db/open-database.js';
import type { ApiScope } from '../db/api-keys.table.js';
import { API_KEY_PATTERN, apiKeyHash } from './api-keys.js';
import { Problem } from './problem.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a request under /api/v1 was let in with. */
    apiKey?: ApiKey;
  }
}

/** 127.0.0.0/8 and ::1, also written as IPv4 in IPv6. */
export function isLoopback(ip: string): boolean {
  return /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(ip) || ip === '::1';
}

export const apiAuthWords = {
  missing:
    'Send an API key: Authorization: Bearer ssk_… (the owner makes one on the dashboard or with sudo scamsavvy api-keys create).',
  unknown: 'This API key is not known, or it was revoked.',
  plainHttp:
    'API keys work only over https (or from this computer). This key crossed the network unencrypted: revoke it and make another.',
  needsWrite: 'This key may only read. Adding or deleting people needs a key made with --scope write.',
  tooMany: (perMinute: number) =>
    `This key has made more than ${perMinute} requests this minute. Wait a minute and try again.`,
};

export interface ApiAuthOptions {
  keys: Pick<Db['apiKeys'], 'use'>;
  /** Counts the request against its key's allowance; false once it is used up (request-rate-limits.ts apiKeyLimit). */
  allow: (request: FastifyRequest) => Promise<boolean>;
  perMinute: number;
}

/** The pre-handler for a route that needs `scope` (a write key may also read). */
export function requireApiKey({ keys, allow, perMinute }: ApiAuthOptions, scope: ApiScope): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!given) {
      reply.header('www-authenticate', 'Bearer realm="scamsavvy"');
      throw new Problem(401, 'key_missing', 'Unauthorized', apiAuthWords.missing);
    }
    // Refused before it is looked up: a key sent in the clear is not honoured, whoever sent it.
    if (request.protocol !== 'https' && !isLoopback(request.ip))
      throw new Problem(403, 'https_required', 'Forbidden', apiAuthWords.plainHttp);
    const key = API_KEY_PATTERN.test(given) ? await keys.use(apiKeyHash(given)) : undefined;
    if (!key) {
      reply.header('www-authenticate', 'Bearer realm="scamsavvy", error="invalid_token"');
      throw new Problem(401, 'key_unknown', 'Unauthorized', apiAuthWords.unknown);
    }
    request.apiKey = key;
    if (!(await allow(request))) {
      reply.header('retry-after', '60');
      throw new Problem(429, 'rate_limited', 'Too many requests', apiAuthWords.tooMany(perMinute));
    }
    if (scope === 'write' && key.scope !== 'write')
      throw new Problem(403, 'needs_write_scope', 'Forbidden', apiAuthWords.needsWrite);
  };
}

/** The key a request was let in with (its pre-handler ran). */
export function apiKeyOf(request: FastifyRequest): ApiKey {
  if (!request.apiKey) throw new Error('requireApiKey did not run for this route');
  return request.apiKey;
}
