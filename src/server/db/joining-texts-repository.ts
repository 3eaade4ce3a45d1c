// The joining text's queue (decision 041): who is due the text that asks a number for its YES, the
// claims that keep two senders from sending it twice, and its outcome. Written once with Kysely.
import { type Kysely, type Transaction } from 'kysely';
import { isSignupId } from './column-types.js';
import type { Database } from './database.js';
import { stamp, type QueryContext } from './sql-dialect.js';

/** A person due the joining text, and the number it goes to. */
export interface JoiningTextJob {
  id: string;
  phone: string;
}

/** How long a sender's claim holds before another may take it (a sender that died mid-send). */
export const JOINING_TEXT_LEASE_MS = 5 * 60_000;
/** Someone who may not be texted now (a STOP, a number's "no") is looked at again after this. */
export const JOINING_TEXT_LATER_MS = 30 * 86_400_000;

/** A new number is unproven: its own joining text and its own yes (set with the number). */
export const NEW_NUMBER_UNPROVEN = {
  sms_confirmed_at: null,
  joining_text_sent_at: null,
  joining_text_claimed_at: null,
} as const;

type Db = Kysely<Database> | Transaction<Database>;

export class JoiningTextsRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * Takes up to `limit` people due the joining text, oldest first, for this sender alone: on the
   * list, texts on, the text never sent, the number not yet proven, and no live claim. On PostgreSQL,
   * rows another sender is claiming are skipped, not waited for.
   */
  async claim(limit: number, leaseMs = JOINING_TEXT_LEASE_MS): Promise<JoiningTextJob[]> {
    const now = this.context.now();
    const staleBefore = new Date(now.getTime() - leaseMs).toISOString();
    const due = this.context.db
      .selectFrom('signups')
      .select('id')
      .where('joining_text_sent_at', 'is', null)
      .where('sms_confirmed_at', 'is', null)
      .where('left_at', 'is', null)
      .where('sms_opt_out_at', 'is', null)
      .where((eb) =>
        eb.or([eb('joining_text_claimed_at', 'is', null), eb('joining_text_claimed_at', '<', staleBefore)]),
      )
      .orderBy('created_at')
      .limit(limit)
      .$if(this.context.dialect.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    const rows = await this.context.db
      .updateTable('signups')
      .set({ joining_text_claimed_at: now.toISOString() })
      .where('id', 'in', due)
      .returning(['id', 'phone'])
      .execute();
    return rows.map((row) => ({ id: String(row.id), phone: row.phone }));
  }

  /** The joining text went to this number (not recorded if the number changed meanwhile). */
  async sent(job: JoiningTextJob): Promise<void> {
    if (!isSignupId(job.id)) return;
    await this.context.db
      .updateTable('signups')
      .set({ joining_text_sent_at: stamp(this.context), joining_text_claimed_at: null })
      .where('id', '=', job.id)
      .where('phone', '=', job.phone)
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

  /** Not sent now: looked at again once `retryAt` has passed (the claim's time is moved so it holds until then). */
  async notSent(id: string, retryAt: Date, leaseMs = JOINING_TEXT_LEASE_MS): Promise<void> {
    if (!isSignupId(id)) return;
    await this.context.db
      .updateTable('signups')
      .set({ joining_text_claimed_at: new Date(retryAt.getTime() - leaseMs).toISOString() })
      .where('id', '=', id)
      .execute();
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
