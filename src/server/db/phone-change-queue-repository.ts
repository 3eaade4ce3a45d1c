// The new phone numbers a repeat sign-up (decision 031) or the person's own page (decision 041)
// asked for, kept on the person until the address on record agrees: the email asking is a kind of the
// one outbox (decision 052), queued here; a request is dropped when stale or seen to.
import { isSignupId } from './column-types.js';
import { MessageQueueRepository } from './message-queue-repository.js';
import { stamp, type QueryContext } from './sql-dialect.js';

/** Clears a waiting phone number change. */
export const NO_PHONE_CHANGE = {
  phone_change_to: null,
  phone_change_at: null,
  phone_change_sent_at: null,
} as const;

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
   * Queues the email asking about each waiting change asked for after `askedAfter` whose email has
   * not gone out, oldest first; one already queued stays as it is.
   */
  async queueDue(askedAfter: Date): Promise<number> {
    const due = this.context.db
      .selectFrom('signups')
      .select('signups.id')
      .where('phone_change_to', 'is not', null)
      .where('phone_change_sent_at', 'is', null)
      .where('phone_change_at', '>=', askedAfter.toISOString())
      .orderBy('phone_change_at');
    return new MessageQueueRepository(this.context).addFrom('phone_change', 'email', due);
  }

  /**
   * The email asking about `to` went out. If a newer request replaced it meanwhile, that one is not
   * marked: it is still to be asked about (the email that went named another number), and the next
   * run queues it.
   */
  async phoneChangeSent(id: string, to: string): Promise<void> {
    if (!isSignupId(id)) return;
    await this.context.db
      .updateTable('signups')
      .set({ phone_change_sent_at: stamp(this.context) })
      .where('id', '=', id)
      .where('phone_change_to', '=', to)
      .execute();
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
