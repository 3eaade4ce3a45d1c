// Signing owners in and out: the sign-in page sends a one-time link (the same answer whether or not
// the address is an owner's), the link's page signs in with a POST, and a session cookie follows.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/open-database.js';
import {
  clearSessionCookie,
  OWNER_EMAIL,
  sameOrigin,
  SECRET_PATTERN,
  SESSION_COOKIE,
  setSessionCookie,
  SIGN_IN_LINK_LIFETIME_MS,
  signInLink,
} from './owner-auth.js';
import { newSecret, secretHash } from '../secrets.js';
import { ownerWords } from './owner-words.js';
import {
  badSignInLinkPage,
  forbiddenPage,
  linkSentPage,
  signInLinkPage,
  signInPage,
  signedOutPage,
} from './sign-in-pages.js';
import { fieldOf, html } from '../html-reply.js';
import { requireOwner } from './require-owner.js';
import type { SignInMailer } from './sign-in-mailer.js';

export interface SignInRouteOptions {
  owners: Db['owners'];
  /** The site's address: a POST's Origin may be it, and sign-in links point to it. */
  siteUrl: string;
  /** Sends sign-in links; absent when email is not set up (owner:link prints one instead). */
  mailer?: SignInMailer | undefined;
  /** Counts a sign-in attempt against the connection's allowance (memory or Redis); false once used up. */
  allowSignIn: (request: FastifyRequest) => Promise<boolean>;
}

type TokenParams = { Params: { token: string } };

export const signInRoutes: FastifyPluginAsync<SignInRouteOptions> = async (
  app,
  { owners, siteUrl, mailer, allowSignIn },
) => {
  /** The attempt counts against this connection's allowance; false (and the page said so) when it is used up. */
  const withinLimit = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    if (await allowSignIn(request)) return true;
    html(reply, signInPage({ error: 'too_many' }), 429);
    return false;
  };

  /** Makes a one-time link for this address if it is an owner's, and emails it. */
  const sendLinkIfOwner = async (email: string): Promise<void> => {
    const owner = await owners.byEmail(email);
    if (!owner) return;
    const token = newSecret();
    await owners.createLink(owner.id, secretHash(token), SIGN_IN_LINK_LIFETIME_MS);
    if (!mailer) {
      app.log.warn('an owner asked for a sign-in link, but email is not set up: use sudo scamsavvy owner:link');
      return;
    }
    const sent = await mailer.send(owner, signInLink(siteUrl, token));
    if (sent.sent) return;
    if (sent.busy)
      app.log.info('an owner asked for a sign-in link while one was being sent to them: only that one goes');
    else app.log.error(`an owner's sign-in link could not be sent: ${sent.reason}`);
  };

  app.get<{ Querystring: { idle?: string } }>('/owner/sign-in', async (request, reply) =>
    html(reply, signInPage(request.query.idle === '1' ? { notice: 'idle' } : {})),
  );

  app.post('/owner/sign-in', async (request, reply) => {
    if (!sameOrigin(request, siteUrl)) return html(reply, forbiddenPage(), 403);
    if (!(await withinLimit(request, reply))) return reply;
    const email = fieldOf(request.body, 'email');
    if (!OWNER_EMAIL.test(email)) return html(reply, signInPage({ error: 'invalid', email }), 400);
    // Looked up, and the link made and sent, after the answer: an owner's address is answered as
    // fast as anyone else's, with the same words (issue 54: no timing tells who the owner is).
    setImmediate(() => {
      sendLinkIfOwner(email).catch((error: unknown) =>
        request.log.error({ err: error }, 'owner sign-in link could not be made or sent'),
      );
    });
    return reply.redirect('/owner/sign-in/sent', 303);
  });

  app.get('/owner/sign-in/sent', async (_request, reply) => html(reply, linkSentPage()));

  app.get<TokenParams>('/owner/sign-in/:token', async (request, reply) => {
    const { token } = request.params;
    if (!SECRET_PATTERN.test(token) || !(await owners.linkUsable(secretHash(token))))
      return html(reply, badSignInLinkPage(), 404);
    return html(reply, signInLinkPage(token));
  });

  app.post<TokenParams>('/owner/sign-in/:token', async (request, reply) => {
    if (!sameOrigin(request, siteUrl)) return html(reply, forbiddenPage(), 403);
    if (!(await withinLimit(request, reply))) return reply;
    const { token } = request.params;
    const session = newSecret();
    const owner = SECRET_PATTERN.test(token) ? await owners.useLink(secretHash(token), secretHash(session)) : undefined;
    if (!owner) return html(reply, badSignInLinkPage(), 404);
    setSessionCookie(request, reply, session);
    await owners.audit({ ownerEmail: owner.email, action: 'signed_in', detail: ownerWords.audit.signedInDetail });
    return reply.redirect('/owner', 303);
  });

  // Signing out needs a session like any other page: without one, it is the sign-in page.
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };

  app.post('/owner/sign-out', page, async (request, reply) => {
    const secret = request.cookies[SESSION_COOKIE];
    if (secret) await owners.endSession(secretHash(secret));
    clearSessionCookie(request, reply);
    return html(reply, signedOutPage());
  });
};
