// The processes sending a broadcast: registered (one at a time on SQLite), heard from by their
// heartbeat, and stopped; a sender found dead leaves the rows it held 'unknown' (decision 023).
import { iso, type Engine } from './column-types.js';
import type { Channel } from './message-channels.js';
import { stamp, type QueryContext } from './sql-dialect.js';

export interface SenderInfo {
  id: string;
  broadcastId: number;
  host: string;
  pid: number;
  startedAt: string;
  heartbeatAt: string;
}

export class SenderBusyError extends Error {
  constructor(readonly other: SenderInfo) {
    super(
      `Another sender is already running (process ${other.pid} on ${other.host}, last seen ${other.heartbeatAt}). ` +
        'SQLite allows one sender at a time: wait for it, pause it, or stop it first.',
    );
    this.name = 'SenderBusyError';
  }
}

export class BroadcastSendersRepository {
  constructor(private readonly context: QueryContext) {}

  get engine(): Engine {
    return this.context.dialect.engine;
  }

  /**
   * Registers a sender. On SQLite only one may run at a time (the unique slot); a sender that died
   * is noticed first (`isDead`), its in-flight rows marked unknown, and its slot freed.
   */
  async registerSender(
    sender: { id: string; broadcastId: number; host: string; pid: number },
    isDead: (other: SenderInfo) => boolean,
  ): Promise<{ unknown: number }> {
    const reaped = await this.reapDeadSenders(isDead);
    const at = stamp(this.context);
    try {
      await this.context.db
        .insertInto('broadcast_senders')
        .values({
          id: sender.id,
          broadcast_id: sender.broadcastId,
          slot: this.context.dialect.engine === 'sqlite' ? 1 : null,
          host: sender.host,
          pid: sender.pid,
          started_at: at,
          heartbeat_at: at,
        })
        .execute();
    } catch (error) {
      const [other] = await this.liveSenders();
      if (this.context.dialect.engine === 'sqlite' && other) throw new SenderBusyError(other);
      throw error;
    }
    return { unknown: reaped };
  }

  async heartbeat(senderId: string): Promise<void> {
    await this.context.db
      .updateTable('broadcast_senders')
      .set({ heartbeat_at: stamp(this.context) })
      .where('id', '=', senderId)
      .execute();
  }

  /**
   * A sender ends. Anything it still holds as 'sending' (only after an error cut its work short)
   * may or may not have left: it becomes 'unknown', like a dead sender's. Returns how many rows.
   */
  async stopSender(senderId: string): Promise<number> {
    return this.stopSenders([senderId]);
  }

  /** Senders that have not stopped (some may have died without saying so), oldest first. */
  /**
   * The channels a broadcast is being sent on now: by a sender that has not stopped and was heard
   * from since `heardSince`. Every other message on those channels keeps to its small share of the
   * channel's rate meanwhile (messaging/channel-rates.ts).
   */
  async channelsSending(heardSince: Date): Promise<Set<Channel>> {
    const rows = await this.context.db
      .selectFrom('broadcast_senders')
      .innerJoin('broadcasts', 'broadcasts.id', 'broadcast_senders.broadcast_id')
      .select('broadcasts.channels')
      .distinct()
      .where('broadcast_senders.stopped_at', 'is', null)
      .where('broadcast_senders.heartbeat_at', '>=', heardSince.toISOString())
      .execute();
    return new Set(rows.flatMap((row) => row.channels.split(',').filter(Boolean) as Channel[]));
  }

  async liveSenders(broadcastId?: number): Promise<SenderInfo[]> {
    const rows = await this.context.db
      .selectFrom('broadcast_senders')
      .select(['id', 'broadcast_id', 'host', 'pid', 'started_at', 'heartbeat_at'])
      .where('stopped_at', 'is', null)
      .$if(broadcastId !== undefined, (query) => query.where('broadcast_id', '=', broadcastId as number))
      .orderBy('started_at')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      broadcastId: Number(row.broadcast_id),
      host: row.host,
      pid: row.pid,
      startedAt: iso(row.started_at),
      heartbeatAt: iso(row.heartbeat_at),
    }));
  }

  /**
   * Senders that died without stopping: their rows still 'sending' may or may not have gone out, so
   * they become 'unknown' (never sent again unless the owner says so). Returns how many rows.
   */
  async reapDeadSenders(isDead: (sender: SenderInfo) => boolean): Promise<number> {
    const dead = (await this.liveSenders()).filter(isDead);
    if (dead.length === 0) return 0;
    return this.stopSenders(dead.map((sender) => sender.id));
  }

  /** Marks these senders stopped, and what they still held as 'sending' unknown; returns how many rows. */
  private async stopSenders(ids: string[]): Promise<number> {
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      // Write first: on SQLite the transaction then holds the write lock from its first statement.
      await trx
        .updateTable('broadcast_senders')
        .set({ stopped_at: at, slot: null })
        .where('id', 'in', ids)
        .where('stopped_at', 'is', null)
        .execute();
      const result = await trx
        .updateTable('outbox')
        .set({ state: 'unknown', next_attempt_at: null, error: 'its sender stopped while sending it' })
        .where('state', '=', 'sending')
        .where('claimed_by', 'in', ids)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    });
  }
}
