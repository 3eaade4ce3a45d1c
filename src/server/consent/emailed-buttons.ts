// The emailed buttons (issue 54, decision 050). A link in an email may have been forwarded, and the
// unsubscribe link is in a header every mail app sees, so the links in our emails only turn things
// off. To turn anything on, come back after leaving, or delete their details, the person is emailed a
// button at that moment, to the address on record. It works for BUTTON_HOURS, and once: its signature
// covers what it does, when it was sent and the choices it changes, so pressing it (or any later change
// of those choices) ends it. Nothing is stored: the link is the whole of it.
import { preferencesOf, type Preferences, type Subscriber } from '../db/subscribers-repository.js';
import { SENT_AT_ONCE, type OutboxClaims } from '../db/outbox-claims.js';
import type { EmailSender } from '../messaging/email-sender.js';
import { renderButtonEmail } from '../messaging/email-templates.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { manageUrls } from '../messaging/link-urls.js';
import { feedbackId, type MessageLog } from '../messaging/message-log.js';
import { linkPageWordsIn } from '../messaging/message-words.js';
import { sendRecordedEmail } from '../messaging/recorded-email.js';
import type { Subscriptions } from './subscriptions.js';

/** How long an emailed button works after it was sent. */
export const BUTTON_HOURS = 24;
const HOUR_MS = 3_600_000;
/** A clock a little ahead of ours still makes buttons we take. */
const CLOCK_SLACK_MS = 5 * 60_000;

/** What a button does: turn on the choices `wanted` (and leave the rest as `wanted` says), come back, or delete. */
export type ButtonAction = { kind: 'on'; wanted: Preferences } | { kind: 'back' } | { kind: 'delete' };

const CHOICES = ['email', 'sms', 'beta'] as const;

/** The action as its link names it: `on-110` (email, texts, beta), `back`, `delete`. */
export function actionCode(action: ButtonAction): string {
  if (action.kind !== 'on') return action.kind;
  return `on-${CHOICES.map((choice) => (action.wanted[choice] ? '1' : '0')).join('')}`;
}

export function actionOf(code: string | undefined): ButtonAction | undefined {
  if (code === 'back' || code === 'delete') return { kind: code };
  const bits = /^on-([01])([01])([01])$/.exec(code ?? '');
  if (!bits) return undefined;
  return { kind: 'on', wanted: { email: bits[1] === '1', sms: bits[2] === '1', beta: bits[3] === '1' } };
}

/** The choices a button changes, as they stand: it works only while they are as they were when it was sent. */
function standing(subscriber: Subscriber): string {
  const { leftAt, emailOptOutAt, smsOptOutAt, betaTesting, confirmedAt, email, phone } = subscriber;
  return [leftAt, emailOptOutAt, smsOptOutAt, betaTesting, confirmedAt, email, phone]
    .map((v) => String(v ?? ''))
    .join('\0');
}

const bound = (code: string, sentAt: string, subscriber: Subscriber) => `${code}\0${sentAt}\0${standing(subscriber)}`;

/** /button/CODE/SENT/TOKEN: SENT is the second it was sent, in base 36. */
export function buttonPath(links: LinkSigner, subscriber: Subscriber, action: ButtonAction, now: Date): string {
  const code = actionCode(action);
  const sentAt = Math.floor(now.getTime() / 1000).toString(36);
  return `/button/${code}/${sentAt}/${links.sign('button', subscriber.id, bound(code, sentAt, subscriber))}`;
}

export interface ButtonParams {
  code: string;
  sent: string;
  token: string;
}

/**
 * What a pressed (or opened) button may do. `used`: not made by us for these choices as they stand
 * (pressed already, or the choices changed since); `expired`: ours, but older than BUTTON_HOURS.
 */
export type ButtonCheck =
  | { ok: true; action: ButtonAction }
  | { ok: false; why: 'bad' | 'used' }
  | { ok: false; why: 'expired'; action: ButtonAction };

export function checkButton(links: LinkSigner, params: ButtonParams, subscriber: Subscriber, now: Date): ButtonCheck {
  const action = actionOf(params.code);
  const sentMs = /^[0-9a-z]{1,9}$/.test(params.sent) ? parseInt(params.sent, 36) * 1000 : NaN;
  if (!action || !Number.isFinite(sentMs) || actionCode(action) !== params.code) return { ok: false, why: 'bad' };
  if (links.verify('button', params.token, bound(params.code, params.sent, subscriber)) !== subscriber.id)
    return { ok: false, why: 'used' };
  const age = now.getTime() - sentMs;
  if (age > BUTTON_HOURS * HOUR_MS || age < -CLOCK_SLACK_MS) return { ok: false, why: 'expired', action };
  return { ok: true, action };
}

/**
 * What pressing does, in the person's words ("…to turn on our email when the app launches"): for an
 * "on", the choices it turns on that their record has off (all it names when none: their own "no"
 * kept by the address is what it lifts). What will then really be sent, their page says after.
 */
export function buttonWords(
  action: ButtonAction,
  subscriber: Subscriber,
): { does: string; pageDoes: string; yes: string } {
  const words = linkPageWordsIn[subscriber.language];
  const yes = words.button.yes[action.kind];
  if (action.kind !== 'on')
    return { does: words.button[action.kind], pageDoes: words.preferences.buttonDoes[action.kind], yes };
  const named = CHOICES.filter((choice) => action.wanted[choice]);
  // Someone who left has nothing on, whatever their record keeps for their return.
  const record = subscriber.leftAt === null ? preferencesOf(subscriber) : { email: false, sms: false, beta: false };
  const newlyOn = named.filter((choice) => !record[choice]);
  const things = words.preferences.listed(
    (newlyOn.length > 0 ? newlyOn : named).map((choice) => words.preferences.buttonThings[choice]),
  );
  return { does: words.button.on(things), pageDoes: words.preferences.buttonDoes.on(things), yes };
}

/** Which choices a save turns on that were not on: only an emailed button may do that. */
export function turnsOn(shown: Preferences, wanted: Preferences): boolean {
  return CHOICES.some((choice) => wanted[choice] && !shown[choice]);
}

/** A record's choices once a save's "off"s are made: what it holds for what is still wanted, and off for the rest. */
export function offsOnly(shown: Preferences, wanted: Preferences): Preferences {
  return { email: shown.email && wanted.email, sms: shown.sms && wanted.sms, beta: shown.beta && wanted.beta };
}

/** sent; unreachable: their mailbox gets no email from us (a bounce, a spam report); not_sent: a failure of the moment. */
export type ButtonSend = 'sent' | 'unreachable' | 'not_sent';

export interface ButtonMailer {
  send(subscriber: Subscriber, action: ButtonAction): Promise<ButtonSend>;
}

export interface ButtonMailerParts {
  email: EmailSender;
  log?: MessageLog | undefined;
  links: LinkSigner;
  siteUrl: string;
  postalAddress?: string | undefined;
  subscriptions: Pick<Subscriptions, 'emailHash' | 'mailboxReachable' | 'markUndeliverable'>;
  /** The one outbox: each button is a row of it (kind `button`), sent at once, never retried. */
  queue: Pick<OutboxClaims, 'begin' | 'record'>;
  now?: () => Date;
}

/**
 * Sends a button at once, while the person waits on the page, so the page says what really happened;
 * its row in the one outbox says the same.
 * The gate for it is the mailbox alone: the person asked for it this moment, so their own "email off"
 * does not hold it back; a bounce or a spam report does. A refusal for good marks the address, as for
 * any send.
 */
export function createButtonMailer(parts: ButtonMailerParts): ButtonMailer {
  const now = parts.now ?? (() => new Date());
  return {
    async send(subscriber, action) {
      if (!(await parts.subscriptions.mailboxReachable(subscriber))) return 'unreachable';
      // One at a time to a person: a second press while the first is being sent is told to ask again.
      const row = await parts.queue.begin('button', 'email', subscriber.id);
      if (row === undefined) return 'not_sent';
      const manage = manageUrls(parts.links, parts.siteUrl, subscriber.id);
      const words = buttonWords(action, subscriber);
      const message = renderButtonEmail({
        language: subscriber.language,
        action: action.kind,
        buttonUrl: `${parts.siteUrl}${buttonPath(parts.links, subscriber, action, now())}`,
        does: words.does,
        buttonLabel: words.yes,
        hours: BUTTON_HOURS,
        preferencesUrl: manage.preferences,
        unsubscribeUrl: manage.unsubscribe,
        siteUrl: parts.siteUrl,
        postalAddress: parts.postalAddress,
      });
      const result = await sendRecordedEmail(
        { email: parts.email, log: parts.log },
        { to: subscriber.email, ...message, unsubscribeUrl: manage.unsubscribe },
        {
          signupId: subscriber.id,
          addressHash: parts.subscriptions.emailHash(subscriber.email) ?? null,
          feedbackId: feedbackId('confirmation', 'button'),
        },
      );
      if (result.sent) {
        await parts.queue.record(SENT_AT_ONCE, [{ id: row, result: 'sent', ...result.logged }]);
        return 'sent';
      }
      const { verdict, answer } = result;
      if (verdict.kind === 'recipient') {
        await parts.queue.record(SENT_AT_ONCE, [{ id: row, result: 'permanent', error: answer, kind: 'recipient' }]);
        await parts.subscriptions.markUndeliverable(subscriber, 'email');
        return 'unreachable';
      }
      // The page says it was not sent and offers to ask again: it is never sent later.
      await parts.queue.record(SENT_AT_ONCE, [
        { id: row, result: 'skipped', error: `not sent, the person was told: ${answer}` },
      ]);
      return 'not_sent';
    },
  };
}
