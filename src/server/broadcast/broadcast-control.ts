// Launch day from the dashboard: the same operations as `npm run broadcast`, run inside the web
// server. "Send" starts one sender in this process, which works beside any started from the
// terminal (on PostgreSQL) and stops safely with the server; the outbox makes each message go once.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { hostname } from 'node:os';
import { SenderBusyError, type Broadcast, type SenderInfo } from '../db/outbox-repository.js';
import type { Db } from '../db/open-database.js';
import { BroadcastError, Broadcasts, transportsFrom } from './broadcasts.js';
import { processAlive, type BroadcastSender } from './broadcast-sender.js';

/** Stale senders (a killed process) are the sender's own to clear; only a live one refuses a second. */
function senderAlive(sender: SenderInfo): boolean {
  if (sender.host === hostname() && !processAlive(sender.pid)) return false;
  return Date.now() - Date.parse(sender.heartbeatAt) <= SENDER_STALE_MS;
}

/** The sender's default: unheard of this long, a sender is taken for dead (broadcast-sender.ts). */
const SENDER_STALE_MS = 15_000;

export class BroadcastControl {
  readonly broadcasts: Broadcasts;
  private readonly running = new Map<string, { sender: BroadcastSender; done: Promise<unknown> }>();

  constructor(
    private readonly config: Config,
    private readonly store: Db,
    private readonly logger: FastifyBaseLogger,
  ) {
    this.broadcasts = new Broadcasts(config, store.outbox, store);
  }

  async list(): Promise<Broadcast[]> {
    return this.store.outbox.list();
  }

  /** The broadcast by name, or undefined. */
  async find(name: string): Promise<Broadcast | undefined> {
    return this.store.outbox.get(name);
  }

  /** Channels the broadcast sends that this server cannot (no SMTP_URL, no TWILIO_*). */
  missingChannels(broadcast: Broadcast): string[] {
    const configured = this.broadcasts.configuredChannels();
    return broadcast.channels.filter((channel) => !configured.includes(channel));
  }

  /** One real message of the broadcast to `to` (an email address or a phone number). */
  async test(broadcast: Broadcast, to: string): Promise<void> {
    const transports = transportsFrom(this.config, { connections: 1 });
    try {
      await this.broadcasts.test(broadcast, to, transports);
    } finally {
      transports.email?.close();
    }
  }

  /**
   * Starts sending (from ready) or resumes (from paused) with one sender in this process, and
   * returns once it has started. Refused on SQLite while another sender runs (one at a time there).
   */
  async send(broadcast: Broadcast): Promise<void> {
    const missing = this.missingChannels(broadcast);
    if (missing.length > 0)
      throw new BroadcastError(`This broadcast sends ${missing.join(' and ')}, which is not set up here.`);
    const { outbox: broadcasts } = this.store;
    const previous = this.running.get(broadcast.name);
    if (previous) {
      // Pressed twice: it is already sending here.
      if ((await broadcasts.state(broadcast.id)) === 'sending') return;
      // Resumed just after a pause: this process's sender is still finishing what it held.
      await previous.done;
    }
    if (broadcasts.engine === 'sqlite' && (await broadcasts.liveSenders()).some((sender) => senderAlive(sender)))
      throw new BroadcastError('A sender is already running (from the terminal?). SQLite allows one at a time.');
    if (!(await broadcasts.setState(broadcast.id, 'sending', ['ready', 'paused', 'sending'])))
      throw new BroadcastError(`“${broadcast.name}” has finished: nothing is left to send.`);
    const current = await this.broadcasts.get(broadcast.name);
    const transports = transportsFrom(this.config);
    const sender = this.broadcasts.sender(current, transports);
    const done = sender
      .run(current)
      .then(
        (report) => this.logger.info({ broadcast: current.name, ...report }, 'broadcast sender ended'),
        (error: unknown) => {
          if (error instanceof SenderBusyError) this.logger.warn({ broadcast: current.name }, error.message);
          else this.logger.error({ err: error, broadcast: current.name }, 'broadcast sender failed');
        },
      )
      .finally(() => {
        transports.email?.close();
        this.running.delete(current.name);
      });
    this.running.set(current.name, { sender, done });
  }

  /** Pauses the broadcast: every sender (here or anywhere) stops after what it is sending now. */
  async pause(broadcast: Broadcast): Promise<boolean> {
    return this.store.outbox.setState(broadcast.id, 'paused', ['ready', 'sending']);
  }

  /** Stops this process's senders safely (the server is shutting down) and waits for them. */
  async stop(): Promise<void> {
    const all = [...this.running.values()];
    for (const { sender } of all) sender.stop();
    await Promise.all(all.map(({ done }) => done));
  }
}
