// /button/…: the page an emailed button opens (issue 54). A GET shows what it does and one button (a
// mail scanner opens every link); the POST does it, once. A button that ran out offers a new one,
// emailed to the same address; one pressed already, or made for choices that changed since, does
// nothing and says so.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Subscriber } from '../../db/subscribers-repository.js';
import { html } from '../../html-reply.js';
import { preferencesPath } from '../../messaging/link-urls.js';
import { maskEmail } from '../../messaging/mask-email.js';
import { linkPageWordsIn } from '../../messaging/message-words.js';
import {
  actionCode,
  actionOf,
  BUTTON_HOURS,
  buttonWords,
  checkButton,
  type ButtonAction,
  type ButtonParams,
} from '../emailed-buttons.js';
import { buttonExpiredPage, buttonPage, noticePage } from './link-pages.js';
import { browserLanguage, type Handlers } from './link-page-options.js';

type ButtonRoute = { Params: ButtonParams };

/** At most this many buttons emailed to one person in an hour (a page pressed over and over fills nobody's mailbox). */
export const BUTTONS_PER_HOUR = 5;

/** What asking for a button came to, as the page that asked says it. */
export type ButtonAsk = 'sent' | 'unreachable' | 'not_sent' | 'limit';

/** Sends a button to a person, at most BUTTONS_PER_HOUR an hour each (counted in this process). */
export function buttonAsker(handlers: Pick<Handlers, 'buttons'>, now: () => Date = () => new Date()) {
  const sentAt = new Map<string, number[]>();
  return async (subscriber: Subscriber, action: ButtonAction): Promise<ButtonAsk> => {
    if (!handlers.buttons) return 'not_sent';
    const hourAgo = now().getTime() - 3_600_000;
    for (const [id, times] of sentAt) if (times.every((at) => at <= hourAgo)) sentAt.delete(id);
    const recent = (sentAt.get(subscriber.id) ?? []).filter((at) => at > hourAgo);
    if (recent.length >= BUTTONS_PER_HOUR) return 'limit';
    const sent = await handlers.buttons.send(subscriber, action);
    if (sent === 'sent') sentAt.set(subscriber.id, [...recent, now().getTime()]);
    return sent;
  };
}

/** The query that says, on the person's page, what asking for a button came to: ?button=sent&ask=on-110&off=1. */
export function buttonQuery(asked: ButtonAsk, action: ButtonAction, offSaved = false): string {
  return `button=${asked}&ask=${actionCode(action)}${offSaved ? '&off=1' : ''}`;
}

const BUTTON_ASKS = ['sent', 'unreachable', 'not_sent', 'limit'] as const satisfies readonly ButtonAsk[];

/** That query as the lines at the top of the page. */
export function buttonLines(
  query: { button?: string; ask?: string; off?: string },
  subscriber: Subscriber,
): string[] | undefined {
  const asked = BUTTON_ASKS.find((one) => one === query.button);
  const action = actionOf(query.ask);
  if (!asked || !action) return undefined;
  const words = linkPageWordsIn[subscriber.language].preferences;
  const line =
    asked === 'sent'
      ? words.buttonSent(maskEmail(subscriber.email), buttonWords(action, subscriber).pageDoes, BUTTON_HOURS)
      : asked === 'unreachable'
        ? words.buttonUnreachable
        : asked === 'limit'
          ? words.buttonLimit
          : words.buttonNotSent;
  return [...(query.off === '1' ? [words.offSaved] : []), line];
}

export async function buttonRoutes(
  forms: FastifyInstance,
  handlers: Handlers,
  ask: ReturnType<typeof buttonAsker>,
): Promise<void> {
  const { subscriptions, links, launch } = handlers;
  const now = handlers.now ?? (() => new Date());
  const url = '/button/:code/:sent/:token';

  /** The person the button names, and what it may do now; a page that says why not, otherwise. */
  async function read(request: FastifyRequest<ButtonRoute>, reply: FastifyReply) {
    const id = links.claimedId(request.params.token);
    const subscriber = id ? await subscriptions.subscriber(id) : undefined;
    if (!subscriber) {
      const language = browserLanguage(request);
      const words = linkPageWordsIn[language].preferences;
      return { answer: html(reply, noticePage(words.nothingHeldTitle, words.nothingHeld, language), 404) };
    }
    const check = checkButton(links, request.params, subscriber, now());
    return { subscriber, check };
  }

  const usedPage = (reply: FastifyReply, subscriber: Subscriber) => {
    const words = linkPageWordsIn[subscriber.language].button;
    return html(reply, noticePage(words.usedTitle, words.used, subscriber.language), 404);
  };

  const expiredPage = (reply: FastifyReply, { code, sent, token }: ButtonParams, subscriber: Subscriber) =>
    html(
      reply,
      buttonExpiredPage({
        language: subscriber.language,
        hours: BUTTON_HOURS,
        againPath: `/button/${code}/${sent}/${token}/again`,
      }),
      410,
    );

  forms.get<ButtonRoute>(url, async (request, reply) => {
    const { answer, subscriber, check } = await read(request, reply);
    if (answer) return answer;
    if (!check.ok && check.why === 'expired') return expiredPage(reply, request.params, subscriber);
    if (!check.ok) return usedPage(reply, subscriber);
    const words = buttonWords(check.action, subscriber);
    return html(
      reply,
      buttonPage({ language: subscriber.language, action: check.action.kind, does: words.does, yes: words.yes }),
    );
  });

  forms.post<ButtonRoute>(url, async (request, reply) => {
    const { answer, subscriber, check } = await read(request, reply);
    if (answer) return answer;
    if (!check.ok && check.why === 'expired') return expiredPage(reply, request.params, subscriber);
    if (!check.ok) return usedPage(reply, subscriber);
    const page = preferencesPath(links, subscriber.id);
    const { action } = check;
    if (action.kind === 'delete') {
      await subscriptions.remove(subscriber.id, 'emailed_button');
      const lang = subscriber.language === 'en' ? '' : `&lang=${subscriber.language}`;
      return reply.redirect(`${page}?done=deleted${lang}`, 303);
    }
    if (action.kind === 'back') {
      await subscriptions.comeBack(subscriber, 'emailed_button');
    } else {
      const updated =
        (await subscriptions.updatePreferences(subscriber.id, action.wanted, 'emailed_button')) ?? subscriber;
      // Pressed from their own mailbox: their email is confirmed, and their own leaving or deletion lifted.
      if (action.wanted.email || action.wanted.sms) await subscriptions.provenByEmailedLink(updated, 'emailed_button');
    }
    // A launch message the owner made already holds theirs for what they now want.
    await launch.join((await subscriptions.subscriber(subscriber.id)) ?? subscriber);
    return reply.redirect(`${page}?done=saved`, 303);
  });

  // A button that ran out: a new one, to the same address, for the same thing (still only if the
  // choices are as they were, so a used button never makes a new one).
  forms.post<ButtonRoute>(`${url}/again`, async (request, reply) => {
    const { answer, subscriber, check } = await read(request, reply);
    if (answer) return answer;
    if (check.ok || check.why !== 'expired') return usedPage(reply, subscriber);
    const sent = await ask(subscriber, check.action);
    const words = linkPageWordsIn[subscriber.language];
    const text =
      sent === 'sent'
        ? words.preferences.buttonSent(
            maskEmail(subscriber.email),
            buttonWords(check.action, subscriber).pageDoes,
            BUTTON_HOURS,
          )
        : sent === 'unreachable'
          ? words.preferences.buttonUnreachable
          : sent === 'limit'
            ? words.preferences.buttonLimit
            : words.preferences.buttonNotSent;
    const status = sent === 'sent' || sent === 'unreachable' ? 200 : sent === 'limit' ? 429 : 503;
    return html(reply, noticePage(words.button.title[check.action.kind], text, subscriber.language), status);
  });
}
