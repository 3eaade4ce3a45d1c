// The email a repeat sign-up with another phone number sends to the address on record: "Someone
// asked to change your phone number to •••• 4567. Press the button to change it." (decision 031).
// Each waiting change is claimed before its email is written (a lease, so two senders never take the
// same one and a sender that dies leaves it for another) and marked sent once it went, so the owner's
// page says an email went only when it did; a failure of ours ends the claim for the next run; an
// address refused for good is marked undeliverable, as for any send. Nothing changes until the person
// presses the button.
import { LATER_IN_A_ROW } from './confirmation-reminders.js';
import type { FastifyBaseLogger } from 'fastify';
import type { PhoneChangeQueueRepository } from '../db/phone-change-queue-repository.js';
import type { EmailSender } from '../messaging/email-sender.js';
import { deletionDay, renderPhoneChangeEmail } from '../messaging/email-templates.js';
import { feedbackId, type MessageLog } from '../messaging/message-log.js';
import { manageUrls, phoneChangeUrl } from '../messaging/link-urls.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { sendRecordedEmail } from '../messaging/recorded-email.js';
import { distinctEnds } from '../messaging/phone.js';
import { DAY_MS, PHONE_CHANGE_DAYS, type Subscriptions } from './subscriptions.js';
import { number } from '../../shared/plain-numbers.js';

export interface PhoneChangeMailerOptions {
  store: Pick<
    PhoneChangeQueueRepository,
    'claimPhoneChanges' | 'phoneChangeSent' | 'phoneChangeNotSent' | 'dropPhoneChange'
  >;
  subscriptions: Subscriptions;
  email: EmailSender;
  links: LinkSigner;
  siteUrl: string;
  postalAddress?: string | undefined;
  log?: MessageLog | undefined;
  logger: FastifyBaseLogger;
  batchSize?: number;
  now?: () => Date;
}

export interface PhoneChangeRun {
  sent: number;
  /** Claimed, but nothing to send: the change is made or dropped, or their address takes no email (then it is dropped). */
  skipped: number;
  /** Refused for good: the address is marked undeliverable, and the change dropped. */
  failed: number;
  /** Not sent for a reason of ours: given back for the next run. */
  waiting: number;
  /** This person's server said "not now": given back, and the run goes on to the others. */
  later: number;
}

/** Sends the emails about waiting phone number changes, a batch at a time, until none is left. */
export async function sendDuePhoneChanges(options: PhoneChangeMailerOptions): Promise<PhoneChangeRun> {
  const run: PhoneChangeRun = { sent: 0, skipped: 0, failed: 0, waiting: 0, later: 0 };
  const givenBack = new Set<string>();
  let laterInARow = 0;
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 20;
  for (;;) {
    const due = await options.store.claimPhoneChanges(
      batchSize,
      new Date(now().getTime() - PHONE_CHANGE_DAYS * DAY_MS),
    );
    // One given back earlier in this run is not tried again until the next run.
    const fresh = due.filter((id) => !givenBack.has(id));
    for (const id of due) if (givenBack.has(id)) await options.store.phoneChangeNotSent(id);
    if (fresh.length === 0) return run;
    for (const [index, id] of fresh.entries()) {
      const outcome = await askOne(options, id, now());
      run[outcome] += 1;
      if (outcome === 'later') givenBack.add(id);
      // Two "not now" answers in a row are the mail server's, not two people's: the run stops.
      laterInARow = outcome === 'later' ? laterInARow + 1 : 0;
      if (outcome === 'waiting' || laterInARow >= LATER_IN_A_ROW) {
        for (const rest of fresh.slice(index + 1)) await options.store.phoneChangeNotSent(rest);
        run.waiting += fresh.length - index - 1;
        return run;
      }
    }
    if (due.length < batchSize) return run;
  }
}

async function askOne(options: PhoneChangeMailerOptions, id: string, now: Date): Promise<keyof PhoneChangeRun> {
  const { store, subscriptions, links, siteUrl, logger } = options;
  const subscriber = await subscriptions.subscriber(id);
  const change = subscriber ? subscriptions.pendingPhoneChange(subscriber, now) : undefined;
  if (!subscriber || !change) {
    // The same number written another way, or gone stale: nothing to ask.
    if (subscriber) await store.dropPhoneChange(id);
    return 'skipped';
  }
  // The one rule: an address that takes no email from us (a bounce, a complaint) gets none. Nobody
  // can agree to the change, so it is forgotten (the number is not kept) and the record keeps the
  // number they gave.
  if (!(await subscriptions.mayContact(subscriber, 'email'))) {
    await store.dropPhoneChange(id);
    return 'skipped';
  }
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
    return 'sent';
  }
  const { verdict, answer } = result;
  logger.warn({ signup: id, err: answer }, `phone number change email not sent: ${verdict.reason}`);
  if (verdict.kind === 'recipient') {
    await subscriptions.markUndeliverable(subscriber, 'email');
    await store.dropPhoneChange(id);
    return 'failed';
  }
  // Their own server's policy refuses our email: nobody can agree to the change, so it is forgotten.
  if (verdict.skip) {
    await store.dropPhoneChange(id);
    return 'skipped';
  }
  await store.phoneChangeNotSent(id);
  // One person's "not now" never holds up everyone after them; a problem of ours stops the run.
  return verdict.kind === 'message' ? 'later' : 'waiting';
}

/**
 * The job "phone-change-emails" (jobs/job-list.ts): sends every waiting phone number change's
 * email. What it did, in a few words, or nothing when nothing was waiting.
 */
export async function phoneChangeEmailsJob(options: PhoneChangeMailerOptions): Promise<string | undefined> {
  const run = await sendDuePhoneChanges(options);
  if (run.sent > 0) options.logger.info({ sent: run.sent }, 'asked about new phone numbers');
  const { sent, skipped, failed, waiting, later } = run;
  if (sent + skipped + failed + waiting + later === 0) return undefined;
  return `${number(sent)} sent, ${number(skipped)} skipped, ${number(failed)} failed, ${number(waiting + later)} to try again`;
}
