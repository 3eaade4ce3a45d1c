// The pages the links in messages open: /confirm/…, /preferences/…, /unsubscribe/…. A GET only
// shows a page (mail scanners open every link); only a POST behind a button changes anything, then
// redirects (303) to the page that says what happened (decisions/019).
import formBody from '@fastify/formbody';
import { AppError } from '../../errors.js';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { isLanguage, LANGUAGES, type Language } from '../../../shared/languages.js';
import { linkPageWordsIn } from '../../messaging/message-words.js';
import type { Audience } from '../contact-rule.js';
import { preferencesPath } from '../../messaging/link-urls.js';
import { badLinkPage, confirmPage, noticePage } from './link-pages.js';
import { deleteQuestionPage, preferencesPage, type PreferencesPageProps } from './preferences-page.js';
import { preferencesOf, type Subscriber } from '../../db/subscribers-repository.js';
import { CHANNELS } from '../../db/message-channels.js';
import { checkDetails, typedDetails } from './details-form.js';
import { distinctEnds, phoneEnd } from '../../messaging/phone.js';
import { maskEmail } from '../../messaging/mask-email.js';
import { html } from '../../html-reply.js';
import { shareUrl } from '../../../shared/share-content.js';
import { LINK_PAGE_SCRIPT_PLACEHOLDER } from './link-page-layout.js';
import { browserLanguage, type Handlers, type LinkPageOptions, type TokenParams } from './link-page-options.js';
import { phoneChangeRoutes, unsubscribeRoutes } from './one-button-forms.js';
import { buttonAsker, buttonLines, buttonQuery, buttonRoutes } from './emailed-button-forms.js';
import { offsOnly, turnsOn, type ButtonAction } from '../emailed-buttons.js';

type AskButton = ReturnType<typeof buttonAsker>;

const CHANNELS_AND_BETA = ['email', 'sms', 'beta'] as const;

/** Form fields: a box that is ticked is sent, one that is not is absent. */
function ticked(body: unknown, name: string): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const value = (body as Record<string, unknown>)[name];
  return value === 'on' || (Array.isArray(value) && value.includes('on'));
}

/** What the preferences page says at the top after a button (the query's `done`). */
const DONE_STATES = [
  'language',
  'saved',
  'left',
  'details',
  'phone',
  'phoneAsked',
  'namePhoneAsked',
  'phoneAskedToday',
  'namePhoneAskedToday',
] as const;

const nothingHeldPage = (language: Language) => {
  const words = linkPageWordsIn[language].preferences;
  return noticePage(words.nothingHeldTitle, words.nothingHeld, language);
};

/** /confirm/…: the confirmation email's button, behind a page. */
async function confirmRoutes(
  forms: FastifyInstance,
  { subscriptions, links, launch }: Handlers,
  askButton: AskButton,
): Promise<void> {
  forms.get<TokenParams>('/confirm/:token', async (request, reply) => {
    const id = links.verify('confirm', request.params.token);
    const subscriber = id ? await subscriptions.subscriber(id) : undefined;
    if (!id || !subscriber) return html(reply, badLinkPage(browserLanguage(request)), 404);
    const state =
      subscriber.leftAt !== null
        ? 'left'
        : subscriber.emailOptOutAt !== null
          ? 'email_off'
          : subscriber.confirmedAt !== null
            ? 'confirmed'
            : 'unconfirmed';
    return html(
      reply,
      confirmPage({
        language: subscriber.language,
        state,
        preferencesUrl: preferencesPath(links, id),
        ...(state === 'confirmed' ? { launch: await launch.for(subscriber) } : {}),
      }),
    );
  });

  forms.post<TokenParams>('/confirm/:token', async (request, reply) => {
    const id = links.verify('confirm', request.params.token);
    const subscriber = id ? await subscriptions.subscriber(id) : undefined;
    if (!id || !subscriber) return html(reply, badLinkPage(browserLanguage(request)), 404);
    if (subscriber.leftAt !== null || subscriber.emailOptOutAt !== null) {
      // Coming back undoes a "no": only a button emailed now, to the address on record, does that (this
      // link may be in a forwarded email; issue 54). Their page says what came of asking.
      const action: ButtonAction = { kind: 'back' };
      const asked = await askButton(subscriber, action);
      return reply.redirect(`${preferencesPath(links, id)}?${buttonQuery(asked, action)}`, 303);
    }
    await subscriptions.confirm(id, 'confirm_page');
    // The link came by email: their own earlier deletion no longer holds on the address.
    await subscriptions.provenByEmailedLink(subscriber, 'confirm_page');
    // A launch message made before they confirmed (confirmed people only) now holds theirs.
    await launch.join((await subscriptions.subscriber(id)) ?? subscriber);
    return reply.redirect(`/confirm/${request.params.token}`, 303);
  });
}

/** /preferences/…: what someone gets, leaving the list, and deleting their details (asked once more). */
async function preferencesRoutes(
  forms: FastifyInstance,
  { subscriptions, links, launch, siteUrl, asksPhoneByEmail = false, onPhoneChangeAsked }: Handlers,
  askButton: AskButton,
): Promise<void> {
  /** The boxes as the page shows them: what they chose, less what cannot reach them whatever they tick. */
  async function shownBoxes(subscriber: Subscriber) {
    const preferences = preferencesOf(subscriber);
    const left = subscriber.leftAt !== null;
    // What the launch message will do for them, channel by channel: the senders' own rule.
    const audience: Audience = { segment: 'all', confirmation: 'asked' };
    const { email: emailWhy, sms: smsWhy } = left
      ? {}
      : await subscriptions.exclusions(subscriber, [...CHANNELS], audience);
    const emailBlocked = emailWhy === 'undeliverable' || emailWhy === 'suppressed';
    // Texts on in their choices, yet off by the rule: someone using the number turned them off (kept by the number).
    const smsTurnedOff = smsWhy === 'opted_out' && preferences.sms;
    const smsBlocked = smsWhy === 'stopped' || smsWhy === 'undeliverable' || smsWhy === 'suppressed' || smsTurnedOff;
    const boxes = {
      ...preferences,
      email: preferences.email && !emailBlocked,
      sms: preferences.sms && !smsBlocked,
      beta: preferences.beta && !left,
    };
    return { preferences, left, emailWhy, smsWhy, emailBlocked, smsTurnedOff, boxes };
  }

  /** The page for this person as things stand, by the senders' own rule (what a box says is what happens). */
  async function page(
    subscriber: Subscriber,
    token: string,
    extra: Pick<PreferencesPageProps, 'done' | 'detailsForm' | 'buttonLines'> = {},
  ): Promise<string> {
    const asked = subscriptions.pendingPhoneChange(subscriber);
    const { preferences, left, emailWhy, smsWhy, emailBlocked, smsTurnedOff, boxes } = await shownBoxes(subscriber);
    const emailReason =
      emailWhy === 'undeliverable' || emailWhy === 'suppressed'
        ? await subscriptions.blockedBy(subscriber, 'email')
        : undefined;
    const emailUnreachable =
      emailReason === 'bounced' || emailReason === 'complained' || emailReason === 'undeliverable'
        ? emailReason
        : emailReason === 'left' || emailReason === 'deleted'
          ? 'asked'
          : emailBlocked
            ? 'undeliverable'
            : undefined;
    // The launch message that will actually go (its audience and channels), or the default before one is made.
    const message = await launch.for(subscriber);
    const sendable = {
      email: preferences.email && message.willSend.email,
      sms: preferences.sms && message.willSend.sms,
    };
    const smsReason = smsWhy === 'suppressed' ? await subscriptions.blockedBy(subscriber, 'sms') : undefined;
    // A leaving or a deletion on the number (someone using it left) is not the phone company's "cannot get texts".
    const smsTakenOff = smsWhy === 'suppressed' && (smsReason === 'left' || smsReason === 'deleted');
    return preferencesPage({
      language: subscriber.language,
      // The boxes: what they asked for, less what cannot reach them whatever they tick here.
      preferences: boxes,
      // What we will really send, for the words after a save.
      willSend: {
        ...sendable,
        beta:
          preferences.beta &&
          !left &&
          ((preferences.email && emailWhy === undefined) || (preferences.sms && smsWhy === undefined)),
      },
      launched: message.launched,
      smsStopped: smsWhy === 'stopped',
      smsUnreachable: smsWhy === 'undeliverable' || (smsWhy === 'suppressed' && !smsTakenOff),
      smsTakenOff,
      smsTurnedOff,
      ...(preferences.sms && smsWhy === 'texts_not_confirmed'
        ? { smsAwaitingYes: subscriber.joiningTextSentAt ? ('asked' as const) : ('not_yet' as const) }
        : {}),
      ...(emailUnreachable ? { emailUnreachable } : {}),
      notConfirmed: emailWhy === 'not_confirmed' || smsWhy === 'not_confirmed',
      left,
      email: maskEmail(subscriber.email),
      phoneEnd: phoneEnd(subscriber.phone),
      path: `/preferences/${token}`,
      // Someone on the list can pass it on; someone who left is not asked to.
      ...(left ? {} : { shareUrl: shareUrl(siteUrl, subscriber.referralCode, subscriber.language) }),
      ...(asked ? { askedPhoneEnd: distinctEnds(asked.to, subscriber.phone).next } : {}),
      ...extra,
    });
  }

  forms.get<
    TokenParams & { Querystring: { done?: string; lang?: string; button?: string; ask?: string; off?: string } }
  >('/preferences/:token', async (request, reply) => {
    const id = links.verify('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(browserLanguage(request)), 404);
    const subscriber = await subscriptions.subscriber(id);
    const { done } = request.query;
    if (!subscriber) {
      // Just deleted, by this page's own button: say it is done. Otherwise the link names nobody: 404.
      // In the language they had (the deletion's redirect says it), else the browser's.
      const said = request.query.lang;
      const language = isLanguage(said) ? said : browserLanguage(request);
      const words = linkPageWordsIn[language].preferences;
      return done === 'deleted'
        ? html(reply, noticePage(words.deletedTitle, words.deleted, language))
        : html(reply, nothingHeldPage(language), 404);
    }
    const said = DONE_STATES.find((state) => state === done);
    const lines = buttonLines(request.query, subscriber);
    return html(
      reply,
      await page(subscriber, request.params.token, {
        ...(said ? { done: said } : {}),
        ...(lines ? { buttonLines: lines } : {}),
      }),
    );
  });

  // Their name and phone number (decision 031): checked by the sign-up form's own rules; a problem
  // shows the page again with what they typed and what is wrong, and changes nothing.
  forms.post<TokenParams>('/preferences/:token/details', async (request, reply) => {
    const id = links.verify('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(browserLanguage(request)), 404);
    const subscriber = await subscriptions.subscriber(id);
    if (!subscriber) return html(reply, nothingHeldPage(browserLanguage(request)), 404);
    const typed = typedDetails(request.body);
    const words = linkPageWordsIn[subscriber.language].preferences;
    const checked = checkDetails(typed, {
      emptyName: 'keep',
      nothingTyped: words.nothingTyped,
      language: subscriber.language,
      readNumber: (typed) => subscriptions.e164(typed),
    });
    const refuse = (errors: { name?: string; phone?: string }) =>
      page(subscriber, request.params.token, { detailsForm: { ...typed, errors } }).then((body) =>
        html(reply, body, 400),
      );
    if (!checked.ok) return refuse(checked.errors);
    const { name, phone } = checked.details;
    // A new number is never changed here: this page's link came by email and may have been passed on,
    // so the address on record is asked with a button first, as for a repeat sign-up (decision 041).
    const newPhone = phone !== undefined && !subscriptions.isTheirNumber(subscriber, phone) ? phone : undefined;
    if (newPhone && !asksPhoneByEmail) return refuse({ phone: words.phoneNeedsEmail });
    const updated =
      name !== undefined ? await subscriptions.changeDetails(id, { name }, 'preferences_page') : subscriber;
    if (!updated) return html(reply, nothingHeldPage(browserLanguage(request)), 404);
    // The link came by email: the mailbox is theirs, so the email is confirmed. A name or number
    // corrected turns nothing on: a leaving, and the "no"s it left by their addresses, stay (issue 54).
    await subscriptions.confirm(updated.id, 'preferences_page');
    if (!newPhone) return reply.redirect(`/preferences/${request.params.token}?done=details`, 303);
    const asked = await subscriptions.askPhoneChange(updated, newPhone);
    if (asked === 'missing') return html(reply, nothingHeldPage(browserLanguage(request)), 404);
    if (asked === 'asked') onPhoneChangeAsked?.();
    const done =
      name !== undefined
        ? asked === 'asked'
          ? 'namePhoneAsked'
          : 'namePhoneAskedToday'
        : asked === 'asked'
          ? 'phoneAsked'
          : 'phoneAskedToday';
    return reply.redirect(`/preferences/${request.params.token}?done=${done}`, 303);
  });

  forms.post<TokenParams>('/preferences/:token', async (request, reply) => {
    const id = links.verify('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(browserLanguage(request)), 404);
    const wanted = {
      email: ticked(request.body, 'email'),
      sms: ticked(request.body, 'sms'),
      beta: ticked(request.body, 'beta'),
    };
    const subscriber = await subscriptions.subscriber(id);
    if (!subscriber) return html(reply, nothingHeldPage(browserLanguage(request)), 404);
    // On now, as far as their own choices go: what they chose, unless they left, and email held by
    // their own "no" kept by the address (which only an emailed button lifts). A block that is not
    // theirs to lift here (a STOP, a bounce) is no "on" either way.
    const { emailWhy, smsWhy } = await shownBoxes(subscriber);
    const chosen = preferencesOf(subscriber);
    const onNow = {
      email: chosen.email && emailWhy !== 'suppressed' && emailWhy !== 'opted_out',
      // After a STOP only START from the phone brings texts back, whatever is ticked here.
      sms: chosen.sms || smsWhy === 'stopped',
      beta: chosen.beta && subscriber.leftAt === null,
    };
    if (turnsOn(onNow, wanted)) {
      // Turning on is the person's alone: a button emailed now to the address on record (this page's
      // link may be in a forwarded email; issue 54). What it turns off is done at once.
      // The record keeps what it holds for what they still want; what they unticked goes off now.
      const offs = offsOnly(chosen, wanted);
      if (CHANNELS_AND_BETA.some((choice) => chosen[choice] !== offs[choice]))
        await subscriptions.updatePreferences(id, offs, 'preferences_page');
      const offSaved = CHANNELS_AND_BETA.some((choice) => onNow[choice] && !wanted[choice]);
      const action: ButtonAction = { kind: 'on', wanted };
      const asked = await askButton((await subscriptions.subscriber(id)) ?? subscriber, action);
      return reply.redirect(`/preferences/${request.params.token}?${buttonQuery(asked, action, offSaved)}`, 303);
    }
    const updated = await subscriptions.updatePreferences(id, wanted, 'preferences_page');
    if (!updated) return html(reply, nothingHeldPage(browserLanguage(request)), 404);
    // The link came by email: keeping a channel on proves the mailbox (confirms the sign-up).
    if (wanted.email || wanted.sms) await subscriptions.provenByEmailedLink(updated, 'preferences_page');
    // A launch message the owner made already holds theirs for what they now want ("Saved. We will send you…").
    if (wanted.email || wanted.sms) await launch.join((await subscriptions.subscriber(id)) ?? updated);
    return reply.redirect(`/preferences/${request.params.token}?done=saved`, 303);
  });

  // The language we write to them in (issue 45): theirs to choose, like what we send. A value that is
  // not one of ours (no form of ours sends one) changes nothing and says so.
  forms.post<TokenParams>('/preferences/:token/language', async (request, reply) => {
    const id = links.verify('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(browserLanguage(request)), 404);
    const wanted = (request.body as Record<string, unknown> | undefined)?.language;
    if (!isLanguage(wanted))
      throw new AppError(400, 'invalid_language', `The language must be one of: ${LANGUAGES.join(', ')}.`);
    if (!(await subscriptions.changeLanguage(id, wanted)))
      return html(reply, nothingHeldPage(browserLanguage(request)), 404);
    return reply.redirect(`/preferences/${request.params.token}?done=language`, 303);
  });

  forms.post<TokenParams>('/preferences/:token/leave', async (request, reply) => {
    const id = links.verify('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(browserLanguage(request)), 404);
    if (!(await subscriptions.leave(id, 'preferences_page')))
      return html(reply, nothingHeldPage(browserLanguage(request)), 404);
    return reply.redirect(`/preferences/${request.params.token}?done=left`, 303);
  });

  forms.post<TokenParams>('/preferences/:token/delete', async (request, reply) => {
    const id = links.verify('manage', request.params.token);
    if (!id) return html(reply, badLinkPage(browserLanguage(request)), 404);
    const path = `/preferences/${request.params.token}`;
    const subscriber = await subscriptions.subscriber(id);
    if ((request.body as Record<string, unknown> | undefined)?.confirm !== 'yes') {
      if (!subscriber) return html(reply, nothingHeldPage(browserLanguage(request)), 404);
      return html(reply, deleteQuestionPage({ path, language: subscriber.language }));
    }
    if (!subscriber) return html(reply, nothingHeldPage(browserLanguage(request)), 404);
    // Deleting is the person's alone: a button emailed now to the address on record does it (this
    // page's link may be in a forwarded email; issue 54).
    const action: ButtonAction = { kind: 'delete' };
    const asked = await askButton(subscriber, action);
    return reply.redirect(`${path}?${buttonQuery(asked, action)}`, 303);
  });
}

export const linkPageRoutes: FastifyPluginAsync<LinkPageOptions> = async (app, options) => {
  // Personal pages: never stored by a cache, never indexed, the token never sent on as a referrer.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex');
    reply.header('referrer-policy', 'no-referrer');
  });
  const scriptTag = options.script ? `<script type="module" src="${options.script}"></script>` : '';
  app.addHook('onSend', async (_request, _reply, payload) =>
    typeof payload === 'string' ? payload.replace(LINK_PAGE_SCRIPT_PLACEHOLDER, scriptTag) : payload,
  );
  // The pages' own forms: url-encoded bodies, parsed in this scope only (the JSON API still answers
  // 415 to a form post).
  await app.register(async (forms) => {
    await forms.register(formBody, { bodyLimit: 8 * 1024 });
    const askButton = buttonAsker(options, options.now);
    await confirmRoutes(forms, options, askButton);
    await preferencesRoutes(forms, options, askButton);
    await buttonRoutes(forms, options, askButton);
    await phoneChangeRoutes(forms, options);
  });
  await app.register(async (oneClick) => unsubscribeRoutes(oneClick, options));
};
