// One sender of a broadcast: claims messages from the shared outbox, checks each person again, sends
// within its share of the channel's rate, and records what happened. Several may run at once on
// PostgreSQL (on one machine or several); SQLite allows one (broadcast-rules.ts). Decision 023 says
// why it is built so.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { verdictOf } from '../messaging/send-failure.js';
import type { OutgoingMessage } from '../messaging/message-log.js';
import { withoutAddresses } from '../messaging/log-safe.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import type { ClaimedMessage, Outcome } from '../db/outbox-rows.js';
import type { Recipient } from '../db/broadcast-recipients-repository.js';
import type { SenderInfo } from '../db/broadcast-senders-repository.js';
import { CHANNELS, type Channel } from '../db/message-channels.js';
import type { PauseCause } from '../db/broadcast-pauses.table.js';
import { messageLogEntry, recordPatiently, sendBroadcastEmail, sendBroadcastText } from './broadcast-dispatch.js';
import { emailWriters, type EmailWriters } from './broadcast-email.js';
import { changeState, senderIsDead } from './broadcast-rules.js';
import {
  emptyReport,
  withDefaults,
  type BroadcastSenderOptions,
  type SenderReport,
  type SenderSettings,
} from './broadcast-sender-options.js';
import { healthyChannel, type ChannelHealth, type FailureOutcome } from '../messaging/failure-outcome.js';
import { sendClaimed, type Lane, type Refusal, type SendOutcome } from '../messaging/send-claimed.js';
import { LatencyHistogram } from './latency-histogram.js';
import { healthPauseDue, outageReason, pauseIfNothingElse, unknownAnswerReason } from './pause-rules.js';
import { RateLimiter } from '../messaging/send-rate.js';
import { OWN_SHARE } from '../messaging/channel-rates.js';
import { gate } from './send-gate.js';

export class BroadcastSender {
  readonly id: string;
  private readonly options: SenderSettings;
  private readonly limiters: Record<Channel, RateLimiter>;
  private stopping: 'stop' | 'pause' | undefined;
  private wake: (() => void) | undefined;
  private readonly latency = new LatencyHistogram();
  private readonly health: Record<Channel, ChannelHealth> = { email: healthyChannel(), sms: healthyChannel() };
  /** Channels whose loop runs, those of them waiting on a pause, and those this sender knows are paused. */
  private readonly looping = new Set<Channel>();
  private readonly waitingOnPause = new Set<Channel>();
  private readonly paused = new Set<Channel>();
  private report: SenderReport = emptyReport();

  constructor(options: BroadcastSenderOptions) {
    this.options = withDefaults(options);
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

  /** Each sender takes an equal share of the channel's rate but OWN_SHARE (messaging/channel-rates.ts), by how many send now. */
  private async shareRates(broadcastId: number): Promise<void> {
    const senders = Math.max(1, (await this.options.store.broadcastSenders.liveSenders(broadcastId)).length);
    const share = (1 - OWN_SHARE) / senders;
    for (const channel of CHANNELS) this.limiters[channel].setRate(this.options.rates[channel] * share);
  }

  private onRegistered: () => void = () => undefined;
  /** Resolves once this sender is on record as alive: from then on the broadcast's progress counts it. */
  readonly registered = new Promise<void>((resolve) => (this.onRegistered = resolve));

  async run(broadcast: Broadcast): Promise<SenderReport> {
    const { store } = this.options;
    const { unknown } = await store.broadcastSenders.registerSender(
      { id: this.id, broadcastId: broadcast.id, host: this.options.host, pid: this.options.pid },
      this.isDead,
    );
    this.onRegistered();
    this.report.markedUnknown += unknown;
    await changeState(store.broadcasts, broadcast.id, 'start');
    await this.shareRates(broadcast.id);
    const heartbeat = setInterval(() => {
      void (async () => {
        await store.broadcastSenders.heartbeat(this.id);
        this.report.markedUnknown += await store.broadcastSenders.reapDeadSenders(this.isDead);
        await this.shareRates(broadcast.id);
        await this.pauseIfUnhealthy(broadcast);
        if ((await store.broadcasts.state(broadcast.id)) === 'paused') {
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
      this.report.markedUnknown += await store.broadcastSenders.reapDeadSenders(this.isDead);
      const pauses = await store.broadcastPauses.channelPauses(broadcast.id);
      this.report.pauses = pauses;
      if (this.stopping) this.report.ended = this.stopping === 'pause' ? 'paused' : 'stopped';
      else if (pauses.length > 0) this.report.ended = await pauseIfNothingElse(store, broadcast, pauses);
      else {
        const counts = await store.outbox.counts(broadcast.id);
        const missingChannel = broadcast.channels.some((channel) =>
          channel === 'email' ? !this.options.email : !this.options.sms,
        );
        const waits = await store.outbox.waitingTexts(broadcast.id);
        this.report.waitingTexts = { count: waits.count, next: waits.next };
        if (counts.queued === 0 && counts.sending === 0 && counts.retrying === 0 && !missingChannel) {
          await changeState(store.broadcasts, broadcast.id, 'finish');
          this.report.ended = 'finished';
        } else if (
          waits.count > 0 &&
          counts.queued === waits.count &&
          counts.sending === 0 &&
          counts.retrying === 0 &&
          !missingChannel
        )
          this.report.ended = 'texts-wait';
        else this.report.ended = 'waiting';
      }
    } finally {
      clearInterval(heartbeat);
      this.report.markedUnknown += await store.broadcastSenders.stopSender(this.id);
    }
    this.report.latency = { ...this.latency.percentiles(), count: this.latency.count };
    return this.report;
  }

  /** The health rule (pause-rules.ts): email pauses when its bounces or complaints would hurt the domain. */
  private async pauseIfUnhealthy(broadcast: Broadcast): Promise<void> {
    const pause = await healthPauseDue(this.options.store, this.options.health, broadcast);
    if (pause) await this.pauseChannel(broadcast, 'email', 'health', pause.reason, pause.answer);
  }

  /** Pauses a channel of the broadcast (the first reason stays) and stops this sender taking more of it. */
  private async pauseChannel(
    broadcast: Broadcast,
    channel: Channel,
    cause: PauseCause,
    reason: string,
    answer: string,
  ): Promise<void> {
    this.paused.add(channel);
    await this.options.store.broadcastPauses.pauseChannel(broadcast.id, channel, { cause, reason, answer });
  }

  /**
   * The give-up rule: a channel that has failed "for now" for giveUpMs with nothing getting through
   * (here or, on PostgreSQL, from another sender) pauses with the reason, instead of abandoning anyone.
   */
  private async pauseIfOutageTooLong(broadcast: Broadcast, channel: Channel): Promise<void> {
    const health = this.health[channel];
    const since = health.failingSince;
    if (since === null || this.options.now() - since < this.options.giveUpMs) return;
    const lastSent = await this.options.store.outbox.lastSentAt(broadcast.id, channel);
    if (lastSent && Date.parse(lastSent) > since) {
      health.failingSince = null; // another sender got through: not an outage
      return;
    }
    await this.pauseChannel(
      broadcast,
      channel,
      'outage',
      outageReason(channel, since, this.options.now()),
      health.lastAnswer,
    );
  }

  /** How many to claim: about half a second's worth at this sender's rate, so little waits claimed. */
  private batchSize(channel: Channel): number {
    return Math.max(1, Math.min(this.options.maxBatch, Math.ceil(this.limiters[channel].perSecond / 2)));
  }

  private async channelLoop(broadcast: Broadcast, channel: Channel): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    // One writer per language: each person gets the broadcast in theirs (issue 45).
    const writeEmail = emailWriters(broadcast, {
      from: this.options.mailFrom ?? '',
      listId: this.options.listId,
      listName: this.options.listName,
    });
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
    channel: Channel,
    inFlight: Set<Promise<void>>,
    writeEmail: EmailWriters,
  ): Promise<void> {
    const { store } = this.options;
    while (!this.stopping) {
      if ((await store.broadcasts.state(broadcast.id)) === 'paused') {
        this.stopping = 'pause';
        break;
      }
      // A restore that could not read what it replaced, since this sender started (or on a path that
      // did not ask, such as the texts that waited for daytime): the broadcast pauses, and its resume
      // refuses until the owner settles it (decision 041, issue 54).
      if (await store.restoreMarks.unsettled()) {
        await changeState(store.broadcasts, broadcast.id, 'pause');
        this.stopping = 'pause';
        break;
      }
      if ((await store.broadcastPauses.channelPauses(broadcast.id)).some((pause) => pause.channel === channel)) {
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
        health.refused.clear();
      }
      this.waitingOnPause.delete(channel);
      await this.pauseIfOutageTooLong(broadcast, channel);
      if (this.paused.has(channel)) continue;
      const lane = { broadcastId: broadcast.id, channel };
      const claimed = await store.outbox.claim(lane, this.id, this.batchSize(channel));
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
      const next = await store.outbox.nextDue(broadcast.id, channel);
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

  /** A claimed batch, sent the one way every message is sent (consent/send-claimed.ts). */
  private async sendBatch(
    broadcast: Broadcast,
    channel: Channel,
    claimed: ClaimedMessage[],
    writeEmail: EmailWriters,
  ): Promise<void> {
    const lane: Lane<{ recipient: Recipient; outgoing: OutgoingMessage | undefined }> = {
      // The whole batch at once: the channel's rate paces it.
      wave: claimed.length,
      health: this.health[channel],
      rules: this.options,
      now: this.options.now,
      gate: async (wave) => {
        // The one gate, just before they leave: who may get this message now, and who waits or is skipped.
        const { going, outcomes } = await gate(this.options, broadcast, channel, wave);
        // Recorded with their tokens, in one write, just before they leave: what comes back about one finds it.
        const outgoing = await this.options.log?.beginMany(
          going.map(({ message, person }) => messageLogEntry(this.options, broadcast, channel, message, person)),
        );
        const passed = going.map(({ message, person }, index) => ({
          message,
          person: { recipient: person, outgoing: outgoing?.[index] },
        }));
        return { going: passed, outcomes };
      },
      send: (message, { recipient, outgoing }) =>
        this.sendOne(broadcast, channel, message, recipient, writeEmail, outgoing),
      judged: async (_message, { recipient }, refusal, decided) => ({
        outcome: await this.failure(broadcast, channel, recipient, refusal, decided),
      }),
      // A broadcast's batch never waits as a whole: a channel in trouble pauses (failure, below).
      waiting: (message) => ({ id: message.id, result: 'requeue', kind: null, error: 'not sent: waiting' }),
      record: async (outcomes) => {
        await recordPatiently(this.options.store.outbox, this.id, outcomes, this.options.recordAttempts);
        for (const outcome of outcomes) {
          if (outcome.result === 'sent') this.report.sent += 1;
          else if (outcome.result === 'skipped') this.report.skipped += 1;
          else if (outcome.result === 'permanent') this.report.failedPermanent += 1;
          else if (outcome.result === 'temporary') this.report.failedTemporary += 1;
        }
      },
    };
    await sendClaimed(lane, claimed);
  }

  /** One message: its turn at the channel's rate, then the provider; what became of it. */
  private async sendOne(
    broadcast: Broadcast,
    channel: Channel,
    message: ClaimedMessage,
    person: Recipient,
    writeEmail: EmailWriters,
    outgoing: OutgoingMessage | undefined,
  ): Promise<SendOutcome> {
    const token = outgoing?.token;
    await this.limiters[channel].take();
    // The channel paused while this waited its turn: back in the queue, untried (and out of the log).
    if (this.paused.has(channel) || this.stopping === 'pause')
      return { result: 'untried', why: 'not sent: the channel paused', token };
    // The hours may have closed while this waited its turn (the batch was checked before): again now.
    const timing = channel === 'sms' ? this.options.textTiming : undefined;
    if (timing) {
      const now = new Date();
      const opens = timing.opensAt(timing.numberTiming(person.phone).place, now);
      if (opens !== undefined && opens > now) return { result: 'later', at: opens, why: 'daytime', token };
    }
    const started = performance.now();
    try {
      const providerId =
        channel === 'email'
          ? await sendBroadcastEmail(this.options, broadcast, message, person, writeEmail[person.language], outgoing)
          : await sendBroadcastText(this.options, broadcast, person, outgoing);
      this.latency.add(performance.now() - started);
      // Its provider id goes into the log with the batch's outcomes, in the same write.
      return { result: 'sent', logged: token ? { token, providerId } : undefined };
    } catch (error) {
      const verdict = verdictOf(error);
      const answer = withoutAddresses((error as Error)?.message ?? String(error));
      if (outgoing) await this.options.log?.refused(outgoing.token, channel, verdict, answer).catch(() => undefined); // the outcome is what must be recorded
      return { result: 'refused', verdict, answer };
    }
  }

  /** Acts on the one rule's judgement of a refusal (messaging/failure-outcome.ts): a pause, an undeliverable mark. */
  private async failure(
    broadcast: Broadcast,
    channel: Channel,
    person: Recipient,
    { verdict, answer }: Refusal,
    decided: FailureOutcome,
  ): Promise<Outcome> {
    if (decided.undeliverable) await this.markUndeliverable(person, channel, decided.undeliverable.stop);
    if (!decided.trouble) return decided.outcome;
    // A broadcast's channel in trouble pauses for the owner. The one whose failure paused it is marked:
    // tried first after the resume, it is held if it would pause it again (messaging/failure-outcome.ts).
    // Those failing beside it while it paused are not.
    const first = !this.paused.has(channel);
    const reason = decided.trouble === 'sender' ? verdict.reason : unknownAnswerReason(channel);
    await this.pauseChannel(broadcast, channel, decided.trouble, reason, answer);
    const { outcome } = decided;
    if (!first || (outcome.result !== 'temporary' && outcome.result !== 'requeue')) return outcome;
    return { ...outcome, mark: 'paused_the_channel' };
  }

  /** The provider said this address or number cannot be reached (21610: they replied STOP). */
  private async markUndeliverable(person: Recipient, channel: Channel, stop: boolean): Promise<void> {
    const { subscriptions } = this.options;
    try {
      if (stop && channel === 'sms') await subscriptions.stopTexts(person.phone, 'provider_answer');
      else await subscriptions.markUndeliverable(person, channel);
    } catch {
      // The row still fails (recorded with the batch): a database blip must not leave it unrecorded.
    }
  }
}
