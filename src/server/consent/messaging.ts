// Puts messaging together from the configuration: the transports, the signed links, the
// subscriptions service, the confirmation mailer and the clean-up of unconfirmed sign-ups.
import type { FastifyBaseLogger } from 'fastify';
import type { MessagingConfig } from '../config.js';
import type { Db } from '../db/open-database.js';
import { ConfirmationMailer } from './confirmation-mailer.js';
import { createEmailSender, type EmailSender } from './email-sender.js';
import { createAddressHasher, createLinkSigner, type LinkSigner } from './link-tokens.js';
import type { SmsProvider } from './sms-provider.js';
import { Subscriptions } from './subscriptions.js';
import { createTwilioSmsProvider } from './twilio-sms-provider.js';

/** How often unconfirmed sign-ups past their time are looked for. */
const RETENTION_SWEEP_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export interface MessagingOverrides {
  /** Tests: a transport of their own (still a real one, at the network's edge). */
  email?: EmailSender;
  sms?: SmsProvider;
  mailer?: Partial<ConstructorParameters<typeof ConfirmationMailer>[0]>;
}

export interface Messaging {
  subscriptions: Subscriptions;
  /** Set when SECRET_KEY is: the pages the links open are served. */
  links?: LinkSigner;
  email?: EmailSender;
  sms?: SmsProvider;
  mailer?: ConfirmationMailer;
  /** How people reach us (the HELP answer): the sender's address, else the site. */
  contact: string;
  /** A sign-up was stored: its confirmation email (if any) goes out soon. */
  signupStored(): void;
  start(logger: FastifyBaseLogger): void;
  stop(): Promise<void>;
}

export function contactFor(config: MessagingConfig, siteUrl: string): string {
  const from = config.email?.from;
  const address = from?.match(/<([^>]+)>/)?.[1] ?? from;
  return address ?? siteUrl.replace(/^https?:\/\//, '');
}

export function createMessaging(
  config: MessagingConfig,
  store: Db,
  siteUrl: string,
  overrides: MessagingOverrides = {},
): Messaging {
  const secretKey = config.secretKey;
  const hasher = secretKey ? createAddressHasher(secretKey) : undefined;
  const subscriptions = new Subscriptions(store.consent, hasher);
  const links = secretKey ? createLinkSigner(secretKey) : undefined;
  const listId = `launch.${new URL(siteUrl).hostname}`;
  const email =
    overrides.email ??
    (config.email ? createEmailSender(config.email, { listId, listName: 'ScamSavvy launch news' }) : undefined);
  const sms = overrides.sms ?? (config.sms ? createTwilioSmsProvider(config.sms) : undefined);
  let mailer: ConfirmationMailer | undefined;
  let sweep: NodeJS.Timeout | undefined;

  const messaging: Messaging = {
    subscriptions,
    ...(links ? { links } : {}),
    ...(email ? { email } : {}),
    ...(sms ? { sms } : {}),
    contact: contactFor(config, siteUrl),
    signupStored: () => mailer?.nudge(),
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
      if (email && links && config.emailConfirmation) {
        mailer = new ConfirmationMailer({
          subscriptions,
          email,
          links,
          siteUrl,
          retentionDays: config.unconfirmedRetentionDays,
          logger,
          ...overrides.mailer,
        });
        mailer.start();
        messaging.mailer = mailer;
        const removeStale = () =>
          store.consent
            .deleteUnconfirmed(new Date(Date.now() - config.unconfirmedRetentionDays * DAY_MS))
            .then((removed) => {
              if (removed > 0) logger.info({ removed }, 'deleted sign-ups that were never confirmed');
            })
            .catch((error: Error) => logger.warn({ err: error.message }, 'could not delete unconfirmed sign-ups'));
        void removeStale();
        sweep = setInterval(removeStale, RETENTION_SWEEP_MS);
        sweep.unref();
      }
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      await mailer?.stop();
      email?.close();
    },
  };
  return messaging;
}
