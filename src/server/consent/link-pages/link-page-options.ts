// What the link pages are given (LinkPageOptions), and what their route groups share.
import type { FastifyRequest } from 'fastify';
import { preferredLanguage, type Language } from '../../../shared/languages.js';
import type { LinkSigner } from '../../messaging/link-tokens.js';
import type { ButtonMailer } from '../emailed-buttons.js';
import type { LaunchMessages } from '../launch-message.js';
import type { Subscriptions } from '../subscriptions.js';

export interface LinkPageOptions {
  subscriptions: Subscriptions;
  links: LinkSigner;
  /** EMAIL_CONFIRMATION is on: people asked to confirm who did not are left out of the launch message. */
  confirmationOn: boolean;
  /** The site's address: the preferences page's "Tell a family member" link. */
  siteUrl: string;
  /** What the launch message will do for a person, and their place in it (consent/launch-message.ts). */
  launch: LaunchMessages;
  /** The pages' script as the build named it (Text size, the share panel); without it they work as plain HTML. */
  script?: string;
  /**
   * Email can be sent here: a new number typed on the person's page is asked about by email (decision
   * 041); without it, the number is not changed and the page says so.
   */
  asksPhoneByEmail?: boolean;
  /** A phone number change was asked for: the mailer looks at once. */
  onPhoneChangeAsked?: () => void;
  /**
   * Sends the emailed buttons (issue 54) that turn things on, bring someone back or delete; without
   * it (no email set up) those cannot be done from the pages, and the pages say so.
   */
  buttons?: ButtonMailer;
  /** Tests: the clock the buttons' hours are counted by. */
  now?: () => Date;
}

export type TokenParams = { Params: { token: string } };

/**
 * The language of a page that names nobody we hold (a bad link, details already deleted): the one the
 * browser asks for first among ours. A page about a person is in theirs (signups.language).
 */
export const browserLanguage = (request: FastifyRequest): Language =>
  preferredLanguage(request.headers['accept-language']);

export type Handlers = Pick<
  LinkPageOptions,
  | 'subscriptions'
  | 'links'
  | 'confirmationOn'
  | 'launch'
  | 'siteUrl'
  | 'asksPhoneByEmail'
  | 'onPhoneChangeAsked'
  | 'buttons'
  | 'now'
>;
