// The link pages with one button each: the phone-change email's (/change-phone/…) and the one-click
// unsubscribe (/unsubscribe/…, RFC 8058). A GET only shows the page; the POST does the one thing.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Language } from '../../../shared/languages.js';
import type { Subscriber } from '../../db/subscribers-repository.js';
import { html } from '../../html-reply.js';
import { preferencesPath } from '../../messaging/link-urls.js';
import { distinctEnds } from '../../messaging/phone.js';
import { badLinkPage, phoneChangeGonePage, phoneChangePage, unsubscribePage } from './link-pages.js';
import { browserLanguage, type Handlers, type TokenParams } from './link-page-options.js';

/**
 * /change-phone/…: the email a repeat sign-up with another phone number sent (decision 031). The
 * token is good for that number only, so the button changes to exactly the number the email named,
 * and only while that change still waits.
 */
export async function phoneChangeRoutes(forms: FastifyInstance, { subscriptions, links }: Handlers): Promise<void> {
  /** The person and the number, when the link is one of ours for the change that waits now. */
  async function waiting(token: string) {
    const id = links.claimedId(token);
    const subscriber = id ? await subscriptions.subscriber(id) : undefined;
    if (!subscriber) return { subscriber: undefined, change: undefined };
    const change = subscriptions.pendingPhoneChange(subscriber);
    const valid = change && links.verify('phone', token, change.to) === subscriber.id;
    return { subscriber, change: valid ? change : undefined };
  }
  /** Signed for the number they have now: the change was made (pressed twice, or a second tab). */
  const madeAlready = (token: string, subscriber: Subscriber) =>
    links.verify('phone', token, subscriber.phone) === subscriber.id;
  // A link that is not signed for the change waiting now, nor for the number they have: replaced,
  // stale, or not ours. It says the same either way (and never whether the sign-up exists).
  const gone = (reply: FastifyReply, language: Language) => html(reply, phoneChangeGonePage(language), 404);

  forms.get<TokenParams>('/change-phone/:token', async (request, reply) => {
    const { subscriber, change } = await waiting(request.params.token);
    if (subscriber && !change && madeAlready(request.params.token, subscriber))
      return reply.redirect(`${preferencesPath(links, subscriber.id)}?done=phone`, 303);
    if (!subscriber || !change) return gone(reply, subscriber?.language ?? browserLanguage(request));
    const ends = distinctEnds(change.to, subscriber.phone);
    return html(reply, phoneChangePage({ newEnd: ends.next, currentEnd: ends.current, language: subscriber.language }));
  });

  forms.post<TokenParams>('/change-phone/:token', async (request, reply) => {
    const { subscriber, change } = await waiting(request.params.token);
    if (subscriber && !change && madeAlready(request.params.token, subscriber))
      return reply.redirect(`${preferencesPath(links, subscriber.id)}?done=phone`, 303);
    if (!subscriber || !change) return gone(reply, subscriber?.language ?? browserLanguage(request));
    const updated = await subscriptions.applyPhoneChange(subscriber, change.to);
    if (!updated) return gone(reply, subscriber.language);
    // The link came by email: the mailbox is theirs (their email is confirmed if it was not). The
    // number is new to this record: a leaving recorded on it stays until they save their choices;
    // their own leaving stays too (a number changed turns nothing on: issue 54).
    await subscriptions.confirm(updated.id, 'phone_change_email');
    return reply.redirect(`${preferencesPath(links, subscriber.id)}?done=phone`, 303);
  });
}

/**
 * RFC 8058 one-click: a mail provider's POST (no cookie, no login) or our own page's button. The
 * body carries nothing we need, so whatever its type (form, multipart, JSON, none) it is read up
 * to a limit and ignored, never refused.
 */
export async function unsubscribeRoutes(oneClick: FastifyInstance, { subscriptions, links }: Handlers): Promise<void> {
  oneClick.removeAllContentTypeParsers();
  oneClick.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, _body, done) =>
    done(null, undefined),
  );

  /**
   * Whose link it is: an "off" token (every message since issue 54) leads nowhere else; a "manage"
   * token (messages sent before) may link to the page its holder can open already.
   */
  const holder = (token: string): { id: string; preferencesUrl?: string } | undefined => {
    const off = links.verify('off', token);
    if (off) return { id: off };
    const manage = links.verify('manage', token);
    return manage ? { id: manage, preferencesUrl: preferencesPath(links, manage) } : undefined;
  };

  oneClick.get<TokenParams>('/unsubscribe/:token', async (request, reply) => {
    const found = holder(request.params.token);
    const subscriber = found ? await subscriptions.subscriber(found.id) : undefined;
    if (!found || !subscriber) return html(reply, badLinkPage(browserLanguage(request)), 404);
    return html(reply, unsubscribePage({ done: false, ...found, language: subscriber.language }));
  });

  oneClick.post<TokenParams>('/unsubscribe/:token', async (request, reply) => {
    const found = holder(request.params.token);
    if (!found) return html(reply, badLinkPage(browserLanguage(request)), 404);
    const updated = await subscriptions.updatePreferences(found.id, { email: false }, 'one_click_unsubscribe');
    if (!updated) return html(reply, badLinkPage(browserLanguage(request)), 404);
    return html(reply, unsubscribePage({ done: true, ...found, language: updated.language }));
  });
}
