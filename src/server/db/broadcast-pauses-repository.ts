// A channel of a broadcast paused by a failure of ours, one row per broadcast and channel while it
// lasts, with the reason in plain words and the provider's answer (decision 027).
import { iso, type Engine } from './column-types.js';
import type { Channel } from './message-channels.js';
import type { PauseCause } from './broadcast-pauses.table.js';
import { stamp, type QueryContext } from './sql-dialect.js';
import { ERROR_LENGTH } from './outbox-rows.js';

/** A channel of a broadcast that a failure of ours paused, until the owner resumes it. */
export interface ChannelPause {
  channel: Channel;
  cause: PauseCause;
  /** In plain words, with what to do. */
  reason: string;
  /** The provider's answer, quoted (addresses removed). */
  answer: string | null;
  pausedAt: string;
}

export class BroadcastPausesRepository {
  constructor(private readonly context: QueryContext) {}

  get engine(): Engine {
    return this.context.dialect.engine;
  }

  /**
   * Pauses a channel of the broadcast because of a failure of ours; the first reason stays until the
   * owner resumes. True when this call paused it (false: it already was).
   */
  async pauseChannel(
    broadcastId: number,
    channel: Channel,
    pause: { cause: PauseCause; reason: string; answer?: string | null },
  ): Promise<boolean> {
    const result = await this.context.db
      .insertInto('broadcast_pauses')
      .values({
        broadcast_id: broadcastId,
        channel,
        cause: pause.cause,
        reason: pause.reason.slice(0, 1000),
        answer: pause.answer ? pause.answer.slice(0, ERROR_LENGTH) : null,
        paused_at: stamp(this.context),
      })
      .onConflict((conflict) => conflict.columns(['broadcast_id', 'channel']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** The broadcast's paused channels and why (several broadcasts at once for the list). */
  async pauses(broadcastIds: number | number[]): Promise<Map<number, ChannelPause[]>> {
    const ids = Array.isArray(broadcastIds) ? broadcastIds : [broadcastIds];
    const found = new Map<number, ChannelPause[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return found;
    const rows = await this.context.db
      .selectFrom('broadcast_pauses')
      .selectAll()
      .where('broadcast_id', 'in', ids)
      .orderBy('paused_at')
      .execute();
    for (const row of rows)
      found.get(Number(row.broadcast_id))?.push({
        channel: row.channel,
        cause: row.cause,
        reason: row.reason,
        answer: row.answer,
        pausedAt: iso(row.paused_at),
      });
    return found;
  }

  /** The paused channels of one broadcast. */
  async channelPauses(broadcastId: number): Promise<ChannelPause[]> {
    return (await this.pauses(broadcastId)).get(broadcastId) ?? [];
  }

  /**
   * The owner resumes: the pauses are lifted, and on each channel that was paused the messages
   * waiting to be tried again are due now, their count of attempts started afresh (the failures were
   * ours, or the provider's outage, not the person's). Returns the pauses lifted.
   */
  async clearPauses(broadcastId: number): Promise<ChannelPause[]> {
    const pauses = await this.channelPauses(broadcastId);
    if (pauses.length === 0) return [];
    const at = stamp(this.context);
    await this.context.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('broadcast_pauses').where('broadcast_id', '=', broadcastId).execute();
      await trx
        .updateTable('outbox')
        .set({ next_attempt_at: at, attempts: 0 })
        .where('broadcast_id', '=', broadcastId)
        .where(
          'channel',
          'in',
          pauses.map((pause) => pause.channel),
        )
        .where((eb) =>
          eb.or([
            eb('state', '=', 'queued'),
            eb.and([eb('state', '=', 'failed_temporary'), eb('next_attempt_at', 'is not', null)]),
          ]),
        )
        .execute();
    });
    return pauses;
  }
}
