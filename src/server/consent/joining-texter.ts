// The joining text (decision 041): once, at once, to each number that joins while texts are set up,
// saying who we are, what comes, and how to say YES, STOP and HELP. A kind of the one outbox
// (decision 052): the one sender (outbox-sender.ts) claims it, nudged by each sign-up and polled for
// retries and other instances' sign-ups, and judges a refusal; this says who is due it and sends one.
import type { FastifyBaseLogger } from 'fastify';
import type { JoiningTextsRepository } from '../db/joining-texts-repository.js';
import type { ClaimedMessage } from '../db/outbox-rows.js';
import { storedForms } from '../messaging/phone.js';
import type { TextTiming } from '../messaging/text-hours.js';
import { JOINING_TEXT_LATER_MS } from '../db/joining-texts-repository.js';
import { withoutAddresses } from '../messaging/log-safe.js';
import { feedbackId, type MessageLog } from '../messaging/message-log.js';
import { messageWordsIn } from '../messaging/message-words.js';
import { verdictOf, type FailureVerdict } from '../messaging/send-failure.js';
import type { SmsProvider } from '../messaging/sms-provider.js';
import type { TextProof } from './contact-rule.js';
import type { Subscriber } from '../db/subscribers-repository.js';
import type { Subscriptions } from './subscriptions.js';
import { markUndeliverable, type QueuedKindHandler, type SendOutcome } from './outbox-sender.js';

export interface JoiningTextOptions {
  subscriptions: Subscriptions;
  store: Pick<JoiningTextsRepository, 'queueDue' | 'texted' | 'numberAsked'>;
  sms: Pick<SmsProvider, 'send'>;
  log?: MessageLog | undefined;
  /** SMS_CONFIRMATION: the words say what brings the launch text. */
  textProof: TextProof;
  logger: FastifyBaseLogger;
  now?: () => Date;
  /**
   * The rules every text follows (messaging/text-hours.ts, `check`): a number that can take texts, in
   * a country SMS_COUNTRIES names (SMS_DEFAULT_COUNTRY for one typed without its country code), at an
   * hour it may. A joining text to someone who signed up a while ago (already on the list when texts
   * were switched on) waits for their hours; one that answers a sign-up just made goes at once,
   * whatever the hour: the person is at the page.
   */
  textTiming: TextTiming;
}

/** A sign-up this recent is answered at once: the person has just pressed the button. */
export const JUST_SIGNED_UP_MS = 10 * 60_000;

/** The joining text, as a kind of the one outbox: who is due it, and how one goes. */
export function joiningTexts(options: JoiningTextOptions): QueuedKindHandler {
  const { subscriptions, store, sms, log, logger, textProof, textTiming } = options;
  const now = options.now ?? (() => new Date());

  async function send(_message: ClaimedMessage, person: Subscriber): Promise<SendOutcome> {
    const at = now();
    const later = { result: 'later', at: new Date(at.getTime() + JOINING_TEXT_LATER_MS) } as const;
    const justSignedUp = at.getTime() - Date.parse(person.createdAt) <= JUST_SIGNED_UP_MS;
    // The rules every text follows, as for a broadcast's text; a "not now" looks again later (the
    // settings may change, or the person's hours come).
    const check = textTiming.check(person.phone, at, { hours: !justSignedUp });
    if (check.may === 'never' && check.cannotTakeTexts) {
      // A number the numbering plan says cannot take texts (a landline abroad, a toll-free number, one
      // of an impossible length) is marked undeliverable without a try, as a provider's "no" would.
      await subscriptions.markUndeliverable(person, 'sms');
      logger.info({ signup: person.id }, `no joining text: the number is ${check.why}`);
      return later;
    }
    // Only where SMS_COUNTRIES says we text: a number abroad someone typed costs the owner, and says nothing.
    if (check.may === 'not here') {
      logger.info(
        { signup: person.id },
        `no joining text: the number is in ${check.country}, which SMS_COUNTRIES does not name`,
      );
      return later;
    }
    // Outside the hours where they are (or no hour fits every zone they may be in: then a day on, to look again).
    if (check.may === 'never') return { result: 'later', at: new Date(at.getTime() + 24 * 60 * 60_000) };
    if (check.may === 'later') return { result: 'later', at: check.until };
    const { facts } = check.number;
    // One joining text per number, however many sign-ups typed it.
    if (await store.numberAsked(storedForms(facts.e164))) {
      logger.info({ signup: person.id }, 'no joining text: the number had one already, through another sign-up');
      return later;
    }
    const outgoing = await log?.begin({
      channel: 'sms',
      purpose: 'confirmation',
      signupId: person.id,
      addressHash: subscriptions.phoneHash(person.phone) ?? null,
      feedbackId: feedbackId('confirmation', 'joining-text'),
    });
    let providerId: string;
    try {
      const sent = await sms.send({
        to: facts.e164,
        body: messageWordsIn[person.language].sms.joining[textProof],
        ...(outgoing ? { statusCallback: outgoing.statusCallback } : {}),
      });
      providerId = sent.id;
    } catch (error) {
      const verdict = verdictOf(error);
      const answer = withoutAddresses((error as Error).message);
      if (outgoing) await log?.refused(outgoing.token, 'sms', verdict, answer);
      return { result: 'refused', verdict, answer };
    }
    await store.texted(person.id, person.phone);
    // Its record says "sent" in the same write as its outbox row.
    return { result: 'sent', logged: outgoing ? { token: outgoing.token, providerId } : undefined };
  }

  const undeliverable = markUndeliverable(subscriptions, logger, 'sms', 'joining text');
  async function refusedForGood(message: ClaimedMessage, verdict: FailureVerdict, answer: string): Promise<void> {
    // Twilio 21610: the number replied STOP to us once; that is its STOP.
    if (!verdict.stop) return undeliverable(message, verdict, answer);
    const person = await subscriptions.subscriber(message.signupId);
    if (person) await subscriptions.stopTexts(person.phone, 'provider_answer');
  }

  return {
    kind: 'joining_text',
    what: 'joining texts',
    channel: 'sms',
    // Texts turned off (or a STOP) wait: turned on again, the number still gets its one joining text.
    whenNo: { laterMs: JOINING_TEXT_LATER_MS },
    stillDue: async (person) => (person.joiningTextSentAt !== null ? 'sent already' : undefined),
    queueDue: () => store.queueDue(),
    send,
    refusedForGood,
  };
}
