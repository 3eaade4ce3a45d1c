// The owner session check, the one place it lives: every owner route but the sign-in pages runs it
// before its handler, and says per route how a refused request is answered.
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Owner } from '../db/owner-repository.js';
import type { Db } from '../db/open-database.js';
import {
  clearSessionCookie,
  sameOrigin,
  SECRET_PATTERN,
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  SIGN_IN_PATH,
} from './owner-auth.js';
import { secretHash } from '../secrets.js';
import { html } from '../html-reply.js';
import { forbiddenPage } from './sign-in-pages.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in owner, set by requireOwner. */
    owner?: Owner;
  }
}

/**
 * How a request without a live session is answered: a page, or a form's POST (a session that ran
 * out mid-task), goes to the sign-in page; data (JSON, a file) that a script or a download asked
 * for gets 401, which it can act on, instead of a sign-in page it cannot show.
 */
export type Refusal = 'redirect' | '401';

export interface RequireOwnerOptions {
  owners: Db['owners'];
  /** The site's address: a POST's Origin may be it. */
  siteUrl: string;
  refuse: Refusal;
  /** A page's own background poll: it is let in like any request, but never keeps the session alive. */
  background?: boolean;
}

type OwnerCheck = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** The checks requireOwner made, so the dashboard can tell at start-up that a route has one. */
const checks = new WeakSet<OwnerCheck>();

/**
 * A preHandler hook that lets a request through only with a live session cookie (idle and absolute
 * expiry are the store's), and a change (any method but GET) only from one of our own pages.
 */
export function requireOwner({ owners, siteUrl, refuse, background = false }: RequireOwnerOptions): OwnerCheck {
  const check: OwnerCheck = async (request, reply) => {
    const secret = request.cookies[SESSION_COOKIE];
    const valid = secret !== undefined && SECRET_PATTERN.test(secret);
    const owner = valid ? await owners.session(secretHash(secret), SESSION_IDLE_MS, { touch: !background }) : undefined;
    if (!owner) {
      // A session that ran out while idle says so on the sign-in page (a poll's 401 says it too).
      const idle = valid && (await owners.sessionEnded(secretHash(secret), SESSION_IDLE_MS)) === 'idle';
      if (secret) clearSessionCookie(request, reply);
      if (refuse === 'redirect') return reply.redirect(idle ? `${SIGN_IN_PATH}?idle=1` : SIGN_IN_PATH, 303);
      return reply.code(401).send({
        error: { code: idle ? 'idle' : 'signed_out', message: `Sign in at ${SIGN_IN_PATH}.` },
      });
    }
    if (request.method !== 'GET' && !sameOrigin(request, siteUrl)) return html(reply, forbiddenPage(), 403);
    request.owner = owner;
    return undefined;
  };
  checks.add(check);
  return check;
}

/** True when the route runs requireOwner before its handler. */
export function runsRequireOwner(route: Pick<RouteOptions, 'preHandler'>): boolean {
  const hooks = Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
  return hooks.some((hook) => typeof hook === 'function' && checks.has(hook as OwnerCheck));
}

/** The owner requireOwner let in; a route that forgot the check fails loudly instead of serving. */
export function ownerOf(request: FastifyRequest): Owner {
  if (!request.owner) throw new Error('An owner route ran without the session check (requireOwner).');
  return request.owner;
}
