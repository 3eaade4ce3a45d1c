// The emails about a new phone number a repeat sign-up (decision 031) or the person's own page
// (decision 041) asked for, as a queue in the signups table: claimed with a lease, sent or not,
// dropped when stale or seen to.
import type { ExpressionBuilder } from 'kysely';
import { isSignupId } from './column-types.js';
import type { Database } from './database.js';
import { stamp, type QueryContext } from './sql-dialect.js';

/** Clears a waiting phone number change. */
export const NO_PHONE_CHANGE = {
  phone_change_to: null,
  phone_change_at: null,
  phone_change_sent_at: null,
  phone_change_claimed_at: null,
} as const;

/** How long a sender's claim on a phone change email holds before another may take it (one that died mid-send). */
export const PHONE_CHANGE_LEASE_MS = 5 * 60_000;

export class PhoneChangeQueueRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * A new number typed on the person's page (its link may have been forwarded): kept aside, and the
   * address on record asked, as for a repeat sign-up. While an email asking about another number went
   * out in the last day, nothing is kept ('asked today': one such email a day at most); the number
   * already asked about (since `askedAfter`: the button still works) is 'asked' again.
   */
  async askPhoneChange(id: string, to: string, askedAfter: Date): Promise<'asked' | 'askedToday' | 'missing'> {
    if (!isSignupId(id)) return 'missing';
    const now = this.context.now();
    const dayBefore = new Date(now.getTime() - 86_400_000).toISOString();
    return this.context.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('signups')
        .select(['phone_change_to', 'phone_change_at', 'phone_change_sent_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!current) return 'missing';
      const at = current.phone_change_at === null ? 0 : new Date(String(current.phone_change_at)).getTime();
      if (current.phone_change_to === to && at >= askedAfter.getTime()) return 'asked';
      const sentAt = current.phone_change_sent_at === null ? null : new Date(String(current.phone_change_sent_at));
      if (sentAt && sentAt.toISOString() >= dayBefore) return 'askedToday';
      await trx
        .updateTable('signups')
        .set({ ...NO_PHONE_CHANGE, phone_change_to: to, phone_change_at: stamp(this.context) })
        .where('id', '=', id)
        .execute();
      return 'asked';
    });
  }

  /**
   * Claims up to `limit` waiting phone number changes asked for after `askedAfter` whose email has
   * not gone out and that no sender holds (a claim older than PHONE_CHANGE_LEASE_MS is a sender that
   * died): each is held now; phoneChangeSent or phoneChangeNotSent ends the claim.
   */
  async claimPhoneChanges(limit: number, askedAfter: Date): Promise<string[]> {
    const leaseEnded = new Date(this.context.now().getTime() - PHONE_CHANGE_LEASE_MS).toISOString();
    const free = (eb: ExpressionBuilder<Database, 'signups'>) =>
      eb.or([eb('phone_change_claimed_at', 'is', null), eb('phone_change_claimed_at', '<', leaseEnded)]);
    const due = this.context.db
      .selectFrom('signups')
      .select('id')
      .where('phone_change_to', 'is not', null)
      .where('phone_change_sent_at', 'is', null)
      .where('phone_change_at', '>=', askedAfter.toISOString())
      .where(free)
      .orderBy('phone_change_at')
      .limit(limit)
      .$if(this.context.dialect.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    const rows = await this.context.db
      .updateTable('signups')
      .set({ phone_change_claimed_at: stamp(this.context) })
      .where('id', 'in', due)
      .where('phone_change_sent_at', 'is', null)
      .where(free)
      .returning('id')
      .execute();
    return rows.map((row) => String(row.id));
  }

  /**
   * The email asking about `to` went out. If a newer request replaced it meanwhile, that one is not
   * marked: it is still to be asked about (the email that went named another number).
   */
  async phoneChangeSent(id: string, to: string): Promise<void> {
    if (!isSignupId(id)) return;
    const marked = await this.context.db
      .updateTable('signups')
      .set({ phone_change_sent_at: stamp(this.context), phone_change_claimed_at: null })
      .where('id', '=', id)
      .where('phone_change_to', '=', to)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) await this.phoneChangeNotSent(id);
  }

  /** The email asking could not go out for a reason of ours: the claim ends, a later run tries again. */
  async phoneChangeNotSent(id: string): Promise<void> {
    if (!isSignupId(id)) return;
    await this.context.db.updateTable('signups').set({ phone_change_claimed_at: null }).where('id', '=', id).execute();
  }

  /** Forgets a waiting phone number change (nothing to ask, or the owner saw to it). */
  async dropPhoneChange(id: string): Promise<void> {
    if (!isSignupId(id)) return;
    await this.context.db.updateTable('signups').set(NO_PHONE_CHANGE).where('id', '=', id).execute();
  }

  /** Forgets every phone number change asked for before `before`: its button no longer works, and the number is not kept. */
  async dropStalePhoneChanges(before: Date): Promise<number> {
    const dropped = await this.context.db
      .updateTable('signups')
      .set(NO_PHONE_CHANGE)
      .where('phone_change_at', '<', before.toISOString())
      .executeTakeFirst();
    return Number(dropped.numUpdatedRows);
  }
}
