// A broadcast's contents and recipients: create one and choose who gets it, top it up, preview it,
// send one test message, and build its senders. BroadcastControl (broadcast-control.ts) runs these
// for the owner's command and the dashboard. Decision 023.
import type { Config } from '../config.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { manageUrls } from '../messaging/link-urls.js';
import { providerIdFrom } from '../messaging/email-sender.js';
import { feedbackId, type MessageLog } from '../messaging/message-log.js';
import { createTransports, listIdentity, type Transports } from '../messaging/transports.js';
import type { MessageLogStore } from '../messaging/message-log.js';
import { toE164 } from '../messaging/phone.js';
import { TextTiming } from '../messaging/text-hours.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import type { SubscriptionsStore } from '../consent/subscriptions-store.js';
import type { SentMessagesRepository } from '../db/sent-messages-repository.js';
import type { MessageHealthRepository } from '../db/message-health-repository.js';
import type { RestoreMarksRepository } from '../db/restore-marks-repository.js';
import { contentIn, type Broadcast, type BroadcastSegment, type MessageContent } from '../db/broadcasts-repository.js';
import { LANGUAGES, type Language } from '../../shared/languages.js';
import type { BroadcastDb } from '../db/open-database.js';
import type { Recipient } from '../db/broadcast-recipients-repository.js';
import type { AudienceConfirmation } from '../db/broadcasts.table.js';
import type { Channel } from '../db/message-channels.js';
import { BroadcastError } from './broadcast-error.js';
import { configuredChannels, notSetUp } from './channel-setup.js';
import { broadcastEmailWriter } from './broadcast-email.js';
import { messageIdDomain } from '../messaging/mime-message.js';
import { changeState } from './broadcast-rules.js';
import { BroadcastSender } from './broadcast-sender.js';
import type { BroadcastSenderOptions } from './broadcast-sender-options.js';
import {
  BROADCAST_TEMPLATES,
  personalise,
  renderBroadcastContent,
  templateProblems,
  type BroadcastTemplate,
} from './broadcast-templates.js';
import { signedUpBeforeConfirmation } from '../consent/contact-rule.js';
import { EXCLUSIONS, exclusionOf, type Audience, type Exclusion } from './eligibility.js';

/** A link for nobody (the preview's and a test message's): it opens the "we hold no details" page. */
export const NOBODY = '00000000-0000-4000-8000-000000000000';

/** Sign-ups read per query while choosing recipients: memory stays flat at any list size. */
const PAGE = 2_000;

export interface AudienceReport {
  /** Everyone on the list when it was counted. */
  people: number;
  channels: Partial<
    Record<
      Channel,
      {
        recipients: number;
        added: number;
        excluded: Record<Exclusion, number>;
        /** Among the recipients: signed up before confirmation was switched on (never asked to confirm). */
        beforeConfirmation: number;
        /** The recipients by the language their message goes in (issue 45). */
        byLanguage: Record<Language, number>;
      }
    >
  >;
}

/** The transports the configuration sets up; a broadcast's email keeps more connections open. */
export function transportsFrom(config: Config, { connections = 8 } = {}): Transports {
  return createTransports(config.messaging, config.siteUrl, { connections });
}

/** What a broadcast reads and writes: the broadcasts and their outbox, the people and their suppressions, and the message log. */
export type BroadcastStores = SubscriptionsStore &
  BroadcastDb &
  Partial<MessageLogStore> & {
    messageHealth?: Pick<MessageHealthRepository, 'health'> | undefined;
    /** For `retry` to reach a person whose suppression the owner lifted after their message bounced. */
    sentMessages?: MessageLogStore['sentMessages'] & Pick<SentMessagesRepository, 'reportedGone' | 'addressesSent'>;
    /** A restore that could not read what it replaced holds every send and resume until settled (decision 041). */
    restoreMarks: Pick<RestoreMarksRepository, 'unsettled' | 'settle'>;
  };

/** What a broadcast uses of messaging: the process's own, built once by the composition root (compose.ts). */
export interface BroadcastMessaging {
  subscriptions: Subscriptions;
  /** Unset without SECRET_KEY: then nothing can be sent. */
  links?: LinkSigner | undefined;
  log?: MessageLog | undefined;
}

export class Broadcasts {
  readonly subscriptions: Subscriptions;
  readonly links: LinkSigner;
  /** Every message recorded with its token, for what comes back (docs/messaging.md, "Hearing back"). */
  readonly log: MessageLog | undefined;
  private readonly messageHealth: Pick<MessageHealthRepository, 'health'> | undefined;

  readonly store: BroadcastDb;

  constructor(
    private readonly config: Config,
    {
      broadcasts,
      broadcastSenders,
      broadcastPauses,
      outbox,
      outboxRefusals,
      broadcastRecipients,
      messageHealth,
      restoreMarks,
      sentMessages,
    }: BroadcastStores,
    { subscriptions, links, log }: BroadcastMessaging,
  ) {
    this.store = {
      broadcasts,
      broadcastSenders,
      broadcastPauses,
      outbox,
      outboxRefusals,
      broadcastRecipients,
      restoreMarks,
      ...(sentMessages ? { sentMessages } : {}),
    };
    this.log = log;
    this.messageHealth = messageHealth;
    if (!links)
      throw new BroadcastError(
        'SECRET_KEY is not set: it signs the unsubscribe links and reads the suppression list, so nothing can be sent without it.',
      );
    this.subscriptions = subscriptions;
    this.links = links;
    this.textTiming = config.messaging.textHours ? new TextTiming(config.messaging.textHours) : undefined;
  }

  /** When a text may reach its person (SMS_SEND_HOURS and the rules of text-hours.ts). */
  readonly textTiming: TextTiming | undefined;

  /** The channels configured here (email needs SMTP_URL and MAIL_FROM; texts, TWILIO_*). */
  configuredChannels(): Channel[] {
    return configuredChannels(this.config.messaging);
  }

  async get(name: string): Promise<Broadcast> {
    const broadcast = await this.store.broadcasts.get(name);
    if (!broadcast) {
      const names = (await this.store.broadcasts.list()).map((each) => each.name);
      throw new BroadcastError(
        `There is no broadcast called "${name}".${names.length > 0 ? ` There are: ${names.join(', ')}.` : ' Create one first.'}`,
      );
    }
    return broadcast;
  }

  async create(input: {
    name: string;
    template: string;
    segment?: string;
    channels?: string[];
    /** 'asked' unless said: confirmed_only (--confirmed-only) or everyone (--include-unconfirmed). */
    confirmation?: AudienceConfirmation;
  }): Promise<{ broadcast: Broadcast; report: AudienceReport }> {
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.name))
      throw new BroadcastError(
        `A broadcast's name is lower-case letters, digits and dashes, such as launch or beta-invite, not "${input.name}".`,
      );
    if (!BROADCAST_TEMPLATES.includes(input.template as BroadcastTemplate))
      throw new BroadcastError(`--template must be one of ${BROADCAST_TEMPLATES.join(', ')}, not "${input.template}".`);
    const template = input.template as BroadcastTemplate;
    const missing = templateProblems(template, this.config.launch);
    if (missing.length > 0)
      throw new BroadcastError(`The ${template} template needs ${missing.join(' and ')}: set them and try again.`);
    const segment = (input.segment ?? (template === 'beta' ? 'beta' : 'all')) as BroadcastSegment;
    if (segment !== 'all' && segment !== 'beta')
      throw new BroadcastError(`--segment must be all or beta, not "${input.segment}".`);
    if (template === 'beta' && segment !== 'beta')
      throw new BroadcastError('The beta invitation goes to beta testers only (--segment beta).');
    const configured = this.configuredChannels();
    const channels = [...new Set(input.channels ?? configured)] as Channel[];
    for (const channel of channels) {
      if (channel !== 'email' && channel !== 'sms')
        throw new BroadcastError(`--channels takes email, sms or both (email,sms), not "${channel}".`);
      if (!configured.includes(channel)) throw new BroadcastError(notSetUp([channel]));
    }
    if (channels.length === 0)
      throw new BroadcastError(
        'Neither email nor texts are set up here, so there is nothing to send with (docs/messaging.md).',
      );
    // US law for commercial email (CAN-SPAM, 15 U.S.C. 7704(a)(5)): the sender's postal address in each one.
    if (!this.config.messaging.postalAddress)
      throw new BroadcastError(
        'The launch and beta emails must carry your postal address (a street address, PO box or registered private mailbox): set MAIL_POSTAL_ADDRESS and try again.',
      );
    const content = renderBroadcastContent(template, {
      siteUrl: this.config.siteUrl,
      postalAddress: this.config.messaging.postalAddress,
    });
    const broadcast = await this.store.broadcasts.create({
      name: input.name,
      template,
      segment,
      channels,
      // The owner's choice, else 'asked': while email confirmation is off nobody new is asked, so the
      // email reaches everyone but those asked earlier who never confirmed; a text needs its number's
      // yes (decision 041) unless the owner says --include-unconfirmed ('everyone').
      confirmation: input.confirmation ?? 'asked',
      content,
    });
    if (!broadcast) throw new BroadcastError(`A broadcast called "${input.name}" already exists: pick another name.`);
    return { broadcast, report: await this.fill(broadcast) };
  }

  /** Adds the people who may get it and are not in it yet (sign-ups since it was created). */
  async topUp(name: string): Promise<{ broadcast: Broadcast; report: AudienceReport }> {
    const broadcast = await this.get(name);
    const report = await this.fill(broadcast);
    const added = Object.values(report.channels).reduce((sum, channel) => sum + channel.added, 0);
    if (added > 0 && broadcast.state === 'finished') await changeState(this.store.broadcasts, broadcast.id, 'reopen');
    return { broadcast: await this.get(name), report };
  }

  audienceOf(broadcast: Broadcast): Audience {
    return { segment: broadcast.segment, confirmation: broadcast.confirmation };
  }

  /** Goes through the whole list a page at a time, putting everyone who may get it in the outbox. */
  private async fill(broadcast: Broadcast): Promise<AudienceReport> {
    const audience = this.audienceOf(broadcast);
    const report: AudienceReport = { people: 0, channels: {} };
    for (const channel of broadcast.channels)
      report.channels[channel] = {
        recipients: 0,
        added: 0,
        excluded: Object.fromEntries(EXCLUSIONS.map((why) => [why, 0])) as Record<Exclusion, number>,
        beforeConfirmation: 0,
        byLanguage: Object.fromEntries(LANGUAGES.map((language) => [language, 0])) as Record<Language, number>,
      };
    let after: string | null = null;
    for (;;) {
      const page: Recipient[] = await this.store.broadcastRecipients.recipientsAfter(after, PAGE);
      if (page.length === 0) break;
      after = page.at(-1)?.id ?? null;
      report.people += page.length;
      const suppressed = await this.subscriptions.suppressionsFor(page, broadcast.channels);
      const rows: { signupId: string; channel: Channel }[] = [];
      for (const person of page) {
        for (const channel of broadcast.channels) {
          const tally = report.channels[channel];
          if (!tally) continue;
          const why = exclusionOf(
            person,
            channel,
            audience,
            suppressed.get(person.id),
            true,
            this.subscriptions.textProof,
          );
          if (why) tally.excluded[why] += 1;
          else {
            tally.recipients += 1;
            tally.byLanguage[person.language] += 1;
            if (signedUpBeforeConfirmation(person)) tally.beforeConfirmation += 1;
            rows.push({ signupId: person.id, channel });
          }
        }
      }
      for (const channel of broadcast.channels) {
        const tally = report.channels[channel];
        if (tally)
          tally.added += await this.store.outbox.enqueue(
            broadcast.id,
            rows.filter((row) => row.channel === channel),
          );
      }
    }
    return report;
  }

  /** The broadcast's messages as one person in `language` would get them, with links that name nobody. */
  preview(broadcast: Broadcast, language: Language = 'en'): MessageContent {
    const urls = manageUrls(this.links, this.config.siteUrl, NOBODY);
    const content = contentIn(broadcast.content, language);
    const parts = personalise(content, {
      preferencesUrl: urls.preferences,
      unsubscribeUrl: urls.unsubscribe,
    });
    return { subject: content.subject, ...parts, sms: content.sms };
  }

  /**
   * One real message to the owner, as a person in `language` gets it: "[Test]" before the subject,
   * links that name nobody, nothing recorded.
   */
  async test(broadcast: Broadcast, to: string, transports: Transports, language: Language = 'en'): Promise<string> {
    const preview = this.preview(broadcast, language);
    if (to.includes('@')) {
      if (!transports.email || !this.config.messaging.email) throw new BroadcastError(notSetUp(['email']));
      const from = this.config.messaging.email.from;
      const messageId = `broadcast-${broadcast.id}.test-${Date.now()}@${messageIdDomain(from)}`;
      const write = broadcastEmailWriter({
        from,
        subject: `[Test] ${preview.subject}`,
        ...listIdentity(this.config.siteUrl),
      });
      const unsubscribeUrl = manageUrls(this.links, this.config.siteUrl, NOBODY).unsubscribe;
      const outgoing = await this.log?.begin({
        channel: 'email',
        purpose: 'test',
        signupId: null,
        broadcastId: broadcast.id,
        feedbackId: feedbackId(broadcast.name, 'test'),
      });
      const sent = await transports.email.sendRaw({
        to,
        messageId,
        raw: write({
          to,
          messageId,
          unsubscribeUrl,
          text: preview.text,
          html: preview.html,
          ...(outgoing ? { headers: outgoing.headers } : {}),
        }),
        ...(outgoing?.envelopeFrom ? { envelopeFrom: outgoing.envelopeFrom } : {}),
      });
      if (outgoing) await this.log?.sent(outgoing.token, { messageId, providerId: providerIdFrom(sent.response) });
      return sent.response ?? messageId;
    }
    if (!transports.sms) throw new BroadcastError(notSetUp(['sms']));
    if (!/^\+?[1-9]\d{6,15}$/.test(to.replace(/[\s().-]/g, '')))
      throw new BroadcastError(`--to must be an email address or a phone number such as +15551234567, not "${to}".`);
    const outgoing = await this.log?.begin({
      channel: 'sms',
      purpose: 'test',
      signupId: null,
      broadcastId: broadcast.id,
      feedbackId: feedbackId(broadcast.name, 'test'),
    });
    const { id } = await transports.sms.send({
      to: toE164(to),
      body: preview.sms,
      ...(outgoing ? { statusCallback: outgoing.statusCallback } : {}),
    });
    if (outgoing) await this.log?.sent(outgoing.token, { providerId: id });
    return id;
  }

  /** A sender for this broadcast, with this process's transports and rates. */
  sender(
    broadcast: Broadcast,
    transports: Transports,
    {
      rates,
      ...options
    }: Partial<Omit<BroadcastSenderOptions, 'rates'>> & { rates?: Partial<Record<Channel, number>> } = {},
  ): BroadcastSender {
    return new BroadcastSender({
      store: this.store,
      subscriptions: this.subscriptions,
      links: this.links,
      siteUrl: this.config.siteUrl,
      ...(this.config.messaging.email ? { mailFrom: this.config.messaging.email.from } : {}),
      ...(this.config.messaging.secretKey ? { messageIdKey: this.config.messaging.secretKey } : {}),
      ...listIdentity(this.config.siteUrl),
      ...transports,
      rates: {
        email: rates?.email ?? this.config.broadcast.emailRate,
        sms: rates?.sms ?? this.config.broadcast.smsRate,
      },
      ...(this.log ? { log: this.log } : {}),
      ...(this.messageHealth
        ? {
            health: {
              store: this.messageHealth,
              maxBounceRate: this.config.broadcast.maxBounceRate,
              maxComplaintRate: this.config.broadcast.maxComplaintRate,
            },
          }
        : {}),
      maxAttempts: this.config.broadcast.maxAttempts,
      giveUpMs: this.config.broadcast.giveUpAfterSeconds * 1000,
      audience: this.audienceOf(broadcast),
      ...(this.textTiming ? { textTiming: this.textTiming } : {}),
      ...options,
    });
  }
}
