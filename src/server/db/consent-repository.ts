// Consent, confirmation, opt-outs and the suppression list: written once with Kysely for both engines.
import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import { iso, isoOrNull, isSignupId, isTrue, type Engine } from './column-types.js';
import { OWN_REASONS, type AddressKind } from './suppressions.table.js';
import { type ConsentKind, type ConsentSource } from './consent-events.table.js';
import type { Database } from './database.js';
import { addSuppressions, liftSuppressions, type Suppression } from './suppressions-repository.js';

export interface ConsentEvent {
  kind: ConsentKind;
  source: ConsentSource;
  /** The consent text's version, for sign-ups. */
  consentVersion: string | null;
  /** ISO 8601, UTC. */
  at: string;
}

/** A sign-up as messaging sees it. Times are ISO 8601 in UTC, or null for "not yet" / "never". */
export interface Subscriber {
  id: string;
  name: string;
  email: string;
  phone: string;
  betaTesting: boolean;
  createdAt: string;
  /** The latest sign-up on the page: the latest consent given there. */
  lastSeenAt: string;
  consentVersion: string | null;
  confirmedAt: string | null;
  confirmationSentAt: string | null;
  /** Asked to confirm (a confirmation is due or was sent): sign-ups from before confirmation was on were never asked. */
  askedToConfirm: boolean;
  emailOptOutAt: string | null;
  smsOptOutAt: string | null;
  leftAt: string | null;
  /** A repeat sign-up asked for another phone number, waiting for the address on record to agree (decision 031). */
  phoneChange: { to: string; at: string; sentAt: string | null } | null;
}

/** What someone chose on the preferences page. */
export interface Preferences {
  email: boolean;
  sms: boolean;
  beta: boolean;
}

export function preferencesOf(subscriber: Subscriber): Preferences {
  return {
    email: subscriber.leftAt === null && subscriber.emailOptOutAt === null,
    sms: subscriber.leftAt === null && subscriber.smsOptOutAt === null,
    beta: subscriber.betaTesting,
  };
}

/** A confirmation email to send, claimed by one sender for a while (its lease). */
export interface ConfirmationJob {
  id: string;
  email: string;
  /** Attempts so far, this one included. */
  attempts: number;
}

type Db = Kysely<Database> | Transaction<Database>;

/** What the owner's log says of a person once they are deleted: that it was someone, and nothing more. */
export const DELETED_PERSON = 'a person, deleted';

const SUBSCRIBER_COLUMNS = [
  'id',
  'name',
  'email',
  'phone',
  'beta_testing',
  'created_at',
  'last_seen_at',
  'consent_version',
  'confirmed_at',
  'confirm_sent_at',
  'confirm_requested_at',
  'email_opt_out_at',
  'sms_opt_out_at',
  'left_at',
  'phone_change_to',
  'phone_change_at',
  'phone_change_sent_at',
] as const;

type SubscriberRow = Pick<Selectable<Database['signups']>, (typeof SUBSCRIBER_COLUMNS)[number]>;

function subscriberFrom(row: SubscriberRow): Subscriber {
  return {
    id: String(row.id),
    name: row.name,
    email: row.email,
    phone: row.phone,
    betaTesting: isTrue(row.beta_testing),
    createdAt: iso(row.created_at),
    lastSeenAt: iso(row.last_seen_at),
    consentVersion: row.consent_version,
    confirmedAt: isoOrNull(row.confirmed_at),
    confirmationSentAt: isoOrNull(row.confirm_sent_at),
    askedToConfirm: row.confirm_requested_at !== null || row.confirm_sent_at !== null,
    emailOptOutAt: isoOrNull(row.email_opt_out_at),
    smsOptOutAt: isoOrNull(row.sms_opt_out_at),
    leftAt: isoOrNull(row.left_at),
    phoneChange:
      row.phone_change_to !== null && row.phone_change_at !== null
        ? { to: row.phone_change_to, at: iso(row.phone_change_at), sentAt: isoOrNull(row.phone_change_sent_at) }
        : null,
  };
}

/** Clears a waiting phone number change. */
const NO_PHONE_CHANGE = {
  phone_change_to: null,
  phone_change_at: null,
  phone_change_sent_at: null,
  phone_change_claimed_at: null,
} as const;

/** How long a sender's claim on a phone change email holds before another may take it (one that died mid-send). */
export const PHONE_CHANGE_LEASE_MS = 5 * 60_000;

/**
 * Everything messaging reads and writes apart from the sign-up itself (which the engines' hand-tuned
 * group-commit paths write, confirmation request and consent event included). Times are written as
 * ISO 8601 text, which SQLite compares in order and PostgreSQL reads as timestamptz.
 */
export class ConsentRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
    /** The clock; the real one unless a test needs another day. */
    private readonly now: () => Date = () => new Date(),
  ) {}

  private bool(value: boolean): number | boolean {
    return this.engine === 'sqlite' ? (value ? 1 : 0) : value;
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  async subscriber(id: string): Promise<Subscriber | undefined> {
    if (!isSignupId(id)) return undefined;
    const row = await this.db.selectFrom('signups').select(SUBSCRIBER_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? subscriberFrom(row) : undefined;
  }

  async subscriberByEmailKey(emailKey: string): Promise<Subscriber | undefined> {
    const row = await this.db
      .selectFrom('signups')
      .select(SUBSCRIBER_COLUMNS)
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
    return row ? subscriberFrom(row) : undefined;
  }

  /** Everyone who gave one of these numbers (the forms one number may have been typed in). */
  async subscribersByPhone(phones: string[]): Promise<Subscriber[]> {
    if (phones.length === 0) return [];
    const rows = await this.db
      .selectFrom('signups')
      .select(SUBSCRIBER_COLUMNS)
      .where('phone', 'in', phones)
      .orderBy('created_at')
      .execute();
    return rows.map(subscriberFrom);
  }

  /**
   * People whose email contains `query` (any capitals), or whose phone number contains its digits
   * (four or more: +1 555-123-4567 is found by "1234567" or "555 123"), newest first, at most `limit`.
   */
  async search(query: string, limit: number): Promise<Subscriber[]> {
    const text = query.trim().toLowerCase();
    const digits = text.replace(/\D/g, '');
    // The user's % and _ are letters to find, not wildcards.
    const like = (value: string) => `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    const rows = await this.db
      .selectFrom('signups')
      .select(SUBSCRIBER_COLUMNS)
      .where((eb) =>
        eb.or([
          ...(text.length > 0 ? [eb(sql`email_key`, 'like', sql`${like(text)} escape '\\'`)] : []),
          ...(digits.length >= 4 ? [eb(sql`phone`, 'like', like(digits))] : []),
        ]),
      )
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map(subscriberFrom);
  }

  /** Every change of this person's consent, oldest first. */
  async history(id: string): Promise<ConsentEvent[]> {
    if (!isSignupId(id)) return [];
    const rows = await this.db
      .selectFrom('consent_events')
      .select(['kind', 'source', 'consent_version', 'created_at'])
      .where('signup_id', '=', id)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      source: row.source,
      consentVersion: row.consent_version,
      at: iso(row.created_at),
    }));
  }

  /** Marks the sign-up confirmed (once); its pending confirmation email is no longer needed. */
  async confirm(id: string, source: ConsentSource = 'confirm_page'): Promise<'confirmed' | 'already' | 'missing'> {
    if (!isSignupId(id)) return 'missing';
    const at = this.stamp();
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('signups')
        .set({ confirmed_at: at, confirm_requested_at: null })
        .where('id', '=', id)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        const exists = await trx.selectFrom('signups').select('id').where('id', '=', id).executeTakeFirst();
        return exists ? 'already' : 'missing';
      }
      await this.record(trx, id, 'confirmed', source, at);
      return 'confirmed';
    });
  }

  /**
   * Applies the choices that differ from what is stored, records each change, and returns the
   * person as they are now (undefined if there is no such sign-up). Turning a channel on again
   * after leaving brings the person back onto the list.
   */
  async updatePreferences(
    id: string,
    wanted: Partial<Preferences>,
    source: ConsentSource,
  ): Promise<Subscriber | undefined> {
    const current = await this.subscriber(id);
    if (!current) return undefined;
    const at = this.stamp();
    const now = preferencesOf(current);
    const changes: ConsentKind[] = [];
    const set: Updateable<Database['signups']> = {};
    if (wanted.email !== undefined && wanted.email !== now.email) {
      set.email_opt_out_at = wanted.email ? null : at;
      changes.push(wanted.email ? 'email_on' : 'email_off');
    }
    if (wanted.sms !== undefined && wanted.sms !== now.sms) {
      set.sms_opt_out_at = wanted.sms ? null : at;
      changes.push(wanted.sms ? 'sms_on' : 'sms_off');
    }
    if (wanted.beta !== undefined && wanted.beta !== now.beta) {
      set.beta_testing = this.bool(wanted.beta);
      changes.push(wanted.beta ? 'beta_on' : 'beta_off');
    }
    if (changes.length === 0) return current;
    if (current.leftAt !== null && (wanted.email || wanted.sms)) {
      // Back on the list: the channel not asked for stays off.
      set.left_at = null;
      if (set.email_opt_out_at === undefined) set.email_opt_out_at = current.emailOptOutAt ?? at;
      if (set.sms_opt_out_at === undefined) set.sms_opt_out_at = current.smsOptOutAt ?? at;
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('signups').set(set).where('id', '=', id).execute();
      for (const kind of changes) await this.record(trx, id, kind, source, at);
    });
    return this.subscriber(id);
  }

  /**
   * The person acted on a page an emailed link opened, so the mailbox is theirs: their email is
   * confirmed (once), and the leaving or deletion they themselves asked for no longer holds on these
   * addresses. A bounce, a complaint, an undeliverable mark and a STOP stay: only the phone's START
   * lifts a STOP. Each change is a consent event.
   */
  async provenByEmailedLink(
    id: string,
    addresses: { kind: AddressKind; hash: string }[],
    source: ConsentSource,
  ): Promise<{ confirmed: boolean; lifted: number }> {
    if (!isSignupId(id)) return { confirmed: false, lifted: 0 };
    const at = this.stamp();
    return this.db.transaction().execute(async (trx) => {
      const confirmed = await trx
        .updateTable('signups')
        .set({ confirmed_at: at, confirm_requested_at: null })
        .where('id', '=', id)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      if (Number(confirmed.numUpdatedRows) > 0) await this.record(trx, id, 'confirmed', source, at);
      let lifted = 0;
      for (const address of addresses) lifted += await liftSuppressions(trx, address.kind, address.hash, OWN_REASONS);
      if (lifted > 0) await this.record(trx, id, 'own_suppression_lifted', source, at);
      return { confirmed: Number(confirmed.numUpdatedRows) > 0, lifted };
    });
  }

  /**
   * The person (their own page, or the button in the email a repeat sign-up sent) or the owner
   * changed their name or phone number: each change is a consent event, and a new number drops any
   * change still waiting. `phone` is as the sign-up form leaves it (separators removed).
   */
  async changeDetails(
    id: string,
    wanted: { name?: string; phone?: string },
    source: ConsentSource,
  ): Promise<Subscriber | undefined> {
    const current = await this.subscriber(id);
    if (!current) return undefined;
    const set: Updateable<Database['signups']> = {};
    const changes: ConsentKind[] = [];
    if (wanted.name !== undefined && wanted.name !== current.name) {
      set.name = wanted.name;
      changes.push('name_changed');
    }
    if (wanted.phone !== undefined && wanted.phone !== current.phone) {
      Object.assign(set, { phone: wanted.phone, ...NO_PHONE_CHANGE });
      changes.push('phone_changed');
    }
    if (changes.length === 0) return current;
    const at = this.stamp();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('signups').set(set).where('id', '=', id).execute();
      for (const kind of changes) await this.record(trx, id, kind, source, at);
    });
    return this.subscriber(id);
  }

  /**
   * Claims up to `limit` waiting phone number changes asked for after `askedAfter` whose email has
   * not gone out and that no sender holds (a claim older than PHONE_CHANGE_LEASE_MS is a sender that
   * died): each is held now; phoneChangeSent or phoneChangeNotSent ends the claim.
   */
  async claimPhoneChanges(limit: number, askedAfter: Date): Promise<string[]> {
    const leaseEnded = new Date(this.now().getTime() - PHONE_CHANGE_LEASE_MS).toISOString();
    const free = (eb: ExpressionBuilder<Database, 'signups'>) =>
      eb.or([eb('phone_change_claimed_at', 'is', null), eb('phone_change_claimed_at', '<', leaseEnded)]);
    const due = this.db
      .selectFrom('signups')
      .select('id')
      .where('phone_change_to', 'is not', null)
      .where('phone_change_sent_at', 'is', null)
      .where('phone_change_at', '>=', askedAfter.toISOString())
      .where(free)
      .orderBy('phone_change_at')
      .limit(limit)
      .$if(this.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    const rows = await this.db
      .updateTable('signups')
      .set({ phone_change_claimed_at: this.stamp() })
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
    const marked = await this.db
      .updateTable('signups')
      .set({ phone_change_sent_at: this.stamp(), phone_change_claimed_at: null })
      .where('id', '=', id)
      .where('phone_change_to', '=', to)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) await this.phoneChangeNotSent(id);
  }

  /** The email asking could not go out for a reason of ours: the claim ends, a later run tries again. */
  async phoneChangeNotSent(id: string): Promise<void> {
    if (!isSignupId(id)) return;
    await this.db.updateTable('signups').set({ phone_change_claimed_at: null }).where('id', '=', id).execute();
  }

  /** Forgets a waiting phone number change (nothing to ask, or the owner saw to it). */
  async dropPhoneChange(id: string): Promise<void> {
    if (!isSignupId(id)) return;
    await this.db.updateTable('signups').set(NO_PHONE_CHANGE).where('id', '=', id).execute();
  }

  /** Forgets every phone number change asked for before `before`: its button no longer works, and the number is not kept. */
  async dropStalePhoneChanges(before: Date): Promise<number> {
    const dropped = await this.db
      .updateTable('signups')
      .set(NO_PHONE_CHANGE)
      .where('phone_change_at', '<', before.toISOString())
      .executeTakeFirst();
    return Number(dropped.numUpdatedRows);
  }

  /** Off the list: no email, no texts, and the addresses' hashes on the suppression list. */
  async leave(id: string, source: ConsentSource, suppressions: Suppression[]): Promise<boolean> {
    const current = await this.subscriber(id);
    if (!current) return false;
    if (current.leftAt !== null) return true;
    const at = this.stamp();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('signups')
        .set({
          left_at: at,
          email_opt_out_at: current.emailOptOutAt ?? at,
          sms_opt_out_at: current.smsOptOutAt ?? at,
          confirm_requested_at: null,
        })
        .where('id', '=', id)
        .execute();
      await this.record(trx, id, 'left', source, at);
      await addSuppressions(trx, suppressions, at);
    });
    return true;
  }

  /**
   * Deletes the sign-up and its consent history, keeping only the suppression hashes (which record
   * when and how the deletion was asked for, and nothing else).
   */
  async remove(id: string, suppressions: Suppression[]): Promise<boolean> {
    if (!isSignupId(id)) return false;
    const at = this.stamp();
    return this.db.transaction().execute(async (trx) => {
      const person = await trx.selectFrom('signups').select(['email', 'phone']).where('id', '=', id).executeTakeFirst();
      const deleted = await trx.deleteFrom('signups').where('id', '=', id).executeTakeFirst();
      if (!person || Number(deleted.numDeletedRows) === 0) return false;
      await trx.deleteFrom('consent_events').where('signup_id', '=', id).execute();
      // Everything else tied to them keeps its counts and loses the person (docs/messaging.md,
      // "Each person's own data"): a broadcast's rows name a random id that leads nowhere, with no
      // provider id or answer; the message log keeps each message's state, nothing that names them.
      await trx
        .updateTable('broadcast_messages')
        .set({ signup_id: randomUUID(), provider_id: null, error: null })
        .where('signup_id', '=', id)
        .execute();
      await trx
        .updateTable('sent_messages')
        .set({ signup_id: null, address_hash: null, provider_id: null, message_id: null })
        .where('signup_id', '=', id)
        .execute();
      // The owner's log keeps that something was done, about "a person, deleted": no part of them.
      const digits = person.phone.replace(/\D/g, '');
      await trx
        .updateTable('owner_audit_log')
        .set({ subject: null, detail: DELETED_PERSON })
        .where((eb) =>
          eb.or([
            eb('subject', '=', id),
            eb(eb.fn('lower', ['detail']), 'like', `%${person.email.toLowerCase()}%`),
            ...(digits.length >= 4 ? [eb('detail', 'like', `%${digits}%`)] : []),
          ]),
        )
        .execute();
      await addSuppressions(trx, suppressions, at);
      return true;
    });
  }

  /** A STOP from this number: texts off for everyone who gave it, and the number on the suppression list. */
  async stopTexts(phones: string[], suppression: Suppression): Promise<number> {
    const at = this.stamp();
    return this.db.transaction().execute(async (trx) => {
      const people = phones.length === 0 ? [] : await this.setSmsOptOut(trx, phones, at);
      for (const { id } of people) await this.record(trx, String(id), 'sms_off', suppression.source, at);
      await addSuppressions(trx, [suppression], at);
      return people.length;
    });
  }

  /** A START from this number: texts on again for everyone on the list who gave it, and the suppression lifted. */
  async startTexts(phones: string[], hash: string, source: ConsentSource): Promise<number> {
    const at = this.stamp();
    return this.db.transaction().execute(async (trx) => {
      const people = phones.length === 0 ? [] : await this.setSmsOptOut(trx, phones, null);
      for (const { id } of people) await this.record(trx, String(id), 'sms_on', source, at);
      await liftSuppressions(trx, 'phone', hash);
      return people.length;
    });
  }

  /**
   * A provider said this person's address (email) or number (phone) cannot be reached: a consent
   * event on their history, and the address's hash suppressed (reason "undeliverable") so no later
   * message tries it. A later sign-up with the address lifts it, as it lifts a leaving.
   */
  async markUndeliverable(id: string, suppression: Suppression): Promise<void> {
    const at = this.stamp();
    await this.db.transaction().execute(async (trx) => {
      await addSuppressions(trx, [suppression], at);
      await this.record(
        trx,
        id,
        suppression.kind === 'email' ? 'email_undeliverable' : 'sms_undeliverable',
        suppression.source,
        at,
      );
    });
  }

  /**
   * A report after the send (a bounce, a complaint, a dead number): the address's hash suppressed for
   * `suppression.reason`, and the event on the person's history when they are still here (a report
   * about someone since deleted still suppresses the address: it is all we keep).
   */
  async suppressByReport(signupId: string | null, suppression: Suppression, event: ConsentKind): Promise<void> {
    const at = this.stamp();
    await this.db.transaction().execute(async (trx) => {
      await addSuppressions(trx, [suppression], at);
      if (signupId && isSignupId(signupId)) {
        const found = await trx.selectFrom('signups').select('id').where('id', '=', signupId).executeTakeFirst();
        if (found) await this.record(trx, signupId, event, suppression.source, at);
      }
    });
  }

  /** The owner's "that answer was wrong": the undeliverable mark on this hash lifted, recorded on the person's history. */
  async clearUndeliverable(id: string, kind: AddressKind, hash: string): Promise<void> {
    const at = this.stamp();
    await this.db.transaction().execute(async (trx) => {
      await liftSuppressions(trx, kind, hash, ['undeliverable']);
      await this.record(
        trx,
        id,
        kind === 'email' ? 'email_undeliverable_cleared' : 'sms_undeliverable_cleared',
        'owner',
        at,
      );
    });
  }

  /**
   * Turns texts off (`at`) or back on (null, for those still on the list) for these numbers; returns
   * whom it changed. One UPDATE … RETURNING, not a read then a write: the rows it changed are exactly
   * the ones to record, even when the same STOP arrives twice at once (on PostgreSQL the second waits
   * for the first's row locks and then finds nothing to change), and on SQLite the transaction takes
   * the write lock at its first statement (a transaction that reads first fails with
   * SQLITE_BUSY_SNAPSHOT when the writer thread commits a sign-up in between).
   */
  private setSmsOptOut(trx: Db, phones: string[], at: string | null): Promise<{ id: string }[]> {
    return trx
      .updateTable('signups')
      .set({ sms_opt_out_at: at })
      .where('phone', 'in', phones)
      .$if(at !== null, (query) => query.where('sms_opt_out_at', 'is', null))
      .$if(at === null, (query) => query.where('sms_opt_out_at', 'is not', null).where('left_at', 'is', null))
      .returning('id')
      .execute();
  }

  /**
   * Takes up to `limit` confirmation emails that are due, for this sender alone: their due time
   * moves to `leaseMs` from now, so another sender (or this one after a crash) takes them only once
   * the lease has run out. On PostgreSQL, rows another sender is claiming are skipped, not waited for.
   */
  async claimConfirmations(limit: number, leaseMs: number): Promise<ConfirmationJob[]> {
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const due = this.db
      .selectFrom('signups')
      .select('id')
      .where('confirm_requested_at', 'is not', null)
      .where('confirm_requested_at', '<=', now.toISOString())
      .where('confirmed_at', 'is', null)
      .orderBy('confirm_requested_at')
      .limit(limit)
      .$if(this.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    const rows = await this.db
      .updateTable('signups')
      .set((eb) => ({ confirm_requested_at: leaseUntil, confirm_attempts: eb('confirm_attempts', '+', 1) }))
      .where('id', 'in', due)
      .returning(['id', 'email', 'confirm_attempts'])
      .execute();
    return rows.map((row) => ({ id: String(row.id), email: row.email, attempts: row.confirm_attempts }));
  }

  async confirmationSent(id: string): Promise<void> {
    await this.db
      .updateTable('signups')
      .set({ confirm_requested_at: null, confirm_sent_at: this.stamp(), confirm_attempts: 0, confirm_error: null })
      .where('id', '=', id)
      .execute();
  }

  /**
   * A temporary failure is tried again at `retryAt`; a permanent one (no `retryAt`) is not tried again.
   * `countAttempt: false` gives back the attempt the claim counted: the failure was not this person's
   * (the mail server refused our sign-in, or the email was never tried), so their back-off does not grow.
   */
  async confirmationFailed(
    id: string,
    error: string,
    retryAt?: Date,
    { countAttempt = true }: { countAttempt?: boolean } = {},
  ): Promise<void> {
    await this.db
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
      .execute();
  }

  /** A confirmation that was never sent: not due any more (the person left, or the address is suppressed). */
  async confirmationDropped(id: string, reason: string): Promise<void> {
    await this.confirmationFailed(id, reason);
  }

  /**
   * Claims up to `limit` unconfirmed sign-ups whose confirmation email went out before `sentBefore`
   * and that were never reminded: each is marked reminded now, so no one gets a second reminder,
   * whatever happens next (a failure of ours gives it back with reminderNotSent).
   */
  async claimReminders(limit: number, sentBefore: Date): Promise<{ id: string; email: string }[]> {
    const due = this.db
      .selectFrom('signups')
      .select('id')
      .where('confirmed_at', 'is', null)
      .where('left_at', 'is', null)
      .where('confirm_reminded_at', 'is', null)
      .where('confirm_sent_at', 'is not', null)
      .where('confirm_sent_at', '<=', sentBefore.toISOString())
      .orderBy('confirm_sent_at')
      .limit(limit)
      .$if(this.engine === 'postgres', (query) => query.forUpdate().skipLocked());
    const rows = await this.db
      .updateTable('signups')
      .set({ confirm_reminded_at: this.stamp() })
      .where('id', 'in', due)
      .where('confirm_reminded_at', 'is', null)
      .returning(['id', 'email'])
      .execute();
    return rows.map((row) => ({ id: String(row.id), email: row.email }));
  }

  /** The reminder could not go out for a reason of ours: a later sweep tries again. */
  async reminderNotSent(id: string): Promise<void> {
    if (!isSignupId(id)) return;
    await this.db.updateTable('signups').set({ confirm_reminded_at: null }).where('id', '=', id).execute();
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
    return this.db.transaction().execute(async (trx) => {
      const stale = trx
        .selectFrom('signups')
        .select('id')
        .where('confirmed_at', 'is', null)
        .where('confirm_sent_at', '<', cutoff)
        .where('last_seen_at', '<', cutoff);
      await trx.deleteFrom('consent_events').where('signup_id', 'in', stale).execute();
      const deleted = await trx
        .deleteFrom('signups')
        .where('confirmed_at', 'is', null)
        .where('confirm_sent_at', '<', cutoff)
        .where('last_seen_at', '<', cutoff)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
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
      await this.db
        .updateTable('signups')
        .set({ confirm_requested_at: lastDueAt.toISOString() })
        .where('id', 'in', ids.slice(index, index + perSecond))
        // Asked meanwhile (a repeat sign-up), or left: not again.
        .where('confirm_requested_at', 'is', null)
        .where('confirm_sent_at', 'is', null)
        .where('left_at', 'is', null)
        .execute();
    }
    return { asked: ids.length, lastDueAt };
  }

  private neverAsked() {
    return this.db
      .selectFrom('signups')
      .select('id')
      .where('confirmed_at', 'is', null)
      .where('left_at', 'is', null)
      .where('confirm_requested_at', 'is', null)
      .where('confirm_sent_at', 'is', null);
  }

  private async record(trx: Db, id: string, kind: ConsentKind, source: ConsentSource, at: string): Promise<void> {
    await trx
      .insertInto('consent_events')
      .values({ signup_id: id, kind, source, consent_version: null, created_at: at })
      .execute();
  }
}
