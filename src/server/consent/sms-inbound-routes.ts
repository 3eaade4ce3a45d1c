// POST /api/sms/inbound: the text provider's webhook for replies. STOP and the other stop words end
// texts to that number, and so does a "stop" in the person's own words ("Please stop texting me", "Ya
// no me mande mensajes": stop-phrases.ts); START or UNSTOP brings them back, YES (Y, SÍ) says yes to
// texts (decision 041), HELP says who we are; each in English or Spanish, answered in the language of
// the words (issue 45). Only requests that carry the provider's signature are read, each text once (by
// its provider id: a replayed START cannot undo a later STOP). A reply no rule acts on is kept for the
// owner's Replies list (issue 54), never dropped unseen; the texts we act on are not stored.
import formBody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import type { Language } from '../../shared/languages.js';
import { messageWordsIn } from '../messaging/message-words.js';
import { AppError } from '../errors.js';
import type { SmsProvider } from '../messaging/sms-provider.js';
import { readSmsKeyword } from './sms-keywords.js';
import { readsAsStop } from './stop-phrases.js';
import { phoneEnd } from '../messaging/phone.js';
import { withoutAddresses } from '../messaging/log-safe.js';
import { feedbackId, type MessageLog } from '../messaging/message-log.js';
import { verdictOf } from '../messaging/send-failure.js';
import type { Subscriptions } from './subscriptions.js';
import type { InboundTextsRepository } from '../db/inbound-texts-repository.js';
import type { SmsRepliesRepository } from '../db/sms-replies-repository.js';

export interface SmsInboundOptions {
  sms: SmsProvider;
  subscriptions: Subscriptions;
  /** The address the provider calls, as it signs it: SITE_URL plus the path. */
  siteUrl: string;
  /** How people can reach us, for the HELP answer. */
  contact: string;
  /** Who sends and where (MAIL_POSTAL_ADDRESS), named in the HELP answer as every email names it; '' when unset. */
  sender?: string;
  /** Records each answer with its token and status-callback URL, so what Twilio reports about it is kept. */
  log?: MessageLog | undefined;
  /** The texts already acted on, by provider id. */
  inboundTexts: Pick<InboundTextsRepository, 'firstTime'>;
  /** Where the replies no rule acted on are kept, for the owner's Replies list. */
  replies: Pick<SmsRepliesRepository, 'keep'>;
  /**
   * SMS_KEYWORD_REPLIES=twilio: Twilio answers STOP, START, YES and HELP itself, so we act on them
   * and say nothing (one answer, never two). A "stop" in the person's own words Twilio does not read:
   * that one we answer.
   */
  silent?: boolean;
}

export const SMS_INBOUND_PATH = '/api/sms/inbound';

export const smsInboundRoutes: FastifyPluginAsync<SmsInboundOptions> = async (app, options) => {
  const { sms, subscriptions, siteUrl, contact, sender = '', log, inboundTexts, replies, silent = false } = options;

  /** The answer to one text, recorded like every message we send (its reports match it; it acts on nobody). */
  const answerText = async (to: string, body: string): Promise<void> => {
    const outgoing = await log?.begin({
      channel: 'sms',
      purpose: 'reply',
      signupId: null,
      feedbackId: feedbackId('reply', 'sms'),
    });
    try {
      const sent = await sms.send({ to, body, ...(outgoing ? { statusCallback: outgoing.statusCallback } : {}) });
      if (outgoing) await log?.sent(outgoing.token, { providerId: sent.id });
    } catch (error) {
      if (outgoing)
        await log?.refused(outgoing.token, 'sms', verdictOf(error), withoutAddresses((error as Error).message));
      throw error;
    }
  };
  // Form bodies here only: the rest of the API takes JSON alone.
  await app.register(formBody, { bodyLimit: 16 * 1024 });

  app.post(SMS_INBOUND_PATH, async (request, reply) => {
    const params = toStrings(request.body);
    const verified = sms.verifyInbound({ url: `${siteUrl}${request.url}`, headers: request.headers, params });
    if (!verified) {
      request.log.warn('an inbound text webhook without a valid signature was refused');
      throw new AppError(403, 'forbidden', 'This request is not signed by the text provider.');
    }
    const inbound = sms.parseInbound(params);
    if (!inbound) return reply.code(200).type(sms.emptyInboundAnswer.contentType).send(sms.emptyInboundAnswer.body);
    const read = readSmsKeyword(inbound.body);
    // Not a keyword: perhaps a "stop" in the person's own words, in English or Spanish.
    const ownWords = read ? undefined : readsAsStop(inbound.body);
    const keyword = read?.keyword ?? (ownWords ? 'stop' : undefined);
    if (inbound.id && !(await inboundTexts.firstTime(inbound.id))) {
      request.log.info({ keyword }, 'an inbound text already acted on came again, and was ignored');
      return reply.code(200).type(sms.emptyInboundAnswer.contentType).send(sms.emptyInboundAnswer.body);
    }
    let answer: string | string[] | undefined;
    let actedOn = true;
    // The words' language; START has none of its own: the language the number signed up in.
    const language: Language = read?.language ?? ownWords ?? (await subscriptions.languageOfNumber(inbound.from));
    const words = messageWordsIn[language].sms;
    if (keyword === 'stop') {
      const people = await subscriptions.stopTexts(inbound.from, 'sms_reply', inbound.body);
      request.log.info(
        { people },
        ownWords ? 'texts stopped by a reply that asks us to stop in its own words' : 'texts stopped by a STOP reply',
      );
      answer = words.stopped;
    } else if (keyword === 'start') {
      const people = await subscriptions.startTexts(inbound.from, inbound.body);
      request.log.info({ people }, 'texts started again by a START reply');
      answer = words.started;
    } else if (keyword === 'yes') {
      const { confirmed, onList } = await subscriptions.confirmTexts(inbound.from, inbound.body);
      request.log.info({ people: confirmed }, 'texts confirmed by a YES reply');
      // Said only to a number someone on the list gave with texts on (after a STOP, START undoes it).
      if (onList) answer = words.confirmed;
      else actedOn = false;
    } else if (keyword === 'help') {
      answer = words.help(contact, sender);
    } else actedOn = false;
    if (!actedOn) {
      // Nobody acted on it: the owner reads it on the Replies list (the number shown as its last four digits).
      await replies.keep({
        phoneHash: subscriptions.phoneHash(inbound.from) ?? '',
        phoneEnd: phoneEnd(inbound.from),
        body: inbound.body,
      });
      request.log.info('a reply no rule acts on was kept for the owner to read');
    }
    if (answer && (!silent || ownWords)) {
      const to = inbound.from;
      // Sent after the answer, so the provider's webhook never waits on a second request.
      // HELP may be two texts (the postal address when it does not fit in one): sent one after the other.
      const texts = typeof answer === 'string' ? [answer] : answer;
      setImmediate(() => {
        texts
          .reduce<Promise<unknown>>((sent, text) => sent.then(() => answerText(to, text)), Promise.resolve())
          .catch((error: Error) => {
            request.log.warn(
              { err: withoutAddresses(error.message), keyword },
              'the reply to an inbound text could not be sent',
            );
          });
      });
    }
    return reply.code(200).type(sms.emptyInboundAnswer.contentType).send(sms.emptyInboundAnswer.body);
  });
};

function toStrings(body: unknown): Record<string, string> {
  const params: Record<string, string> = {};
  if (typeof body !== 'object' || body === null) return params;
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') params[key] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string') params[key] = value[0];
  }
  return params;
}
