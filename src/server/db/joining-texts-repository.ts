// The joining text (decision 041): who is due the text that asks a number for its YES (queued in the
// outbox, decision 052), whether a number had one, and its YES. Written once with Kysely.
import { type Kysely, type Transaction } from 'kysely';
import { isSignupId } from './column-types.js';
import type { Database } from './database.js';
import { MessageQueueRepository } from './message-queue-repository.js';
import { stamp, type QueryContext } from './sql-dialect.js';

/** Someone who may not be texted now (a STOP, a number's "no") is looked at again after this. */
export const JOINING_TEXT_LATER_MS = 30 * 86_400_000;

/** A new number is unproven: its own joining text and its own yes (set with the number). */
export const NEW_NUMBER_UNPROVEN = {
  sms_confirmed_at: null,
  joining_text_sent_at: null,
} as const;

type Db = Kysely<Database> | Transaction<Database>;

export class JoiningTextsRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * Queues the joining text in the outbox (decision 052) for everyone due it who has none waiting: on
   * the list, texts on, the text never sent to their number, the number not yet proven.
   */
  async queueDue(): Promise<number> {
    const due = this.context.db
      .selectFrom('signups')
      .select('signups.id')
      .where('joining_text_sent_at', 'is', null)
      .where('sms_confirmed_at', 'is', null)
      .where('left_at', 'is', null)
      .where('sms_opt_out_at', 'is', null)
      .orderBy('created_at');
    return new MessageQueueRepository(this.context).addFrom('joining_text', 'sms', due);
  }

  /** The joining text went to this number (not recorded if the number changed meanwhile). */
  async texted(id: string, phone: string): Promise<void> {
    if (!isSignupId(id)) return;
    await this.context.db
      .updateTable('signups')
      .set({ joining_text_sent_at: stamp(this.context) })
      .where('id', '=', id)
      .where('phone', '=', phone)
      .execute();
  }

  /**
   * Whether the number (`phones`: the forms it may be stored in) had its joining text already, through
   * any sign-up: one joining text per number, however many people type it (issue 54).
   */
  async numberAsked(phones: string[]): Promise<boolean> {
    if (phones.length === 0) return false;
    const row = await this.context.db
      .selectFrom('signups')
      .select('id')
      .where('phone', 'in', phones)
      .where('joining_text_sent_at', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}

/**
 * The number said yes (YES, or START): texts to it are proven wanted for everyone on the list who
 * gave it (`phones`: the forms it may be stored in). Returns whom it changed.
 */
export async function confirmNumber(trx: Db, phones: string[], at: string): Promise<{ id: string }[]> {
  if (phones.length === 0) return [];
  const rows = await trx
    .updateTable('signups')
    .set({ sms_confirmed_at: at })
    .where('phone', 'in', phones)
    .where('sms_confirmed_at', 'is', null)
    .where('left_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((row) => ({ id: String(row.id) }));
}
