// How one message of a broadcast leaves and is recorded: its entry in the message log, the email
// written from the broadcast's parts with the person's links and the log's headers and handed to the
// SMTP pool as it is, the text handed to Twilio with its status callback, and the batch's outcomes
// written to the outbox, patiently.
import type { Language } from '../../shared/languages.js';
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Subscriptions } from '../consent/subscriptions.js';
import type { Channel } from '../db/message-channels.js';
import { contentIn, type Broadcast } from '../db/broadcasts-repository.js';
import type { OutboxRepository } from '../db/outbox-repository.js';
import type { ClaimedMessage, Outcome } from '../db/outbox-rows.js';
import type { Recipient } from '../db/broadcast-recipients-repository.js';
import { EmailSendError, providerIdFrom, type EmailSender } from '../messaging/email-sender.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { manageUrls } from '../messaging/link-urls.js';
import { feedbackId, type OutgoingMessage } from '../messaging/message-log.js';
import { toE164 } from '../messaging/phone.js';
import { SmsSendError, type SmsProvider } from '../messaging/sms-provider.js';
import type { broadcastEmailWriter } from './broadcast-email.js';
import { messageIdDomain } from '../messaging/mime-message.js';
import { notSetUp } from './channel-setup.js';

export interface Dispatch {
  links: LinkSigner;
  siteUrl: string;
  /** MAIL_FROM: the Message-ID's domain. */
  mailFrom?: string | undefined;
  /** SECRET_KEY: makes each Message-ID carry a tag nobody else can work out (issue 42). */
  messageIdKey?: string | undefined;
  email?: EmailSender | undefined;
  sms?: SmsProvider | undefined;
}

/**
 * The same Message-ID for the same outbox row, every time: a re-send of an unknown one can be
 * recognised as the same message by the receiving side. The ids in it can be counted; the tag after
 * them (an HMAC under SECRET_KEY) cannot, so a report naming a Message-ID someone made up matches
 * nothing (a provider's report without our token is matched by Message-ID: act-on-reports.ts).
 */
export function broadcastMessageId(
  broadcast: Broadcast,
  message: ClaimedMessage,
  { mailFrom, messageIdKey }: Pick<Dispatch, 'mailFrom' | 'messageIdKey'>,
): string {
  const ids = `broadcast-${broadcast.id}.message-${message.id}`;
  const tag = messageIdKey
    ? `.${createHmac('sha256', messageIdKey).update(`message-id ${ids}`).digest('hex').slice(0, 20)}`
    : '';
  return `${ids}${tag}@${messageIdDomain(mailFrom ?? '')}`;
}

export async function sendBroadcastEmail(
  dispatch: Dispatch,
  broadcast: Broadcast,
  message: ClaimedMessage,
  person: { id: string; email: string },
  writeEmail: ReturnType<typeof broadcastEmailWriter>,
  outgoing: OutgoingMessage | undefined,
): Promise<string> {
  const { links, siteUrl, email } = dispatch;
  if (!email) throw new EmailSendError(notSetUp(['email']), { kind: 'sender', reason: notSetUp(['email']) });
  const urls = manageUrls(links, siteUrl, person.id);
  const unsubscribeUrl = urls.unsubscribe;
  const messageId = broadcastMessageId(broadcast, message, dispatch);
  const raw = writeEmail({
    to: person.email,
    messageId,
    unsubscribeUrl,
    links: { preferencesUrl: urls.preferences, unsubscribeUrl },
    ...(outgoing ? { headers: outgoing.headers } : {}),
  });
  const sent = await email.sendRaw({
    to: person.email,
    messageId,
    raw,
    ...(outgoing?.envelopeFrom ? { envelopeFrom: outgoing.envelopeFrom } : {}),
  });
  return providerIdFrom(sent.response) ?? messageId;
}

/** The broadcast's text, in the person's language. */
export async function sendBroadcastText(
  dispatch: Dispatch,
  broadcast: Broadcast,
  person: { phone: string; language: Language },
  outgoing: OutgoingMessage | undefined,
): Promise<string> {
  if (!dispatch.sms) throw new SmsSendError(notSetUp(['sms']), { kind: 'sender', reason: notSetUp(['sms']) });
  const sent = await dispatch.sms.send({
    to: toE164(person.phone),
    body: contentIn(broadcast.content, person.language).sms,
    ...(outgoing ? { statusCallback: outgoing.statusCallback } : {}),
  });
  return sent.id;
}

/** A message's entry in the message log, with the keyed hash of the address it goes to. */
export function messageLogEntry(
  dispatch: Pick<Dispatch, 'mailFrom'> & { subscriptions: Pick<Subscriptions, 'emailHash' | 'phoneHash'> },
  broadcast: Broadcast,
  channel: Channel,
  message: ClaimedMessage,
  person: Recipient,
) {
  const { subscriptions } = dispatch;
  return {
    channel,
    purpose: 'broadcast' as const,
    signupId: person.id,
    broadcastId: broadcast.id,
    outboxId: message.id,
    addressHash:
      (channel === 'email' ? subscriptions.emailHash(person.email) : subscriptions.phoneHash(person.phone)) ?? null,
    messageId: channel === 'email' ? broadcastMessageId(broadcast, message, dispatch) : null,
    feedbackId: feedbackId(broadcast.name, broadcast.template),
  };
}

/**
 * Records a batch's outcomes, trying again through a short database outage: these messages have
 * left, and a sender that gave up here would leave them to be reported unknown.
 */
export async function recordPatiently(
  store: Pick<OutboxRepository, 'record'>,
  senderId: string,
  outcomes: Outcome[],
  attempts: number,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await store.record(senderId, outcomes);
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      await sleep(Math.min(5_000, 250 * 2 ** attempt));
    }
  }
}
