// The confirmation emails' facts and their asking: the emails themselves are rows of the one outbox
// (decision 052), queued by the sign-up's own transaction or by signups:ask-to-confirm, as is the one
// reminder; the unconfirmed deleted after their time (docs/messaging.md).
import { eraseFromLog } from './erase-for-good.js';
import { DELETED_PERSON } from './opt-outs-repository.js';
import { forgetPeopleInMessages } from './forget-people.js';
import { MessageQueueRepository, rowsOfPerson } from './message-queue-repository.js';
import type { QueryContext } from './sql-dialect.js';

export class ConfirmationQueueRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * Queues the one reminder (decision 052) for each unconfirmed sign-up whose confirmation email went
   * out before `sentBefore` and who never had one: once in a lifetime, whatever becomes of it.
   */
  async queueReminders(sentBefore: Date): Promise<number> {
    const due = this.context.db
      .selectFrom('signups')
      .select('signups.id')
      .where('confirmed_at', 'is', null)
      // Not deleted (texts proven by the number's YES): no reminder that says they would be.
      .where('sms_confirmed_at', 'is', null)
      .where('left_at', 'is', null)
      .where('confirm_sent_at', 'is not', null)
      .where('confirm_sent_at', '<=', sentBefore.toISOString())
      .orderBy('confirm_sent_at');
    return new MessageQueueRepository(this.context).addFrom('reminder', 'email', due, { once: true });
  }

  /**
   * Deletes sign-ups that were asked to confirm and did not, whose latest sign-up is older than
   * `before`. Sign-ups from before confirmation was switched on were never asked, and are kept.
   */
  async deleteUnconfirmed(before: Date): Promise<number> {
    const cutoff = before.toISOString();
    // Counted from the later of their latest sign-up and when the confirmation email actually went
    // out: someone whose email has not gone yet (queued, retrying, or asked today by
    // signups:ask-to-confirm) was not asked yet, and gets the whole period once it goes.
    const removed = await this.context.db.transaction().execute(async (trx) => {
      // A number's YES to texts is a confirmation too: its person stays (issue 54).
      const stale = trx
        .selectFrom('signups')
        .select('id')
        .where('confirmed_at', 'is', null)
        .where('sms_confirmed_at', 'is', null)
        .where('confirm_sent_at', '<', cutoff)
        .where('last_seen_at', '<', cutoff);
      await trx.deleteFrom('consent_events').where('signup_id', 'in', stale).execute();
      // As a deletion deletes (opt-outs-repository.ts, remove): the messages and the owner's log keep
      // their counts and lose the person. The ids are read first (the log's subject is text on PostgreSQL).
      const ids = (await stale.execute()).map((row) => String(row.id));
      await forgetPeopleInMessages(trx, ids);
      for (let start = 0; start < ids.length; start += 500)
        await trx
          .updateTable('owner_audit_log')
          .set({ subject: null, detail: DELETED_PERSON })
          .where('subject', 'in', ids.slice(start, start + 500))
          .execute();
      // Whoever joined through their links is no longer tied to them (decision 039).
      await trx
        .updateTable('signups')
        .set({ referred_by: null })
        .where('referred_by', 'in', stale.clearSelect().select('referral_code'))
        .execute();
      const deleted = await trx
        .deleteFrom('signups')
        .where('confirmed_at', 'is', null)
        .where('sms_confirmed_at', 'is', null)
        .where('confirm_sent_at', '<', cutoff)
        .where('last_seen_at', '<', cutoff)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
    if (removed > 0) await eraseFromLog(this.context);
    return removed;
  }

  /** How many sign-ups were never asked to confirm (they signed up before confirmation was switched on). */
  async neverAskedCount(): Promise<number> {
    const row = await this.neverAsked()
      .clearSelect()
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Asks everyone who was never asked to confirm (signups:ask-to-confirm): their confirmation emails
   * become due `perSecond` at a time, one second apart, from `start`, for the server's confirmation
   * mailer to send. Returns how many were asked and when the last becomes due.
   */
  async askNeverAsked(perSecond: number, start: Date): Promise<{ asked: number; lastDueAt: Date | undefined }> {
    const ids = (await this.neverAsked().orderBy('created_at').execute()).map((row) => String(row.id));
    const queue = new MessageQueueRepository(this.context);
    let lastDueAt: Date | undefined;
    for (let index = 0; index < ids.length; index += perSecond) {
      lastDueAt = new Date(start.getTime() + (index / perSecond) * 1000);
      // Asked meanwhile (a repeat sign-up), or left: not again.
      await queue.addFrom(
        'confirmation',
        'email',
        this.neverAsked().where('signups.id', 'in', ids.slice(index, index + perSecond)),
        { once: true, dueAt: lastDueAt },
      );
    }
    return { asked: ids.length, lastDueAt };
  }

  private neverAsked() {
    return (
      this.context.db
        .selectFrom('signups')
        .select('signups.id')
        .where('confirmed_at', 'is', null)
        .where('left_at', 'is', null)
        // Email turned off: their "no" stands; we do not write to ask (issue 54).
        .where('email_opt_out_at', 'is', null)
        .where('confirm_sent_at', 'is', null)
        .where((eb) => eb.not(eb.exists(rowsOfPerson(eb, 'confirmation', false))))
    );
  }
}
