// The confirmation email and its one reminder, as the two mailers send them: the person's own links,
// the day their details are deleted without a yes, and a record in the message log, so what comes
// back about it finds it. Each in the person's language (signups.language).
import type { Subscriber } from '../db/subscribers-repository.js';
import type { EmailSender } from '../messaging/email-sender.js';
import { renderComeBackEmail, renderConfirmationEmail, renderReminderEmail } from '../messaging/email-templates.js';
import { linkUrls } from '../messaging/link-urls.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { feedbackId, type MessageLog } from '../messaging/message-log.js';
import { sendRecordedEmail, type RecordedSend } from '../messaging/recorded-email.js';
import { shareUrl } from '../../shared/share-content.js';
import type { ComeBackBecause } from './contact-rule.js';
import type { Subscriptions } from './subscriptions.js';
import { BUTTON_HOURS, buttonPath } from './emailed-buttons.js';

export interface ConfirmationEmailParts {
  email: EmailSender;
  log?: MessageLog | undefined;
  links: LinkSigner;
  siteUrl: string;
  /** MAIL_POSTAL_ADDRESS, for the footer. */
  postalAddress?: string | undefined;
  subscriptions: Pick<Subscriptions, 'emailHash'>;
  /**
   * CONFIRMATION_REMINDER_DAYS: the confirmation email says the one reminder when one will come (0:
   * none; the config refuses one that would come after the deletion).
   */
  reminderDays?: number | undefined;
  /** The clock an emailed button's hours count from (the "come back?" email's). */
  now?: () => Date;
}

/**
 * Sends the confirmation email (`confirm`), the reminder, or the one "come back?" email to someone who
 * said no (`{ comeBack }`); `deleteOn` is the day in words.
 */
export function sendConfirmationEmail(
  parts: ConfirmationEmailParts,
  subscriber: Subscriber,
  kind: 'confirm' | 'reminder' | { comeBack: ComeBackBecause },
  deleteOn: string,
): Promise<RecordedSend> {
  const { email, log, links, siteUrl, postalAddress, subscriptions } = parts;
  const reminder = kind === 'confirm' && parts.reminderDays ? parts.reminderDays : undefined;
  const urls = linkUrls(links, siteUrl, subscriber.id);
  const common = {
    language: subscriber.language,
    confirmUrl: urls.confirm,
    preferencesUrl: urls.preferences,
    unsubscribeUrl: urls.unsubscribe,
    siteUrl,
    deleteOn,
    postalAddress,
  };
  // Coming back after leaving or turning email off undoes a "no": its button is one emailed now, good
  // once and for BUTTON_HOURS, not the confirmation link a forwarded email may hold (issue 54).
  const comeBackButton =
    typeof kind === 'object' && kind.comeBack !== 'deleted'
      ? `${siteUrl}${buttonPath(links, subscriber, { kind: 'back' }, (parts.now ?? (() => new Date()))())}`
      : undefined;
  const message =
    typeof kind === 'object'
      ? renderComeBackEmail({
          ...common,
          because: kind.comeBack,
          ...(comeBackButton ? { confirmUrl: comeBackButton, buttonHours: BUTTON_HOURS } : {}),
        })
      : (kind === 'confirm' ? renderConfirmationEmail : renderReminderEmail)({
          ...common,
          ...(reminder ? { reminderInDays: reminder } : {}),
          // The confirmation email says how to pass it on; the reminder keeps to its one question.
          ...(kind === 'confirm' ? { shareUrl: shareUrl(siteUrl, subscriber.referralCode, subscriber.language) } : {}),
        });
  return sendRecordedEmail(
    { email, log },
    { to: subscriber.email, ...message, unsubscribeUrl: urls.unsubscribe },
    {
      signupId: subscriber.id,
      addressHash: subscriptions.emailHash(subscriber.email) ?? null,
      feedbackId: feedbackId('confirmation', typeof kind === 'object' ? 'come-back' : kind),
    },
  );
}
