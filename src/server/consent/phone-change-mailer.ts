// The email a repeat sign-up with another phone number sends to the address on record: "Someone
// asked to change your phone number to •••• 4567. Press the button to change it." (decision 031). A
// kind of the one outbox (decision 052): the one sender claims it and judges a refusal; this says who
// is due it and writes one. It is marked sent once it went, so the owner's page says an email went
// only when it did; an address refused for good is marked undeliverable and the change forgotten.
// Nothing changes until the person presses the button.
import type { FastifyBaseLogger } from 'fastify';
import type { ClaimedMessage } from '../db/outbox-rows.js';
import type { PhoneChangeQueueRepository } from '../db/phone-change-queue-repository.js';
import type { EmailSender } from '../messaging/email-sender.js';
import { deletionDay, renderPhoneChangeEmail } from '../messaging/email-templates.js';
import { feedbackId, type MessageLog } from '../messaging/message-log.js';
import { manageUrls, phoneChangeUrl } from '../messaging/link-urls.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { sendRecordedEmail } from '../messaging/recorded-email.js';
import { distinctEnds } from '../messaging/phone.js';
import { markUndeliverable, type QueuedKindHandler, type SendOutcome } from './outbox-sender.js';
import type { FailureVerdict } from '../messaging/send-failure.js';
import type { Subscriber } from '../db/subscribers-repository.js';
import { DAY_MS, PHONE_CHANGE_DAYS, type Subscriptions } from './subscriptions.js';

export interface PhoneChangeMailerOptions {
  store: Pick<PhoneChangeQueueRepository, 'queueDue' | 'phoneChangeSent' | 'dropPhoneChange'>;
  subscriptions: Subscriptions;
  email: EmailSender;
  links: LinkSigner;
  siteUrl: string;
  postalAddress?: string | undefined;
  log?: MessageLog | undefined;
  logger: FastifyBaseLogger;
  now?: () => Date;
}

/** The email asking about a new phone number, as a kind of the one outbox. */
export function phoneChangeEmails(options: PhoneChangeMailerOptions): QueuedKindHandler {
  const { store, subscriptions, links, siteUrl, logger } = options;
  const now = options.now ?? (() => new Date());

  async function stillDue(subscriber: Subscriber): Promise<string | undefined> {
    if (subscriptions.pendingPhoneChange(subscriber, now())) return undefined;
    // The same number written another way, or gone stale: nothing to ask.
    await store.dropPhoneChange(subscriber.id);
    return 'no change to ask about';
  }

  async function send(_queued: ClaimedMessage, subscriber: Subscriber): Promise<SendOutcome> {
    const id = subscriber.id;
    const change = subscriptions.pendingPhoneChange(subscriber, now());
    if (!change) return { result: 'skipped', why: 'no change to ask about' };
    const manage = manageUrls(links, siteUrl, subscriber.id);
    const ends = distinctEnds(change.to, subscriber.phone);
    const message = renderPhoneChangeEmail({
      language: subscriber.language,
      changeUrl: phoneChangeUrl(links, siteUrl, subscriber.id, change.to),
      preferencesUrl: manage.preferences,
      unsubscribeUrl: manage.unsubscribe,
      siteUrl,
      newEnd: ends.next,
      currentEnd: ends.current,
      // The last whole day inside the window.
      until: deletionDay(change.at, PHONE_CHANGE_DAYS - 1, subscriber.language),
      postalAddress: options.postalAddress,
    });
    const result = await sendRecordedEmail(
      { email: options.email, log: options.log },
      { to: subscriber.email, ...message, unsubscribeUrl: manage.unsubscribe },
      {
        signupId: subscriber.id,
        addressHash: subscriptions.emailHash(subscriber.email) ?? null,
        feedbackId: feedbackId('confirmation', 'phone-change'),
      },
    );
    if (result.sent) {
      await store.phoneChangeSent(id, change.to);
      return { result: 'sent', logged: result.logged };
    }
    const { verdict, answer } = result;
    // Their own server's policy refuses our email: nobody can agree to the change, so it is forgotten.
    if (verdict.skip) {
      await store.dropPhoneChange(id);
      return { result: 'skipped', why: verdict.reason };
    }
    return { result: 'refused', verdict, answer };
  }

  const undeliverable = markUndeliverable(subscriptions, logger, 'email', 'phone number change email');
  async function refusedForGood(queued: ClaimedMessage, verdict: FailureVerdict, answer: string): Promise<void> {
    await undeliverable(queued, verdict, answer);
    // Nobody can agree to the change now: it is forgotten (the number is not kept).
    await store.dropPhoneChange(queued.signupId);
  }

  return {
    kind: 'phone_change',
    what: 'phone number change emails',
    channel: 'email',
    // The one rule: an address that takes no email from us (a bounce, a complaint) gets none. Nobody
    // can agree to the change, so it is forgotten (the number is not kept) and the record keeps the
    // number they gave.
    whenNo: 'skipped',
    stillDue,
    afterNo: (subscriber) => store.dropPhoneChange(subscriber.id),
    queueDue: () => store.queueDue(new Date(now().getTime() - PHONE_CHANGE_DAYS * DAY_MS)),
    send,
    refusedForGood,
  };
}
