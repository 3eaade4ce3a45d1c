// The confirmation emails, as a queue in the signups table: claimed with a lease, sent, failed or
// dropped; the one reminder queued in the outbox (decision 052); the unconfirmed deleted after their
// time (docs/messaging.md).
import { eraseFromLog } from './erase-for-good.js';
import { DELETED_PERSON } from './opt-outs-repository.js';
import { forgetPeopleInMessages } from './forget-people.js';
import { MessageQueueRepository } from './message-queue-repository.js';
import { stamp, type QueryContext } from './sql-dialect.js';

/** A confirmation email to send, claimed by one sender for a while (its lease). */
export interface ConfirmationJob {
  id: string;
  email: string;
  /** Attempts so far, this one included. */
  attempts: number;
}

export class ConfirmationQueueRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * Takes up to `limit` confirmation emails that are due, for this sender alone: their due time
   * moves to `leaseMs` from now, so another sender (or this one after a crash) takes them only once
   * the lease has run out. On PostgreSQL, rows another sender is claiming are skipped, not waited for.
   */
  async claimConfirmations(limit: number, leaseMs: number): Promise<ConfirmationJob[]> {
    const now = this.context.now();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const due = this.context.db
      .selectFrom('signups')
      .select('id')
      .where('confirm_requested_at', 'is not', null)
      .where('confirm_requested_at', '<=', now.toISOString())
      // Confirmed people too: someone who left or turned email off may be due their one "come back?"
      // email (the mailer asks the contact rule which email, if any).
      .orderBy('confirm_requested_at')
      .limit(limit)
      .$if(this.context.dialect.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    const rows = await this.context.db
      .updateTable('signups')
      .set((eb) => ({ confirm_requested_at: leaseUntil, confirm_attempts: eb('confirm_attempts', '+', 1) }))
      .where('id', 'in', due)
      .returning(['id', 'email', 'confirm_attempts'])
      .execute();
    return rows.map((row) => ({ id: String(row.id), email: row.email, attempts: row.confirm_attempts }));
  }

  async confirmationSent(id: string): Promise<void> {
    await this.context.db
      .updateTable('signups')
      .set({
        confirm_requested_at: null,
        confirm_sent_at: stamp(this.context),
        confirm_attempts: 0,
        confirm_error: null,
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * A temporary failure is tried again at `retryAt`; a permanent one (no `retryAt`) is not tried again.
   * `countAttempt: false` gives back the attempt the claim counted: the failure was not this person's
   * (the mail server refused our sign-in, or the email was never tried), so their back-off does not grow.
   * A retry never brings back a request withdrawn while it was being tried (the person left, turned
   * email off or confirmed meanwhile: each clears it).
   */
  async confirmationFailed(
    id: string,
    error: string,
    retryAt?: Date,
    { countAttempt = true }: { countAttempt?: boolean } = {},
  ): Promise<void> {
    await this.context.db
      .updateTable('signups')
      .set((eb) => ({
        confirm_requested_at: retryAt ? retryAt.toISOString() : null,
        confirm_error: error.slice(0, 500),
        ...(countAttempt
          ? {}
          : {
              confirm_attempts: eb
                .case()
                .when('confirm_attempts', '>', 0)
                .then(eb('confirm_attempts', '-', 1))
                .else(0)
                .end(),
            }),
      }))
      .where('id', '=', id)
      .$if(retryAt !== undefined, (query) => query.where('confirm_requested_at', 'is not', null))
      .execute();
  }

  /** A confirmation that was never sent: not due any more (the person left, or the address is suppressed). */
  async confirmationDropped(id: string, reason: string): Promise<void> {
    await this.confirmationFailed(id, reason);
  }

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
    let lastDueAt: Date | undefined;
    for (let index = 0; index < ids.length; index += perSecond) {
      lastDueAt = new Date(start.getTime() + (index / perSecond) * 1000);
      await this.context.db
        .updateTable('signups')
        .set({ confirm_requested_at: lastDueAt.toISOString() })
        .where('id', 'in', ids.slice(index, index + perSecond))
        // Asked meanwhile (a repeat sign-up), or left: not again.
        .where('confirm_requested_at', 'is', null)
        .where('confirm_sent_at', 'is', null)
        .where('left_at', 'is', null)
        .where('email_opt_out_at', 'is', null)
        .execute();
    }
    return { asked: ids.length, lastDueAt };
  }

  private neverAsked() {
    return (
      this.context.db
        .selectFrom('signups')
        .select('id')
        .where('confirmed_at', 'is', null)
        .where('left_at', 'is', null)
        // Email turned off: their "no" stands; we do not write to ask (issue 54).
        .where('email_opt_out_at', 'is', null)
        .where('confirm_requested_at', 'is', null)
        .where('confirm_sent_at', 'is', null)
    );
  }
}
