// The replies no rule acted on, for the owner's Replies list: kept, read newest first, and erased
// with the number's other data (a deletion) or after the days the privacy notice names.
import { iso, type Time } from './column-types.js';
import { stamp, type QueryContext } from './sql-dialect.js';

/** A reply as the owner's list shows it. */
export interface SmsReply {
  id: number;
  receivedAt: string;
  phoneEnd: string;
  body: string;
}

/** The longest reply kept: Twilio delivers at most 1,600 characters. */
export const REPLY_LENGTH = 1600;

export class SmsRepliesRepository {
  constructor(private readonly context: QueryContext) {}

  async keep(reply: { phoneHash: string; phoneEnd: string; body: string }): Promise<void> {
    await this.context.db
      .insertInto('sms_replies')
      .values({
        received_at: stamp(this.context),
        phone_hash: reply.phoneHash,
        phone_end: reply.phoneEnd.slice(-4),
        body: reply.body.slice(0, REPLY_LENGTH),
      })
      .execute();
  }

  /** The newest replies first. */
  async latest(limit: number): Promise<SmsReply[]> {
    const rows = await this.context.db
      .selectFrom('sms_replies')
      .select(['id', 'received_at', 'phone_end', 'body'])
      .orderBy('received_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      receivedAt: iso(row.received_at as Time),
      phoneEnd: row.phone_end,
      body: row.body,
    }));
  }

  /** Erases the replies received before this time. */
  async forgetBefore(before: Date): Promise<number> {
    const result = await this.context.db
      .deleteFrom('sms_replies')
      .where('received_at', '<', before.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
