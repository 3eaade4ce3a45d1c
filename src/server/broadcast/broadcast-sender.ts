// One sender of a broadcast: claims messages from the shared outbox, checks each person again, sends
// within its share of the channel's rate, and records what happened. Several may run at once on
// PostgreSQL (on one machine or several); SQLite allows one (broadcast-rules.ts). Decision 023 says
// why it is built so.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { EmailSendError, providerIdFrom, type EmailSender } from '../messaging/email-sender.js';
import { verdictOf } from '../messaging/send-failure.js';
import { feedbackId, type MessageLog, type OutgoingMessage } from '../messaging/message-log.js';
import type { LinkSigner } from '../messaging/link-tokens.js';
import { manageUrls } from '../messaging/link-urls.js';
import { withoutAddresses } from '../messaging/log-safe.js';
import { toE164 } from '../messaging/phone.js';
import { SmsSendError, type SmsProvider } from '../messaging/sms-provider.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import { retryDelayMs } from '../messaging/back-off.js';
import { percent } from './broadcast-progress.js';
import type {
  Broadcast,
  ChannelPause,
  ClaimedMessage,
  OutboxRepository,
  Outcome,
  Recipient,
  SenderInfo,
} from '../db/outbox-repository.js';
import type { FeedbackRepository } from '../db/feedback-repository.js';
import type { BroadcastChannel } from '../db/message-channels.js';
import type { PauseCause } from '../db/broadcast-pauses.table.js';
import { broadcastEmailWriter, messageIdDomain } from './broadcast-email.js';
import { changeState, SENDER_STALE_MS, senderIsDead } from './broadcast-rules.js';
import { EXCLUSION_WORDS, exclusionOf, type Audience } from './eligibility.js';
import { LatencyHistogram } from './latency-histogram.js';
import { RateLimiter } from './send-rate.js';

export interface BroadcastSenderOptions {
  store: OutboxRepository;
  subscriptions: Subscriptions;
  links: LinkSigner;
  siteUrl: string;
  /** MAIL_FROM, and the list's id and name for the list headers. */
  mailFrom?: string;
  listId: string;
  listName: string;
  email?: EmailSender;
  sms?: SmsProvider;
  /** Records each message with its token, for what comes back (unset: nothing is recorded). */
  log?: MessageLog;
  /** What came back about the messages: the broadcast pauses itself when the rates would hurt the domain. */
  health?: { store: FeedbackRepository; maxBounceRate: number; maxComplaintRate: number };
  /** Messages per second on each channel, for all of this broadcast's senders together. */
  rates: Record<BroadcastChannel, number>;
  /** Tries per message while the channel otherwise gets through: one person's server down for long. */
  maxAttempts: number;
  /**
   * A channel that has failed "for now" this long with nothing getting through pauses, with the
   * reason, instead of giving anyone up (BROADCAST_GIVE_UP_AFTER_SECONDS).
   */
  giveUpMs?: number;
  /** Whether the audience must have confirmed (as when the broadcast was created). */
  audience: Audience;
  retryBaseMs?: number;
  maxRetryMs?: number;
  heartbeatMs?: number;
  /** A sender not heard from for this long is taken for dead (on another machine; on this one, its process is checked). */
  staleMs?: number;
  senderId?: string;
  host?: string;
  pid?: number;
  random?: () => number;
  /** Most messages claimed at once per channel (also the most that can be "unknown" if this sender is killed). */
  maxBatch?: number;
  /** Tries at writing a batch's outcomes before the sender gives up (8: about 30 s of database outage). */
  recordAttempts?: number;
}

export interface SenderReport {
  /**
   * finished: nothing left to send; paused: the owner paused it, or a failure of ours paused its
   * channels (`pauses` says why); stopped: asked to stop (Ctrl-C); waiting: others still send.
   */
  ended: 'finished' | 'paused' | 'stopped' | 'waiting';
  /** The channels a failure of ours paused, and why, when it ended. */
  pauses: ChannelPause[];
  sent: number;
  failedTemporary: number;
  failedPermanent: number;
  skipped: number;
  /** Rows of senders found dead, marked unknown by this one. */
  markedUnknown: number;
  latency: { p50: number; p99: number; count: number };
}

/** The health rule reads the rates only after this many messages: fewer say little. */
export const HEALTH_MINIMUM = 1_000;

/** An answer we do not recognise: tried this many times on one message, then the channel pauses. */
export const UNKNOWN_ANSWER_ATTEMPTS = 3;
/** …or this many unrecognised answers in a row on a channel, whoever they were for. */
export const UNKNOWN_ANSWERS_IN_A_ROW = 10;

/** How a channel is doing, as this sender has seen it: what the give-up and unknown-answer rules read. */
interface ChannelHealth {
  /** When a message last got through (ms), or null. */
  lastSuccessAt: number | null;
  /** When the failures "for now" began with nothing getting through since (ms), or null. */
  failingSince: number | null;
  lastAnswer: string;
  unknownInARow: number;
}

const WHO: Record<BroadcastChannel, { server: string; noun: string }> = {
  email: { server: 'The mail server', noun: 'an email' },
  sms: { server: 'Twilio', noun: 'a text' },
};

/** "14:02 UTC". */
function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

export class BroadcastSender {
  readonly id: string;
  private readonly options: Required<
    Omit<BroadcastSenderOptions, 'mailFrom' | 'email' | 'sms' | 'log' | 'health' | 'senderId' | 'host' | 'pid'>
  > &
    BroadcastSenderOptions & { host: string; pid: number };
  private readonly limiters: Record<BroadcastChannel, RateLimiter>;
  private stopping: 'stop' | 'pause' | undefined;
  private wake: (() => void) | undefined;
  private readonly latency = new LatencyHistogram();
  private readonly health: Record<BroadcastChannel, ChannelHealth> = {
    email: { lastSuccessAt: null, failingSince: null, lastAnswer: '', unknownInARow: 0 },
    sms: { lastSuccessAt: null, failingSince: null, lastAnswer: '', unknownInARow: 0 },
  };
  /** Channels whose loop runs, those of them waiting on a pause, and those this sender knows are paused. */
  private readonly looping = new Set<BroadcastChannel>();
  private readonly waitingOnPause = new Set<BroadcastChannel>();
  private readonly paused = new Set<BroadcastChannel>();
  private report: SenderReport = {
    ended: 'stopped',
    pauses: [],
    sent: 0,
    failedTemporary: 0,
    failedPermanent: 0,
    skipped: 0,
    markedUnknown: 0,
    latency: { p50: 0, p99: 0, count: 0 },
  };

  constructor(options: BroadcastSenderOptions) {
    this.options = {
      retryBaseMs: 30_000,
      maxRetryMs: 60 * 60_000,
      giveUpMs: 30 * 60_000,
      heartbeatMs: 2_000,
      staleMs: SENDER_STALE_MS,
      random: Math.random,
      maxBatch: 200,
      recordAttempts: 8,
      host: hostname(),
      pid: process.pid,
      ...options,
    };
    this.id = options.senderId ?? randomUUID();
    this.limiters = { email: new RateLimiter(options.rates.email), sms: new RateLimiter(options.rates.sms) };
  }

  /** Finish what is in flight, record it, and end (Ctrl-C, SIGTERM). */
  stop(): void {
    this.stopping ??= 'stop';
    this.wake?.();
  }

  /** Another sender's liveness, by this sender's host and staleMs. */
  private isDead = (other: SenderInfo): boolean =>
    senderIsDead(other, { self: this.id, host: this.options.host, staleMs: this.options.staleMs });

  /** Each sender takes an equal share of the channel's rate, by how many send this broadcast now. */
  private async shareRates(broadcastId: number): Promise<void> {
    const senders = Math.max(1, (await this.options.store.liveSenders(broadcastId)).length);
    for (const channel of ['email', 'sms'] as const)
      this.limiters[channel].setRate(this.options.rates[channel] / senders);
  }

  async run(broadcast: Broadcast): Promise<SenderReport> {
    const { store } = this.options;
    const { unknown } = await store.registerSender(
      { id: this.id, broadcastId: broadcast.id, host: this.options.host, pid: this.options.pid },
      this.isDead,
    );
    this.report.markedUnknown += unknown;
    await changeState(store, broadcast.id, 'start');
    await this.shareRates(broadcast.id);
    const heartbeat = setInterval(() => {
      void (async () => {
        await store.heartbeat(this.id);
        this.report.markedUnknown += await store.reapDeadSenders(this.isDead);
        await this.shareRates(broadcast.id);
        await this.pauseIfUnhealthy(broadcast);
        if ((await store.state(broadcast.id)) === 'paused') {
          this.stopping ??= 'pause';
          this.wake?.();
        }
      })().catch(() => undefined); // a missed beat is made up by the next
    }, this.options.heartbeatMs);
    heartbeat.unref();
    try {
      const channels = broadcast.channels.filter((channel) =>
        channel === 'email' ? this.options.email : this.options.sms,
      );
      // Every loop settles before this sender says it stopped: a loop that failed stops the others,
      // and none still sends (or records) after stopSender below has marked what it held unknown.
      const loops = await Promise.allSettled(
        channels.map((channel) =>
          this.channelLoop(broadcast, channel).catch((error: unknown) => {
            this.stopping ??= 'stop';
            this.wake?.();
            throw error;
          }),
        ),
      );
      const failed = loops.find((loop) => loop.status === 'rejected');
      if (failed) throw failed.reason;
      this.report.markedUnknown += await store.reapDeadSenders(this.isDead);
      const pauses = await store.channelPauses(broadcast.id);
      this.report.pauses = pauses;
      if (this.stopping) this.report.ended = this.stopping === 'pause' ? 'paused' : 'stopped';
      else if (pauses.length > 0) this.report.ended = await this.pauseIfNothingElse(broadcast, pauses);
      else {
        const counts = await store.counts(broadcast.id);
        const missingChannel = broadcast.channels.some((channel) =>
          channel === 'email' ? !this.options.email : !this.options.sms,
        );
        if (counts.queued === 0 && counts.sending === 0 && counts.retrying === 0 && !missingChannel) {
          await changeState(store, broadcast.id, 'finish');
          this.report.ended = 'finished';
        } else this.report.ended = 'waiting';
      }
    } finally {
      clearInterval(heartbeat);
      this.report.markedUnknown += await store.stopSender(this.id);
    }
    this.report.latency = { ...this.latency.percentiles(), count: this.latency.count };
    return this.report;
  }

  /**
   * Some channels are paused by a failure of ours. When nothing else of the broadcast can go on (the
   * other channels are done, or paused too), the broadcast itself pauses, so that `status`, `list` and
   * the dashboard say so and `resume` goes on; while another channel still sends, it sends.
   */
  private async pauseIfNothingElse(broadcast: Broadcast, pauses: ChannelPause[]): Promise<SenderReport['ended']> {
    const { store } = this.options;
    for (const channel of broadcast.channels) {
      if (pauses.some((pause) => pause.channel === channel)) continue;
      const counts = await store.counts(broadcast.id, channel);
      if (counts.queued + counts.sending + counts.retrying > 0) return 'waiting';
    }
    await changeState(store, broadcast.id, 'pause');
    return 'paused';
  }

  /**
   * The health rule: after at least HEALTH_MINIMUM messages, email whose hard bounces or complaints
   * pass their limits pauses, with the figures, until the owner resumes knowingly
   * (resume --despite-health). Mailbox providers judge the sending domain by these shares.
   */
  private async pauseIfUnhealthy(broadcast: Broadcast): Promise<void> {
    const { health, store } = this.options;
    if (!health || !broadcast.channels.includes('email')) return;
    const current = await store.get(broadcast.name);
    if (!current || current.healthAcceptedAt) return;
    const figures = await health.store.health(broadcast.id, 'email', current.startedAt);
    if (figures.messages < HEALTH_MINIMUM) return;
    const problems = [
      ...(figures.bounceRate > health.maxBounceRate
        ? [`${percent(figures.bounceRate)} of its emails bounced (the limit is ${percent(health.maxBounceRate)})`]
        : []),
      ...(figures.complaintRate > health.maxComplaintRate
        ? [`${percent(figures.complaintRate)} were reported as spam (the limit is ${percent(health.maxComplaintRate)})`]
        : []),
    ];
    if (problems.length === 0) return;
    await this.pauseChannel(
      broadcast,
      'email',
      'health',
      `Paused to protect the domain: ${problems.join(', and ')}, of ${figures.messages.toLocaleString('en-US')} sent. ` +
        'Mail providers may block our email past these. Look at the list (old or mistyped addresses?), then go on ' +
        'knowingly with resume --despite-health.',
      `${figures.hardBounced} hard bounces, ${figures.complained} complaints, ${figures.messages} messages`,
    );
  }

  /** Pauses a channel of the broadcast (the first reason stays) and stops this sender taking more of it. */
  private async pauseChannel(
    broadcast: Broadcast,
    channel: BroadcastChannel,
    cause: PauseCause,
    reason: string,
    answer: string,
  ): Promise<void> {
    this.paused.add(channel);
    await this.options.store.pauseChannel(broadcast.id, channel, { cause, reason, answer });
  }

  /**
   * The give-up rule: a channel that has failed "for now" for giveUpMs with nothing getting through
   * (here or, on PostgreSQL, from another sender) pauses with the reason, instead of abandoning anyone.
   */
  private async pauseIfOutageTooLong(broadcast: Broadcast, channel: BroadcastChannel): Promise<void> {
    const health = this.health[channel];
    const since = health.failingSince;
    if (since === null || Date.now() - since < this.options.giveUpMs) return;
    const lastSent = await this.options.store.lastSentAt(broadcast.id, channel);
    if (lastSent && Date.parse(lastSent) > since) {
      health.failingSince = null; // another sender got through: not an outage
      return;
    }
    const { server, noun } = WHO[channel];
    await this.pauseChannel(
      broadcast,
      channel,
      'outage',
      `${server} has not accepted ${noun} since ${clock(since)} (${Math.round((Date.now() - since) / 60_000)} min). ` +
        'Nobody was given up: when it works again, resume.',
      health.lastAnswer,
    );
  }

  /** How many to claim: about half a second's worth at this sender's rate, so little waits claimed. */
  private batchSize(channel: BroadcastChannel): number {
    return Math.max(1, Math.min(this.options.maxBatch, Math.ceil(this.limiters[channel].perSecond / 2)));
  }

  private async channelLoop(broadcast: Broadcast, channel: BroadcastChannel): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    const writeEmail = broadcastEmailWriter(
      {
        from: this.options.mailFrom ?? '',
        subject: broadcast.content.subject,
        listId: this.options.listId,
        listName: this.options.listName,
      },
      broadcast.content,
    );
    this.looping.add(channel);
    try {
      await this.sendWhileAllowed(broadcast, channel, inFlight, writeEmail);
      await Promise.all(inFlight);
    } finally {
      // Also when a batch failed: the other batch on the wire finishes (or fails) first.
      await Promise.allSettled(inFlight);
      this.looping.delete(channel);
      this.waitingOnPause.delete(channel);
    }
  }

  private async sendWhileAllowed(
    broadcast: Broadcast,
    channel: BroadcastChannel,
    inFlight: Set<Promise<void>>,
    writeEmail: ReturnType<typeof broadcastEmailWriter>,
  ): Promise<void> {
    const { store } = this.options;
    while (!this.stopping) {
      if ((await store.state(broadcast.id)) === 'paused') {
        this.stopping = 'pause';
        break;
      }
      if ((await store.channelPauses(broadcast.id)).some((pause) => pause.channel === channel)) {
        this.paused.add(channel);
        if (inFlight.size > 0) {
          await Promise.all(inFlight);
          continue;
        }
        // Paused by a failure of ours: wait for the owner's resume while another channel still sends.
        this.waitingOnPause.add(channel);
        if ([...this.looping].every((other) => this.waitingOnPause.has(other))) break;
        await this.pause(1_000);
        continue;
      }
      if (this.paused.delete(channel)) {
        // The owner resumed while this sender still ran another channel: the failures before the
        // pause are history, and must not pause it again at once.
        const health = this.health[channel];
        health.failingSince = null;
        health.unknownInARow = 0;
      }
      this.waitingOnPause.delete(channel);
      await this.pauseIfOutageTooLong(broadcast, channel);
      if (this.paused.has(channel)) continue;
      const claimed = await store.claim(broadcast.id, channel, this.id, this.batchSize(channel));
      if (claimed.length > 0) {
        const batch: Promise<void> = this.sendBatch(broadcast, channel, claimed, writeEmail).finally(() =>
          inFlight.delete(batch),
        );
        inFlight.add(batch);
        // Two batches at a time: the next is claimed and checked while the last is on the wire.
        if (inFlight.size >= 2) await Promise.race(inFlight);
        continue;
      }
      if (inFlight.size > 0) {
        await Promise.race(inFlight);
        continue;
      }
      const next = await store.nextDue(broadcast.id, channel);
      if (next === undefined) break; // nothing queued, nothing to retry
      await this.pause(Math.min(1_000, Math.max(10, Date.parse(next) - Date.now())));
    }
  }

  private async pause(ms: number): Promise<void> {
    const controller = new AbortController();
    this.wake = () => controller.abort();
    await sleep(ms, undefined, { signal: controller.signal }).catch(() => undefined);
    this.wake = undefined;
  }

  private async sendBatch(
    broadcast: Broadcast,
    channel: BroadcastChannel,
    claimed: ClaimedMessage[],
    writeEmail: ReturnType<typeof broadcastEmailWriter>,
  ): Promise<void> {
    const { store, subscriptions } = this.options;
    const people = await store.recipients(claimed.map((message) => message.signupId));
    const suppressed = await subscriptions.suppressionsFor([...people.values()], [channel]);
    const outcomes: Outcome[] = [];
    const going: { message: ClaimedMessage; person: Recipient }[] = [];
    for (const message of claimed) {
      const person = people.get(message.signupId);
      if (!person) {
        outcomes.push({ id: message.id, result: 'skipped', error: EXCLUSION_WORDS.deleted });
        continue;
      }
      // Checked again now: a STOP or an unsubscribe since the broadcast was created wins.
      const why = exclusionOf(
        person,
        channel,
        this.options.audience,
        suppressed.get(person.id),
        subscriptions.canSuppress,
      );
      if (why) outcomes.push({ id: message.id, result: 'skipped', error: EXCLUSION_WORDS[why] });
      else going.push({ message, person });
    }
    // Recorded with their tokens, in one write, just before they leave: what comes back about one finds it.
    const outgoing = await this.options.log?.beginMany(
      going.map(({ message, person }) => ({
        channel,
        purpose: 'broadcast' as const,
        signupId: person.id,
        broadcastId: broadcast.id,
        outboxId: message.id,
        addressHash:
          (channel === 'email' ? subscriptions.emailHash(person.email) : subscriptions.phoneHash(person.phone)) ?? null,
        messageId: channel === 'email' ? this.messageIdOf(broadcast, message) : null,
        feedbackId: feedbackId(broadcast.name, broadcast.template),
      })),
    );
    outcomes.push(
      ...(await Promise.all(
        going.map(({ message, person }, index) =>
          this.sendOne(broadcast, channel, message, person, writeEmail, outgoing?.[index]),
        ),
      )),
    );
    await this.recordPatiently(outcomes);
    for (const outcome of outcomes) {
      if (outcome.result === 'sent') this.report.sent += 1;
      else if (outcome.result === 'skipped') this.report.skipped += 1;
      else if (outcome.result === 'permanent') this.report.failedPermanent += 1;
      else if (outcome.result === 'temporary') this.report.failedTemporary += 1;
    }
  }

  /** One message: its turn at the channel's rate, then the provider; what became of it. */
  private async sendOne(
    broadcast: Broadcast,
    channel: BroadcastChannel,
    message: ClaimedMessage,
    person: Recipient,
    writeEmail: ReturnType<typeof broadcastEmailWriter>,
    outgoing: OutgoingMessage | undefined,
  ): Promise<Outcome> {
    const token = outgoing?.token;
    await this.limiters[channel].take();
    // The channel paused while this waited its turn: back in the queue, untried (and out of the log).
    if (this.paused.has(channel) || this.stopping === 'pause')
      return { id: message.id, result: 'requeue', kind: null, error: 'not sent: the channel paused', token };
    const started = performance.now();
    try {
      const providerId =
        channel === 'email'
          ? await this.sendEmail(broadcast, message, person.id, person.email, writeEmail, outgoing)
          : (
              await this.smsProvider().send({
                to: toE164(person.phone),
                body: broadcast.content.sms,
                ...(outgoing ? { statusCallback: outgoing.statusCallback } : {}),
              })
            ).id;
      this.latency.add(performance.now() - started);
      const health = this.health[channel];
      health.lastSuccessAt = Date.now();
      health.failingSince = null;
      health.unknownInARow = 0;
      // Its provider id goes into the log with the batch's outcomes, in the same write.
      return { id: message.id, result: 'sent', providerId, token };
    } catch (error) {
      if (outgoing)
        await this.options.log
          ?.refused(
            outgoing.token,
            channel,
            verdictOf(error),
            withoutAddresses((error as Error)?.message ?? String(error)),
          )
          .catch(() => undefined); // the outcome below is what must be recorded
      return this.failure(broadcast, channel, message, person, error);
    }
  }

  /**
   * Records a batch's outcomes, trying again through a short database outage: these messages have
   * left, and a sender that gave up here would leave them to be reported unknown.
   */
  private async recordPatiently(outcomes: Outcome[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.options.store.record(this.id, outcomes);
        return;
      } catch (error) {
        if (attempt >= this.options.recordAttempts) throw error;
        await sleep(Math.min(5_000, 250 * 2 ** attempt));
      }
    }
  }

  private smsProvider(): SmsProvider {
    if (!this.options.sms)
      throw new SmsSendError('Texts are not set up (TWILIO_*).', {
        kind: 'sender',
        reason: 'Texts are not set up (TWILIO_*).',
      });
    return this.options.sms;
  }

  private async sendEmail(
    broadcast: Broadcast,
    message: ClaimedMessage,
    signupId: string,
    to: string,
    writeEmail: ReturnType<typeof broadcastEmailWriter>,
    outgoing: OutgoingMessage | undefined,
  ): Promise<string> {
    const { links, siteUrl, email } = this.options;
    if (!email)
      throw new EmailSendError('Email is not set up (SMTP_URL, MAIL_FROM).', {
        kind: 'sender',
        reason: 'Email is not set up (SMTP_URL, MAIL_FROM).',
      });
    const urls = manageUrls(links, siteUrl, signupId);
    const unsubscribeUrl = urls.unsubscribe;
    // The same Message-ID for the same outbox row, every time: a re-send of an unknown one can be
    // recognised as the same message by the receiving side.
    const messageId = this.messageIdOf(broadcast, message);
    const raw = writeEmail({
      to,
      messageId,
      unsubscribeUrl,
      links: { preferencesUrl: urls.preferences, unsubscribeUrl },
      ...(outgoing ? { headers: outgoing.headers } : {}),
    });
    const sent = await email.sendRaw({
      to,
      messageId,
      raw,
      ...(outgoing?.envelopeFrom ? { envelopeFrom: outgoing.envelopeFrom } : {}),
    });
    return providerIdFrom(sent.response) ?? messageId;
  }

  /** The same Message-ID for the same outbox row, every time (see sendEmail). */
  private messageIdOf(broadcast: Broadcast, message: ClaimedMessage): string {
    return `broadcast-${broadcast.id}.message-${message.id}@${messageIdDomain(this.options.mailFrom ?? '')}`;
  }

  /**
   * What a failed send means, by whose fault it was (messaging/send-failure.ts): the person's address
   * fails and is marked undeliverable; ours pauses the channel and puts the message back untried;
   * "for now" and unknown answers are tried again, and only pause the channel, never fail the person.
   */
  private async failure(
    broadcast: Broadcast,
    channel: BroadcastChannel,
    message: ClaimedMessage,
    person: Recipient,
    error: unknown,
  ): Promise<Outcome> {
    const verdict = verdictOf(error);
    const answer = withoutAddresses((error as Error)?.message ?? String(error));
    const { id, attempts } = message;
    if (verdict.kind === 'recipient') {
      await this.markUndeliverable(person, channel, verdict.stop === true);
      return { id, result: 'permanent', kind: 'recipient', error: answer };
    }
    if (verdict.kind === 'sender') {
      await this.pauseChannel(broadcast, channel, 'sender', verdict.reason, answer);
      return { id, result: 'requeue', kind: 'sender', error: answer };
    }
    const now = Date.now();
    const health = this.health[channel];
    health.failingSince ??= now;
    health.lastAnswer = answer;
    if (verdict.kind === 'unknown') {
      health.unknownInARow += 1;
      if (attempts >= UNKNOWN_ANSWER_ATTEMPTS || health.unknownInARow >= UNKNOWN_ANSWERS_IN_A_ROW)
        await this.pauseChannel(
          broadcast,
          channel,
          'unknown',
          `${WHO[channel].server} keeps giving an answer we do not recognise (below). Nobody was marked failed: ` +
            'check the provider and the settings, then resume.',
          answer,
        );
    }
    // One person's server down for long while the channel gets through: that message gives up (the
    // owner's `retry` can queue it again). While nothing gets through, nobody is given up.
    const gettingThrough = health.lastSuccessAt !== null && now - health.lastSuccessAt < this.options.giveUpMs;
    if (verdict.kind === 'message' && attempts >= this.options.maxAttempts && gettingThrough)
      return {
        id,
        result: 'temporary',
        kind: 'message',
        error: `gave up after ${attempts} attempts: ${answer}`,
        retryAt: null,
      };
    const delay = retryDelayMs(attempts, this.options.retryBaseMs, this.options.maxRetryMs, this.options.random);
    return { id, result: 'temporary', kind: verdict.kind, error: answer, retryAt: new Date(now + delay) };
  }

  /** The provider said this address or number cannot be reached (21610: they replied STOP). */
  private async markUndeliverable(person: Recipient, channel: BroadcastChannel, stop: boolean): Promise<void> {
    const { subscriptions } = this.options;
    try {
      if (stop && channel === 'sms') await subscriptions.stopTexts(person.phone, 'provider_answer');
      else await subscriptions.markUndeliverable(person, channel);
    } catch {
      // The row still fails for this person (recorded with the batch); a database blip here must not
      // leave the batch unrecorded. The next message to the address gets the same answer again.
    }
  }
}
