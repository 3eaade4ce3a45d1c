// The pages the links in messages open: /confirm/…, /preferences/…, /unsubscribe/…. A GET only
// shows a page (mail scanners open every link); only a POST behind a button changes anything, then
// redirects to the page that says what happened (decisions/019).
import formBody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { linkPageWords } from '../../shared/messaging-content.js';
import type { LinkPurpose, LinkSigner } from '../messaging/link-tokens.js';
import type { Subscriptions } from '../messaging/subscriptions.js';
import {
  badLinkPage,
  confirmPage,
  deleteQuestionPage,
  noticePage,
  preferencesPage,
  unsubscribePage,
} from '../pages/link-pages.js';
import { preferencesOf } from '../storage/messaging-store.js';

export interface LinkPageOptions {
  subscriptions: Subscriptions;
  links: LinkSigner;
  siteUrl: string;
}

type TokenParams = { Params: { token: string } };

/** "ro•••@example.com": enough for someone to know it is theirs, not enough for a stranger to read it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '•••';
  return `${email.slice(0, Math.min(2, at))}•••${email.slice(at)}`;
}

const phoneEnd = (phone: string) => phone.replace(/\D/g, '').slice(-4);

/** Form fields: a box that is ticked is sent, one that is not is absent. */
function ticked(body: unknown, name: string): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const value = (body as Record<string, unknown>)[name];
  return value === 'on' || (Array.isArray(value) && value.includes('on'));
}

function html(reply: FastifyReply, markup: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(markup);
}

export const linkPageRoutes: FastifyPluginAsync<LinkPageOptions> = async (app, { subscriptions, links }) => {
  // Form bodies here only (the JSON API still answers 415 to them). RFC 8058's one-click POST may be
  // multipart or anything else: its body carries nothing we need, so any other type is read and ignored.
  await app.register(formBody, { bodyLimit: 8 * 1024 });
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, _body, done) => done(null, {}));

  // Personal pages: never stored by a cache, never indexed, the token never sent on as a referrer.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex');
    reply.header('referrer-policy', 'no-referrer');
  });

  const idFor = (purpose: LinkPurpose, token: string) => links.verify(purpose, token);
  const preferencesPath = (id: string) => `/preferences/${links.sign('manage', id)}`;

  app.get<TokenParams>('/confirm/:token', async (request, reply) => {
    const id = idFor('confirm', request.params.token);
    const subscriber = id ? await subscriptions.subscriber(id) : undefined;
    if (!id || !subscriber) return html(reply, badLinkPage(), 404);
    return html(
      reply,
      confirmPage({ confirmed: subscriber.confirmedAt !== null, preferencesUrl: preferencesPath(id) }),
    );
  });

  app.post<TokenParams>('/confirm/:token', async (request, reply) => {
    const id = idFor('confirm', request.params.token);
    if (!id) return html(reply, badLinkPage(), 404);
    const result = await subscriptions.store.confirm(id, 'confirm_page');
    if (result === 'missing') return html(reply, badLinkPage(), 404);
    return reply.redirect(`/confirm/${request.params.token}`, 303);
  });

  app.get<TokenParams & { Querystring: { done?: string } }>('/preferences/:token', async (request, reply) => {
    const id = idFor('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(), 404);
    const subscriber = await subscriptions.subscriber(id);
    const { done } = request.query;
    if (!subscriber) {
      const { preferences } = linkPageWords;
      return done === 'deleted'
        ? html(reply, noticePage(preferences.deleted))
        : html(reply, noticePage(preferences.nothingHeld), 404);
    }
    const preferences = preferencesOf(subscriber);
    // On in the record, yet the number said STOP since: texts stay off until it says START.
    const smsStopped = preferences.sms && !(await subscriptions.mayContact(subscriber, 'sms'));
    return html(
      reply,
      preferencesPage({
        preferences: { ...preferences, sms: preferences.sms && !smsStopped },
        smsStopped,
        email: maskEmail(subscriber.email),
        phoneEnd: phoneEnd(subscriber.phone),
        ...(done === 'saved' || done === 'left' ? { done } : {}),
        path: `/preferences/${request.params.token}`,
      }),
    );
  });

  app.post<TokenParams>('/preferences/:token', async (request, reply) => {
    const id = idFor('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(), 404);
    const wanted = {
      email: ticked(request.body, 'email'),
      sms: ticked(request.body, 'sms'),
      beta: ticked(request.body, 'beta'),
    };
    const updated = await subscriptions.updatePreferences(id, wanted, 'preferences_page');
    if (!updated) return html(reply, noticePage(linkPageWords.preferences.nothingHeld), 404);
    return reply.redirect(`/preferences/${request.params.token}?done=saved`, 303);
  });

  app.post<TokenParams>('/preferences/:token/leave', async (request, reply) => {
    const id = idFor('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(), 404);
    if (!(await subscriptions.leave(id, 'preferences_page')))
      return html(reply, noticePage(linkPageWords.preferences.nothingHeld), 404);
    return reply.redirect(`/preferences/${request.params.token}?done=left`, 303);
  });

  app.post<TokenParams>('/preferences/:token/delete', async (request, reply) => {
    const id = idFor('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(), 404);
    const path = `/preferences/${request.params.token}`;
    const confirmed = (request.body as Record<string, unknown> | undefined)?.confirm === 'yes';
    if (!confirmed) {
      if (!(await subscriptions.subscriber(id)))
        return html(reply, noticePage(linkPageWords.preferences.nothingHeld), 404);
      return html(reply, deleteQuestionPage({ path }));
    }
    await subscriptions.remove(id, 'preferences_page');
    return reply.redirect(`${path}?done=deleted`, 303);
  });

  app.get<TokenParams>('/unsubscribe/:token', async (request, reply) => {
    const id = idFor('manage', request.params.token);
    const subscriber = id ? await subscriptions.subscriber(id) : undefined;
    if (!id || !subscriber) return html(reply, badLinkPage(), 404);
    return html(reply, unsubscribePage({ done: false, preferencesUrl: preferencesPath(id) }));
  });

  // RFC 8058 one-click: a mail app's POST (no cookie, no login) or our own page's button.
  app.post<TokenParams>('/unsubscribe/:token', async (request, reply) => {
    const id = idFor('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(), 404);
    const updated = await subscriptions.updatePreferences(id, { email: false }, 'one_click_unsubscribe');
    if (!updated) return html(reply, badLinkPage(), 404);
    return html(reply, unsubscribePage({ done: true, preferencesUrl: preferencesPath(id) }));
  });
};
