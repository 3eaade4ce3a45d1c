// The one broadcast control service: what the owner's command (`npm run broadcast`) and the dashboard
// do to a broadcast, under the state and one-sender rules of broadcast-rules.ts. The dashboard's
// "Send" starts one sender in the web server, which works beside any started from the terminal (on
// PostgreSQL) and stops safely with the server; the outbox makes each message go once.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { ConsentRepository } from '../db/consent-repository.js';
import {
  SenderBusyError,
  type Broadcast,
  type BroadcastState,
  type OutboxRepository,
  type StateCounts,
} from '../db/outbox-repository.js';
import { type BroadcastChannel } from '../db/outbox.table.js';
import { BroadcastError } from './broadcast-error.js';
import { changeState, checkNoOtherSender, checkSenderCount } from './broadcast-rules.js';
import type { BroadcastSender, SenderReport } from './broadcast-sender.js';
import { Broadcasts, transportsFrom, type AudienceReport } from './broadcasts.js';

/** Where the dashboard's senders say how they ended; the command's report to the terminal instead. */
type SenderLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** Messages a second per channel, for all of a broadcast's senders together (else the configuration's). */
export type Rates = Partial<Record<BroadcastChannel, number>>;

/** A sender running in this process. */
export interface RunningSender {
  /** Finish what is in flight, record it, and end (Ctrl-C, SIGTERM, the server stopping). */
  stop(): void;
  /** How it ended; its transports are closed by then. */
  done: Promise<SenderReport>;
}

/** Where `npm run broadcast -- send` starts from, once the rules have let it. */
export interface SendStart {
  /** The broadcast as it is now (finished: nothing is left to send). */
  broadcast: Broadcast;
  /** With --resend-unknown: how many messages whose fate was unknown go again. */
  requeued?: number;
  /** resume of a broadcast that was not paused: the state it was in. */
  notPaused?: BroadcastState;
}

export class BroadcastControl {
  private readonly broadcasts: Broadcasts;
  private readonly outbox: OutboxRepository;
  private readonly running = new Map<string, { sender: RunningSender; done: Promise<unknown> }>();

  constructor(
    private readonly config: Config,
    { outbox, consent }: { outbox: OutboxRepository; consent: ConsentRepository },
    private readonly logger?: SenderLogger,
  ) {
    this.outbox = outbox;
    this.broadcasts = new Broadcasts(config, outbox, consent);
  }

  async list(): Promise<Broadcast[]> {
    return this.outbox.list();
  }

  /** The broadcast by name, or undefined. */
  async find(name: string): Promise<Broadcast | undefined> {
    return this.outbox.get(name);
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

  preview(broadcast: Broadcast): ReturnType<Broadcasts['preview']> {
    return this.broadcasts.preview(broadcast);
  }

  /** How many messages are in each state (on one channel, or all). */
  counts(broadcast: Broadcast, channel?: BroadcastChannel): Promise<StateCounts> {
    return this.outbox.counts(broadcast.id, channel);
  }

  async state(broadcast: Broadcast): Promise<BroadcastState | undefined> {
    return this.outbox.state(broadcast.id);
  }

  /** Senders registered on the broadcast, and what went in the last minute. */
  async activity(broadcast: Broadcast): Promise<{ senders: number; sentLastMinute: number }> {
    const senders = await this.outbox.liveSenders(broadcast.id);
    const sentLastMinute = await this.outbox.sentSince(broadcast.id, new Date(Date.now() - 60_000));
    return { senders: senders.length, sentLastMinute };
  }

  /** Channels the broadcast sends that this server cannot (no SMTP_URL, no TWILIO_*). */
  missingChannels(broadcast: Broadcast): string[] {
    const configured = this.broadcasts.configuredChannels();
    return broadcast.channels.filter((channel) => !configured.includes(channel));
  }

  /** One real message of the broadcast to `to` (an email address or a phone number); the provider's id. */
  async test(broadcast: Broadcast, to: string): Promise<string> {
    const transports = transportsFrom(this.config, { connections: 1 });
    try {
      return await this.broadcasts.test(broadcast, to, transports);
    } finally {
      transports.email?.close();
    }
  }

  /** Runs one sender of the broadcast in this process, with this process's own transports. */
  startSender(broadcast: Broadcast, { rates }: { rates?: Rates } = {}): RunningSender {
    const transports = transportsFrom(this.config);
    let sender: BroadcastSender;
    try {
      sender = this.broadcasts.sender(broadcast, transports, rates ? { rates } : {});
    } catch (error) {
      transports.email?.close();
      throw error;
    }
    const done = sender.run(broadcast).finally(() => transports.email?.close());
    return { stop: () => sender.stop(), done };
  }

  /**
   * `send` and `resume` from the command, up to where its senders start: the one-sender rule for
   * `workers`, the channels set up here, a paused broadcast only by resume, unknown messages again
   * on --resend-unknown, then ready (or paused, on resume) to sending.
   */
  async startFromCommand(
    name: string,
    { workers, resume, resendUnknown }: { workers: number; resume: boolean; resendUnknown: boolean },
  ): Promise<SendStart> {
    checkSenderCount(this.outbox.engine, workers);
    const broadcast = await this.broadcasts.get(name);
    const missing = this.missingChannels(broadcast);
    if (missing.length > 0)
      throw new BroadcastError(
        `"${name}" sends ${missing.join(' and ')}, which is not set up here (docs/messaging.md).`,
      );
    if (broadcast.state === 'paused' && !resume)
      throw new BroadcastError(`"${name}" is paused. Go on with: npm run broadcast -- resume ${name}`);
    const start: Omit<SendStart, 'broadcast'> = {};
    if (resendUnknown) {
      start.requeued = await this.outbox.requeueUnknown(broadcast.id);
      if (start.requeued > 0) await changeState(this.outbox, broadcast.id, 'reopen');
    }
    if (resume && !(await changeState(this.outbox, broadcast.id, 'resume')) && broadcast.state !== 'sending')
      start.notPaused = broadcast.state;
    await changeState(this.outbox, broadcast.id, 'start');
    return { broadcast: await this.broadcasts.get(name), ...start };
  }

  /**
   * The dashboard's Send and Resume: starts sending (from ready) or goes on (from paused) with one
   * sender in this process, and returns once it has started.
   */
  async send(broadcast: Broadcast): Promise<void> {
    const missing = this.missingChannels(broadcast);
    if (missing.length > 0)
      throw new BroadcastError(`This broadcast sends ${missing.join(' and ')}, which is not set up here.`);
    const previous = this.running.get(broadcast.name);
    if (previous) {
      // Pressed twice: it is already sending here.
      if ((await this.outbox.state(broadcast.id)) === 'sending') return;
      // Resumed just after a pause: this process's sender is still finishing what it held.
      await previous.done;
    }
    await checkNoOtherSender(this.outbox);
    if (!(await changeState(this.outbox, broadcast.id, 'sendOrResume')))
      throw new BroadcastError(`“${broadcast.name}” has finished: nothing is left to send.`);
    const current = await this.broadcasts.get(broadcast.name);
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
  }

  /** Pauses the broadcast: every sender (here or anywhere) stops after what it is sending now. */
  async pause(broadcast: Broadcast): Promise<boolean> {
    return changeState(this.outbox, broadcast.id, 'pause');
  }

  /** Stops this process's senders safely (the server is shutting down) and waits for them. */
  async stop(): Promise<void> {
    const all = [...this.running.values()];
    for (const { sender } of all) sender.stop();
    await Promise.all(all.map(({ done }) => done));
  }
}
