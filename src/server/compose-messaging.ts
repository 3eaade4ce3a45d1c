// The composition root's messaging (with compose.ts, which calls it; issue 54): the outbox, its one
// gate and its sender are built here, once, for every kind the product sends by itself; with them the
// subscriptions service, the link signer, the address hasher, the message tokens and log, the
// transports, and the queue workers and clean-ups the server's job runner runs (jobs/job-list.ts).
import { numbersInOneForm } from './consent/numbers-in-one-form.js';
import type { CountryCode } from 'libphonenumber-js';
import { TextTiming } from './messaging/text-hours.js';
import { joiningTexts } from './consent/joining-texter.js';
import { OutboxSender, type OutboxSenderOptions } from './consent/outbox-sender.js';
import type { FastifyBaseLogger } from 'fastify';
import type { MessagingConfig } from './messaging-config.js';
import type { Db } from './db/open-database.js';
import { confirmationReminders } from './consent/confirmation-reminders.js';
import { confirmationEmails } from './consent/confirmation-mailer.js';
import { phoneChangeEmails } from './consent/phone-change-mailer.js';
import { createButtonMailer, type ButtonMailer } from './consent/emailed-buttons.js';
import type { JobName } from './jobs/job-list.js';
import type { JobRun } from './jobs/job-runner.js';
import { senderLine } from '../shared/public-config.js';
import type { MessageLog, MessageLogStore } from './messaging/message-log.js';
import { createMessageTokens, type MessageTokens } from './messaging/message-tokens.js';
import type { EmailSender } from './messaging/email-sender.js';
import { createAddressHasher, createLinkSigner, type LinkSigner } from './messaging/link-tokens.js';
import type { SmsProvider } from './messaging/sms-provider.js';
import { ratedEmail, ratedTexts, type ChannelRates } from './messaging/channel-rates.js';
import { DAY_MS, PHONE_CHANGE_DAYS, Subscriptions } from './consent/subscriptions.js';
import type { SubscriptionsStore } from './consent/subscriptions-store.js';
import { contactFor, createMessageLog, createTransports } from './messaging/transports.js';
import { plural } from '../shared/plain-numbers.js';

export interface MessagingOverrides {
  /** The headers that make the providers' webhooks hand each message's token back (compose-reports.ts composes them). */
  tagHeaders?: (token: string) => Record<string, string>;
  /**
   * Each channel's rate, which the kinds the one sender sends keep to (compose.ts builds it from
   * BROADCAST_EMAIL_RATE and BROADCAST_SMS_RATE; messaging/channel-rates.ts). Unset: no limit.
   */
  rates?: Pick<ChannelRates, 'take'>;
  /** Tests: a transport of their own (still a real one, at the network's edge). */
  email?: EmailSender;
  sms?: SmsProvider;
  /** Tests: the confirmation emails' sender (its clock, back-off and log). */
  mailer?: Partial<Omit<OutboxSenderOptions, 'queue' | 'people'>>;
  /** Tests: the joining texts' sender (its clock and back-off). */
  texter?: Partial<Omit<OutboxSenderOptions, 'queue' | 'people' | 'logger'>>;
  /** Tests: shorter intervals for the queue jobs. */
  everyMs?: Partial<Record<QueueJobName, number>>;
}

/** SMTP connections the product's own emails keep open (a broadcast's sender keeps as many: broadcast/broadcasts.ts). */
export const OWN_SMTP_CONNECTIONS = 8;
/** Confirmation emails claimed, begun and recorded together; they queue for the pool's connections. */
export const CONFIRMATION_BATCH = 32;

export type QueueJobName = Extract<JobName, 'confirmation-emails' | 'phone-change-emails' | 'joining-texts'>;

/** A queue worker as a job of jobs/job-list.ts: what it runs, and its interval when a test makes it another. */
export interface QueueJob {
  name: QueueJobName;
  run: JobRun;
  everyMs?: number | undefined;
}

export interface Messaging {
  subscriptions: Subscriptions;
  /** Set when SECRET_KEY is: the pages the links open are served. */
  links?: LinkSigner;
  email?: EmailSender;
  sms?: SmsProvider;
  /** Every message recorded with its token (set with SECRET_KEY and a database that keeps them). */
  log?: MessageLog;
  /** Set when SECRET_KEY is: issues and checks the tokens messages carry. */
  tokens?: MessageTokens;
  /** Set with email and SECRET_KEY: the buttons emailed for what only the person may do (issue 54). */
  buttons?: ButtonMailer;
  /** How people reach us (the HELP answer): the sender's address, else the site. */
  contact: string;
  /** Who sends and where (MAIL_POSTAL_ADDRESS), as every email's footer and the HELP answer say it; '' when unset. */
  sender: string;
  /** EMAIL_CONFIRMATION is on (with email set up): new sign-ups are asked to confirm. */
  confirmationOn: boolean;
  /** A sign-up was stored: its confirmation email, phone change email and joining text (if any) go now. */
  signupStored(): void;
  /**
   * The queue workers, as jobs for the server's runner (jobs/job-runner.ts), built with its logger;
   * `wake` is how signupStored runs them before their interval. Empty where nothing is set up.
   */
  queueJobs(logger: FastifyBaseLogger, wake: (name: QueueJobName) => void): QueueJob[];
  /** The job "phone-changes-forgotten" (jobs/job-list.ts): forgets number changes nobody agreed to in time. */
  forgetStalePhoneChanges(): Promise<string>;
  /** The job "numbers-in-one-form", with SECRET_KEY set: every stored number rewritten in E.164. */
  numbersInOneForm?: () => Promise<string>;
  /**
   * The job "unconfirmed-sign-ups", with email and EMAIL_CONFIRMATION on: deletes the sign-ups never
   * confirmed in time, then sends the one reminder before that.
   */
  sweepUnconfirmed?: (logger: FastifyBaseLogger) => Promise<string>;
  start(logger: FastifyBaseLogger): void;
  stop(): Promise<void>;
}

export { RESTORE_HOLDS_MESSAGES } from './consent/outbox-sender.js';

/** What SECRET_KEY unlocks: the subscriptions service (with suppression hashes) and the link signer. */
export interface MessagingCore {
  subscriptions: Subscriptions;
  /** Set when SECRET_KEY is. */
  links?: LinkSigner;
}

/** The subscriptions service and the link signer; without SECRET_KEY, no hashes and no links. */
export function createMessagingCore(
  config: Pick<MessagingConfig, 'secretKey' | 'previousSecretKey' | 'smsConfirmation' | 'textHours'>,
  store: SubscriptionsStore,
): MessagingCore {
  const { secretKey } = config;
  const subscriptions = new Subscriptions(
    store,
    secretKey ? createAddressHasher(secretKey, config.previousSecretKey) : undefined,
    config.smsConfirmation ?? 'reply',
    (config.textHours?.defaultCountry ?? 'US') as CountryCode,
  );
  return { subscriptions, ...(secretKey ? { links: createLinkSigner(secretKey, config.previousSecretKey) } : {}) };
}

export function createMessaging(
  config: MessagingConfig,
  store: SubscriptionsStore &
    Pick<Db, 'confirmations' | 'phoneChanges' | 'outbox'> &
    Partial<Pick<Db, 'joiningTexts' | 'restoreMarks' | 'numbers'>> &
    Partial<MessageLogStore>,
  siteUrl: string,
  overrides: MessagingOverrides = {},
): Messaging {
  const { subscriptions, links } = createMessagingCore(config, store);
  // The process's one set of message tokens: the log issues them, feedback checks them.
  const tokens = config.secretKey ? createMessageTokens(config.secretKey, config.previousSecretKey) : undefined;
  const log = createMessageLog(config, store, siteUrl, tokens, overrides.tagHeaders);
  // A transport the caller brings is used instead of one built here (not beside it).
  const transports = createTransports(
    {
      ...(config.email && !overrides.email ? { email: config.email } : {}),
      ...(config.sms && !overrides.sms ? { sms: config.sms } : {}),
    },
    siteUrl,
    // As many SMTP connections as a broadcast's sender keeps: a provider 100 ms away takes about 2.5
    // emails a second on one, so three would hold a rush under even a new SES account's 14.
    { connections: OWN_SMTP_CONNECTIONS },
  );
  const email = overrides.email ?? transports.email;
  const sms = overrides.sms ?? transports.sms;
  // The kinds the one sender sends keep to each channel's rate; what a person waits on this moment
  // (an emailed button, the answer to their text) goes at once.
  const { rates } = overrides;
  const rateEmail = (sender: EmailSender) => (rates ? ratedEmail(sender, rates) : sender);
  const rateTexts = (provider: SmsProvider) => (rates ? ratedTexts(provider, rates) : provider);
  let wakeJob: ((name: QueueJobName) => void) | undefined;
  const queued: QueueJobName[] = [];

  // After a restore that could not read what it replaced, any "no" since the backup is unknown: no
  // message of any kind goes until the owner settles it, as on a broadcast's path (issue 54).
  const held = async () => Boolean(await store.restoreMarks?.unsettled());
  const messaging: Messaging = {
    subscriptions,
    ...(links ? { links } : {}),
    ...(log ? { log } : {}),
    ...(tokens ? { tokens } : {}),
    ...(email ? { email } : {}),
    ...(sms ? { sms } : {}),
    ...(email && links
      ? {
          buttons: createButtonMailer({
            queue: store.outbox,
            email,
            log,
            links,
            siteUrl,
            postalAddress: config.postalAddress,
            subscriptions,
          }),
        }
      : {}),
    contact: contactFor(config, siteUrl),
    confirmationOn: config.emailConfirmation,
    sender: senderLine(config.postalAddress),
    signupStored: () => {
      for (const name of queued) wakeJob?.(name);
    },
    // A phone number change nobody agreed to within PHONE_CHANGE_DAYS is forgotten (email or not).
    forgetStalePhoneChanges: async () => {
      const forgotten = await store.phoneChanges.dropStalePhoneChanges(
        new Date(Date.now() - PHONE_CHANGE_DAYS * DAY_MS),
      );
      return forgotten === 0 ? 'none to forget' : `${plural(forgotten, 'change')} forgotten`;
    },
    ...(store.numbers && subscriptions.canSuppress
      ? { numbersInOneForm: () => numbersInOneForm(store.numbers!, subscriptions) }
      : {}),
    ...(email && links && config.emailConfirmation
      ? {
          sweepUnconfirmed: async (logger: FastifyBaseLogger) => {
            const removed = await store.confirmations.deleteUnconfirmed(
              new Date(Date.now() - config.unconfirmedRetentionDays * DAY_MS),
            );
            if (removed > 0) logger.info({ removed }, 'deleted sign-ups that were never confirmed');
            // The one reminder, before the deletion it warns of (CONFIRMATION_REMINDER_DAYS).
            const reminders = confirmationReminders({
              store: store.confirmations,
              subscriptions,
              email: rateEmail(email),
              links,
              siteUrl,
              reminderDays: config.confirmationReminderDays,
              retentionDays: config.unconfirmedRetentionDays,
              postalAddress: config.postalAddress,
              log,
              logger,
            });
            const { sent } = await new OutboxSender(reminders, {
              queue: store.outbox,
              people: subscriptions,
              held,
              logger,
              concurrency: 3,
            }).sendDue();
            if (sent > 0) logger.info({ sent }, 'sent confirmation reminders');
            if (removed === 0 && sent === 0) return 'none due';
            return `${plural(removed, 'sign-up')} deleted, ${plural(sent, 'reminder')} sent`;
          },
        }
      : {}),
    queueJobs(logger, wake) {
      wakeJob = wake;
      const jobs: QueueJob[] = [];
      const add = (name: QueueJobName, run: JobRun) => {
        queued.push(name);
        jobs.push({ name, run, everyMs: overrides.everyMs?.[name] });
      };
      if (email && links) {
        const asks = phoneChangeEmails({
          store: store.phoneChanges,
          subscriptions,
          email: rateEmail(email),
          links,
          siteUrl,
          postalAddress: config.postalAddress,
          log,
          logger,
        });
        const asker = new OutboxSender(asks, {
          queue: store.outbox,
          people: subscriptions,
          held,
          logger,
          concurrency: 3,
        });
        add('phone-change-emails', (signal) => asker.run(signal));
      }
      // The joining text asks each number for its YES (decision 041); without SECRET_KEY nothing is texted.
      // (Without valid SMS_SEND_HOURS the settings are refused at start: config.textHours is there.)
      if (sms && store.joiningTexts && subscriptions.canSuppress && config.textHours) {
        const texts = joiningTexts({
          subscriptions,
          store: store.joiningTexts,
          sms: rateTexts(sms),
          log,
          textProof: config.smsConfirmation ?? 'reply',
          logger,
          textTiming: new TextTiming(config.textHours),
          ...(overrides.texter?.now ? { now: overrides.texter.now } : {}),
        });
        const texter = new OutboxSender(texts, {
          queue: store.outbox,
          people: subscriptions,
          held,
          logger,
          ...overrides.texter,
        });
        add('joining-texts', (signal) => texter.run(signal));
      }
      if (email && links && config.emailConfirmation) {
        const mailerLogger = overrides.mailer?.logger ?? logger;
        const confirmations = confirmationEmails({
          subscriptions,
          email: rateEmail(email),
          links,
          siteUrl,
          retentionDays: config.unconfirmedRetentionDays,
          reminderDays: config.confirmationReminderDays,
          postalAddress: config.postalAddress,
          logger: mailerLogger,
          log,
          ...(overrides.mailer?.now ? { now: overrides.mailer.now } : {}),
        });
        // A batch goes at once, over the mail transport's pool of connections: a launch-day rush of
        // sign-ups is answered within a second or so, not one email after another, and the sending
        // thread writes a batch's records in one statement and its outcomes in one transaction.
        const mailer = new OutboxSender(confirmations, {
          queue: store.outbox,
          people: subscriptions,
          held,
          batchSize: CONFIRMATION_BATCH,
          concurrency: CONFIRMATION_BATCH,
          ...overrides.mailer,
          logger: mailerLogger,
        });
        add('confirmation-emails', (signal) => mailer.run(signal));
      }
      return jobs;
    },
    start(logger) {
      if (!email && !sms) {
        logger.info(
          'No messages will be sent: set SMTP_URL and MAIL_FROM for email, TWILIO_* for texts (docs/messaging.md)',
        );
        return;
      }
      logger.info(
        {
          email: Boolean(email),
          texts: sms ? sms.name : false,
          confirmation: config.emailConfirmation ? 'on' : 'off',
        },
        'messaging is on',
      );
    },
    async stop() {
      email?.close();
    },
  };
  return messaging;
}
