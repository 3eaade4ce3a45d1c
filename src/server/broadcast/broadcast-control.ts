// The one broadcast control service: what the owner's command (`sudo scamsavvy broadcast`) and the dashboard
// do to a broadcast, under the state and one-sender rules of broadcast-rules.ts. The dashboard's
// "Send" starts one sender in the web server, which works beside any started from the terminal (on
// PostgreSQL) and stops safely with the server; the outbox makes each message go once.
import type { Language } from '../../shared/languages.js';
import type { Config } from '../config.js';
import type { BroadcastHealth, MessageHealthRepository } from '../db/message-health-repository.js';
import { waitingTextsLine } from './broadcast-progress.js';
import { verdictOf } from '../messaging/send-failure.js';
import { SenderBusyError } from '../db/broadcast-senders-repository.js';
import { type Broadcast, type BroadcastState } from '../db/broadcasts-repository.js';
import { type ChannelPause } from '../db/broadcast-pauses-repository.js';
import type { BroadcastDb } from '../db/open-database.js';
import type { StateCounts } from '../db/outbox-rows.js';
import type { Channel } from '../db/message-channels.js';
import { BroadcastError } from './broadcast-error.js';
import { notSetUp } from './channel-setup.js';
import { changeState, checkNoOtherSender, checkSenderCount } from './broadcast-rules.js';
import type { BroadcastSender } from './broadcast-sender.js';
import { Broadcasts, type AudienceReport, type BroadcastMessaging, type BroadcastStores } from './broadcasts.js';
import type { ReadyCheck } from '../ready/ready-check.js';
import { FailedMessages } from './failed-messages.js';
import {
  notReadyWords,
  refuseUnhealthy,
  runningElsewhere,
  unknownAfterRestore,
  type OpenTransports,
  type Rates,
  type Readiness,
  type RunningSender,
  type SendStart,
  type SenderLogger,
  type StartFacts,
} from './start-rules.js';

export class BroadcastControl {
  /** The broadcasts it controls: their contents, recipients and senders (the tests drive a sender through it). */
  readonly broadcasts: Broadcasts;
  /** Its failed messages: what `retry` would queue, queueing them, and the held ones. */
  readonly failed: FailedMessages;
  private readonly db: BroadcastDb;
  private readonly messageHealth: Pick<MessageHealthRepository, 'health'> | undefined;
  private readonly restoreMarks: BroadcastStores['restoreMarks'];
  private readonly running = new Map<string, { sender: RunningSender; done: Promise<unknown> }>();
  private readonly openTransports: OpenTransports;
  private readonly readiness: Readiness | undefined;

  constructor(
    config: Config,
    stores: BroadcastStores,
    /** The process's subscriptions, link signer and message log, and its providers (compose.ts builds them once). */
    messaging: BroadcastMessaging & { openTransports: OpenTransports; readiness?: Readiness | undefined },
    private readonly logger?: SenderLogger,
  ) {
    this.openTransports = messaging.openTransports;
    this.readiness = messaging.readiness;
    this.db = stores;
    this.messageHealth = stores.messageHealth;
    this.restoreMarks = stores.restoreMarks;
    this.broadcasts = new Broadcasts(config, stores, messaging);
    this.failed = new FailedMessages(stores, messaging.subscriptions, stores.sentMessages);
  }

  /** What came back about a channel's messages (undefined where nothing is recorded). */
  async health(broadcast: Broadcast, channel: Channel): Promise<BroadcastHealth | undefined> {
    return this.messageHealth?.health(broadcast.id, channel, broadcast.startedAt);
  }

  /** Emails receiving servers refused for our sending (block lists, reputation, volume), by domain. */
  refusedForOurSending(broadcast: Broadcast): Promise<{ domain: string; count: number }[]> {
    return this.db.outboxRefusals.refusedForOurSending(broadcast.id);
  }

  /** The channels a failure of ours paused, and why. */
  pauses(broadcast: Broadcast): Promise<ChannelPause[]> {
    return this.db.broadcastPauses.channelPauses(broadcast.id);
  }

  /** Several broadcasts' pauses at once (the list). */
  pausesOf(broadcasts: Broadcast[]): Promise<Map<number, ChannelPause[]>> {
    return this.db.broadcastPauses.pauses(broadcasts.map((broadcast) => broadcast.id));
  }

  /**
   * Asks each provider the broadcast sends through whether it will take our messages, before any
   * sender starts: one SMTP connection with sign-in, one authenticated Twilio account request.
   * Refuses with the reason, in plain words, when one will not.
   */
  async checkProviders(broadcast: Broadcast): Promise<void> {
    const transports = this.openTransports({ connections: 1 });
    try {
      for (const channel of broadcast.channels) {
        try {
          if (channel === 'email') await transports.email?.verify();
          else await transports.sms?.checkAccount();
        } catch (error) {
          const verdict = verdictOf(error);
          // Nothing was started: "then resume" in the reason means "then run it again" here.
          const reason = verdict.reason.replace(/,? then resume\.$/, ', then run it again.');
          throw new BroadcastError(
            `Not started: ${reason}${verdict.kind === 'message' ? ' Try again when it answers.' : ''}`,
          );
        }
      }
    } finally {
      transports.email?.close();
    }
  }

  async list(): Promise<Broadcast[]> {
    return this.db.broadcasts.list();
  }

  /** The broadcast by name, or undefined. */
  async find(name: string): Promise<Broadcast | undefined> {
    return this.db.broadcasts.get(name);
  }

  /** The broadcast by name, or a BroadcastError naming the ones there are. */
  async get(name: string): Promise<Broadcast> {
    return this.broadcasts.get(name);
  }

  create(input: Parameters<Broadcasts['create']>[0]): Promise<{ broadcast: Broadcast; report: AudienceReport }> {
    return this.broadcasts.create(input);
  }

  topUp(name: string): Promise<{ broadcast: Broadcast; report: AudienceReport }> {
    return this.broadcasts.topUp(name);
  }

  preview(broadcast: Broadcast, language: Language = 'en'): ReturnType<Broadcasts['preview']> {
    return this.broadcasts.preview(broadcast, language);
  }

  /** How many messages are in each state (on one channel, or all). */
  counts(broadcast: Broadcast, channel?: Channel): Promise<StateCounts> {
    return this.db.outbox.counts(broadcast.id, channel);
  }

  async state(broadcast: Broadcast): Promise<BroadcastState | undefined> {
    return this.db.broadcasts.state(broadcast.id);
  }

  /** Senders registered on the broadcast, and what went in the last minute. */
  async activity(
    broadcast: Broadcast,
  ): Promise<{ senders: number; sentLastMinute: number; waitingTexts: string | undefined }> {
    const senders = await this.db.broadcastSenders.liveSenders(broadcast.id);
    const sentLastMinute = await this.db.outbox.sentSince(broadcast.id, new Date(Date.now() - 60_000));
    const waitingTexts = waitingTextsLine(await this.db.outbox.waitingTexts(broadcast.id));
    return { senders: senders.length, sentLastMinute, waitingTexts };
  }

  /** Channels the broadcast sends that this server cannot (no SMTP_URL, no TWILIO_*). */
  missingChannels(broadcast: Broadcast): Channel[] {
    const configured = this.broadcasts.configuredChannels();
    return broadcast.channels.filter((channel) => !configured.includes(channel));
  }

  /** One real message of the broadcast to `to` (an email address or a phone number), in `language`; the provider's id. */
  async test(broadcast: Broadcast, to: string, language: Language = 'en'): Promise<string> {
    const transports = this.openTransports({ connections: 1 });
    try {
      return await this.broadcasts.test(broadcast, to, transports, language);
    } finally {
      transports.email?.close();
    }
  }

  /** Runs one sender of the broadcast in this process, with this process's own transports. */
  startSender(broadcast: Broadcast, { rates }: { rates?: Rates } = {}): RunningSender {
    const transports = this.openTransports();
    let sender: BroadcastSender;
    try {
      sender = this.broadcasts.sender(broadcast, transports, rates ? { rates } : {});
    } catch (error) {
      transports.email?.close();
      throw error;
    }
    const done = sender.run(broadcast).finally(() => transports.email?.close());
    const ended = done.then(
      () => undefined,
      () => undefined,
    );
    return { stop: () => sender.stop(), done, registered: Promise.race([sender.registered, ended]) };
  }

  /**
   * `send` and `resume` from the command, up to where its senders start: the one-sender rule for
   * `workers`, the channels set up here, a paused broadcast only by resume, unknown messages again
   * on --resend-unknown, then ready (or paused, on resume) to sending.
   */
  async startFromCommand(
    name: string,
    {
      workers,
      resume,
      resendUnknown,
      despiteHealth = false,
      afterRestore = false,
      notReady = false,
    }: {
      workers: number;
      resume: boolean;
      resendUnknown: boolean;
      despiteHealth?: boolean;
      afterRestore?: boolean;
      notReady?: boolean;
    },
  ): Promise<SendStart> {
    checkSenderCount(this.db.outbox.engine, workers);
    // The broadcast is read once, with what the rules need; the checks decide; then the writes.
    const broadcast = await this.broadcasts.get(name);
    const facts = await this.startFacts(broadcast);
    const acceptHealth = await this.preflight(broadcast, facts.pauses, { resume, despiteHealth, afterRestore });
    const despiteRed = await this.refuseUnready(broadcast, notReady);
    const inPlace = resume && runningElsewhere(this.db.outbox.engine, broadcast.state, facts.liveSenders);
    const start: Omit<SendStart, 'broadcast'> = despiteRed.length > 0 ? { despiteRed } : {};
    if (acceptHealth) await this.db.broadcasts.acceptHealth(broadcast.id);
    if (resume) {
      start.resumed = await this.db.broadcastPauses.clearPauses(broadcast.id);
      if (inPlace) return { broadcast, ...start, resumedInPlace: true };
    }
    if (resendUnknown) start.requeued = await this.db.outbox.requeueUnknown(broadcast.id);
    if (resume && broadcast.state !== 'paused' && broadcast.state !== 'sending') start.notPaused = broadcast.state;
    // To sending from ready; from paused on resume; from finished when unknown messages go again.
    const from: BroadcastState[] = [
      'ready',
      ...(resume ? ['paused' as const] : []),
      ...(start.requeued ? ['finished' as const] : []),
    ];
    const moved = await this.db.broadcasts.moveState(broadcast.id, 'sending', from);
    return { broadcast: moved ?? broadcast, ...start };
  }

  /**
   * A broadcast's first start (from ready) waits for the launch checks: while one is red it is
   * refused, naming each, unless the owner goes on knowingly (`notReady`). Returns the red checks gone
   * on despite. Later starts (resume, the waiting texts) go on what was begun.
   */
  private async refuseUnready(broadcast: Pick<Broadcast, 'name' | 'state'>, notReady: boolean): Promise<ReadyCheck[]> {
    if (broadcast.state !== 'ready' || !this.readiness) return [];
    const red = (await this.readiness()).filter((one) => one.level === 'red');
    if (red.length > 0 && !notReady) throw new BroadcastError(notReadyWords(red, broadcast.name));
    return red;
  }

  /** The broadcast's channel pauses, and its senders on record while it is sending. */
  private async startFacts(broadcast: Pick<Broadcast, 'id' | 'state'>): Promise<StartFacts> {
    const pauses = await this.db.broadcastPauses.channelPauses(broadcast.id);
    const liveSenders = broadcast.state === 'sending' ? await this.db.broadcastSenders.liveSenders(broadcast.id) : [];
    return { pauses, liveSenders };
  }

  /**
   * The dashboard's Send and Resume: starts sending (from ready) or goes on (from paused) with one
   * sender in this process, and returns once it has started.
   */
  async send(broadcast: Broadcast, { notReady = false }: { notReady?: boolean } = {}): Promise<ReadyCheck[]> {
    // Send and Resume are one button: what a failure of ours paused goes on too, once the providers answer.
    const pauses = await this.db.broadcastPauses.channelPauses(broadcast.id);
    await this.preflight(broadcast, pauses, { resume: true, despiteHealth: false, afterRestore: false });
    const despiteRed = await this.refuseUnready(broadcast, notReady);
    await this.db.broadcastPauses.clearPauses(broadcast.id);
    if (!this.running.has(broadcast.name)) {
      // The state now, not as the page had it; a sender at work on the other channel takes this one up.
      const state = await this.db.broadcasts.state(broadcast.id);
      const live = state === 'sending' ? await this.db.broadcastSenders.liveSenders(broadcast.id) : [];
      if (runningElsewhere(this.db.outbox.engine, state, live)) return despiteRed;
    }
    const previous = this.running.get(broadcast.name);
    if (previous) {
      // Pressed twice: it is already sending here.
      if ((await this.db.broadcasts.state(broadcast.id)) === 'sending') return despiteRed;
      // Resumed just after a pause: this process's sender is still finishing what it held.
      await previous.done;
    }
    await checkNoOtherSender(this.db.broadcastSenders);
    if (!(await changeState(this.db.broadcasts, broadcast.id, 'sendOrResume')))
      throw new BroadcastError(`“${broadcast.name}” has finished: nothing is left to send.`);
    await this.runHere(await this.broadcasts.get(broadcast.name));
    return despiteRed;
  }

  /** The red launch checks now (none without them): the dashboard's Send question lists them. */
  async redChecks(): Promise<ReadyCheck[]> {
    return this.readiness ? (await this.readiness()).filter((one) => one.level === 'red') : [];
  }

  /**
   * The waiting-texts job: a broadcast whose senders ended with only texts held for daytime (or a
   * state's cap) left goes on by itself, with one sender here, once one of them may go. A paused
   * broadcast or channel waits for the owner; one another sender is at work on is left to it.
   * Returns the names it took up.
   */
  async sendWaitingTexts(): Promise<string[]> {
    const taken: string[] = [];
    // After a restore whose later "no"s are unknown, nothing goes by itself: the owner settles it first.
    if (await this.restoreMarks.unsettled()) return taken;
    for (const broadcast of await this.db.broadcasts.list()) {
      if (broadcast.state !== 'sending' || this.running.has(broadcast.name)) continue;
      if (!broadcast.channels.includes('sms') || this.missingChannels(broadcast).length > 0) continue;
      if ((await this.db.outbox.waitingTexts(broadcast.id)).due === 0) continue;
      const { pauses, liveSenders } = await this.startFacts(broadcast);
      if (pauses.length > 0 || liveSenders.length > 0) continue;
      await this.runHere(broadcast);
      taken.push(broadcast.name);
    }
    return taken;
  }

  /** One sender of the broadcast in this process, logged when it ends; resolves once it is on record. */
  private async runHere(current: Broadcast): Promise<void> {
    const sender = this.startSender(current);
    const done = sender.done
      .then(
        (report) => this.logger?.info({ broadcast: current.name, ...report }, 'broadcast sender ended'),
        (error: unknown) => {
          if (error instanceof SenderBusyError) this.logger?.warn({ broadcast: current.name }, error.message);
          else this.logger?.error({ err: error, broadcast: current.name }, 'broadcast sender failed');
        },
      )
      .finally(() => this.running.delete(current.name));
    this.running.set(current.name, { sender, done });
    // The page that answers "Send" shows the broadcast as sending (with Pause), never as stopped
    // because its sender had not yet put itself on record.
    await sender.registered;
  }

  /**
   * What every start checks before it changes anything, in this order, for the command and the
   * dashboard alike: the broadcast's channels are set up here; a paused broadcast goes on only as a
   * resume; the providers take our sign-in (not for a finished broadcast: nothing would be sent); a
   * broadcast that paused itself for its health goes on only knowingly; after a restore that could
   * not read what it replaced, nothing goes until the owner imports the providers' lists or says so.
   * True when the owner goes on despite the broadcast's health, which the start then records.
   */
  private async preflight(
    broadcast: Broadcast,
    pauses: ChannelPause[],
    { resume, despiteHealth, afterRestore }: { resume: boolean; despiteHealth: boolean; afterRestore: boolean },
  ): Promise<boolean> {
    const missing = this.missingChannels(broadcast);
    if (missing.length > 0) throw new BroadcastError(notSetUp(missing));
    await this.refuseAfterUnknownRestore(broadcast, resume, afterRestore);
    const name = broadcast.name;
    if ((broadcast.state === 'paused' || pauses.length > 0) && !resume)
      throw new BroadcastError(
        pauses.length > 0
          ? `"${name}" is paused: ${pauses.map((pause) => pause.reason).join(' ')}\nGo on with: sudo scamsavvy broadcast resume ${name}`
          : `"${name}" is paused. Go on with: sudo scamsavvy broadcast resume ${name}`,
      );
    if (broadcast.state !== 'finished') await this.checkProviders(broadcast);
    return refuseUnhealthy(broadcast, pauses, despiteHealth);
  }

  /**
   * A restore that could not read the database it replaced leaves every "no" after the backup unknown
   * (decision 041): no send or resume until the providers' suppression lists are imported
   * (`sudo scamsavvy suppressions import FILE`) or the owner says knowingly, from the terminal, that
   * nothing happened since (`--after-restore`, which settles it for every broadcast).
   */
  private async refuseAfterUnknownRestore(broadcast: Broadcast, resume: boolean, afterRestore: boolean): Promise<void> {
    const mark = await this.restoreMarks.unsettled();
    if (!mark) return;
    if (afterRestore) {
      await this.restoreMarks.settle('acknowledged');
      return;
    }
    throw new BroadcastError(
      unknownAfterRestore(
        mark,
        `sudo scamsavvy broadcast ${resume ? 'resume' : 'send'} ${broadcast.name} --after-restore`,
      ),
    );
  }

  /** Pauses the broadcast: every sender (here or anywhere) stops after what it is sending now. */
  async pause(broadcast: Broadcast): Promise<boolean> {
    return changeState(this.db.broadcasts, broadcast.id, 'pause');
  }

  /** Stops this process's senders safely (the server is shutting down) and waits for them. */
  async stop(): Promise<void> {
    const all = [...this.running.values()];
    for (const { sender } of all) sender.stop();
    await Promise.all(all.map(({ done }) => done));
  }
}
