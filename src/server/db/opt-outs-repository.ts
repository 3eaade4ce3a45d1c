// Every change that stops or resumes messages to a person's addresses, each in one transaction with
// its consent event and its suppression: leaving, deleting (delete means delete), STOP and START, a
// provider's "cannot be reached" and the owner lifting it, a report's bounce or complaint, and an
// emailed link proving the mailbox. Written once with Kysely for both engines.
import { emitWebhookEvents } from './webhook-emit.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import { iso, isSignupId } from './column-types.js';
import type { ConsentKind, ConsentSource } from './consent-events.table.js';
import { recordConsentEvent } from './consent-events-repository.js';
import type { Database } from './database.js';
import { withdrawQueued } from './message-queue-repository.js';
import { stamp, type QueryContext } from './sql-dialect.js';
import { readSubscriber, type AddressHashes } from './subscribers-repository.js';
import {
  addSuppressions,
  liftOwnPhoneMarks,
  liftRowsById,
  liftSuppressions,
  type LiftedBy,
  type Suppression,
} from './suppressions-repository.js';
import { confirmNumber } from './joining-texts-repository.js';
import { forgetPeopleInMessages } from './forget-people.js';
import { eraseFromLog } from './erase-for-good.js';
import { OWN_REASONS, type AddressKind } from './suppressions.table.js';

type Db = Kysely<Database> | Transaction<Database>;

/** What the owner's log says of a person once they are deleted: that it was someone, and nothing more. */
export const DELETED_PERSON = 'a person, deleted';

/** A person's addresses as the suppression list may hold them: every key's hash (decision 041). */
export type OwnHashes = AddressHashes;

/**
 * Lifts the person's own "no" that an emailed link may lift: a leaving or deletion on their email,
 * and on their number only what their own leaving put there (rows made at the moment of one of this
 * record's "left" events). Returns how many entries went.
 */
async function liftOwnNo(trx: Db, id: string, hashes: OwnHashes, by: LiftedBy): Promise<number> {
  let lifted = hashes.email ? await liftSuppressions(trx, 'email', hashes.email, OWN_REASONS, by) : 0;
  lifted += await liftOwnPhoneMarks(trx, id, hashes.phone ?? [], 'left', 'left', by);
  return lifted;
}

export class OptOutsRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * The person acted on a page an emailed link opened, so the mailbox is theirs: their email is
   * confirmed (once), and the leaving or deletion they themselves asked for no longer holds on the
   * email. On the number, only the marks their own leaving made lift (the same record's "left" event,
   * at the same moment): a mailbox never proves a number, so another person's "no" on it, a STOP, a
   * bounce or a complaint stay. Each change is a consent event.
   */
  async provenByEmailedLink(
    id: string,
    hashes: OwnHashes,
    source: ConsentSource,
  ): Promise<{ confirmed: boolean; lifted: number }> {
    if (!isSignupId(id)) return { confirmed: false, lifted: 0 };
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      const confirmed = await trx
        .updateTable('signups')
        .set({ confirmed_at: at })
        .where('id', '=', id)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      if (Number(confirmed.numUpdatedRows) > 0) {
        await recordConsentEvent(trx, id, 'confirmed', source, at);
        await withdrawQueued(trx, 'confirmation', id, 'confirmed');
      }
      const lifted = await liftOwnNo(trx, id, hashes, { source, at });
      if (lifted > 0) await recordConsentEvent(trx, id, 'own_suppression_lifted', source, at);
      return { confirmed: Number(confirmed.numUpdatedRows) > 0, lifted };
    });
  }

  /**
   * The person pressed "come back" on a page an emailed link opened, after leaving or turning email
   * off: back on the list with email on (and confirmed: the mailbox is theirs), their own leaving or
   * deletion lifted on these addresses. Texts stay as they were: only their own page or START from the
   * number turns them on. False when there was nothing to undo.
   */
  async comeBack(id: string, hashes: OwnHashes, source: ConsentSource): Promise<boolean> {
    if (!isSignupId(id)) return false;
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('signups')
        .select(['confirmed_at', 'left_at', 'email_opt_out_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!current) return false;
      // Email turned off is kept by the address too (a record swept since, a new one typed): it lifts here.
      const emailOn = hashes.email
        ? await liftSuppressions(trx, 'email', hashes.email, ['email_off'], { source, at })
        : 0;
      if (current.left_at === null && current.email_opt_out_at === null && emailOn === 0) return false;
      await trx
        .updateTable('signups')
        .set({
          left_at: null,
          email_opt_out_at: null,
          confirmed_at: current.confirmed_at ?? at,
        })
        .where('id', '=', id)
        .execute();
      await withdrawQueued(trx, 'confirmation', id, 'came back');
      await recordConsentEvent(trx, id, 'came_back', source, at);
      if (!current.confirmed_at) await recordConsentEvent(trx, id, 'confirmed', source, at);
      await liftOwnNo(trx, id, hashes, { source, at });
      return true;
    });
  }

  /** Off the list: no email, no texts, and the addresses' hashes on the suppression list. */
  async leave(id: string, source: ConsentSource, suppressions: Suppression[]): Promise<boolean> {
    const current = await readSubscriber(this.context.db, id);
    if (!current) return false;
    if (current.leftAt !== null) return true;
    const at = stamp(this.context);
    await this.context.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('signups')
        .set({
          left_at: at,
          email_opt_out_at: current.emailOptOutAt ?? at,
          sms_opt_out_at: current.smsOptOutAt ?? at,
        })
        .where('id', '=', id)
        .execute();
      // A confirmation asked for before this "no" is withdrawn: it never becomes a "come back?" email.
      await withdrawQueued(trx, 'confirmation', id, 'left');
      await recordConsentEvent(trx, id, 'left', source, at);
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
    const at = stamp(this.context);
    const removed = await this.context.db.transaction().execute(async (trx) => {
      const person = await trx
        .selectFrom('signups')
        .select(['email', 'phone', 'language'])
        .where('id', '=', id)
        .executeTakeFirst();
      // Whoever joined through their link is no longer tied to them: their code leaves with them (decision 039).
      await trx
        .updateTable('signups')
        .set({ referred_by: null })
        .where('referred_by', 'in', trx.selectFrom('signups').select('referral_code').where('id', '=', id))
        .execute();
      // What they agreed to and when they said no outlives the record, by the address's hash alone
      // (the proof of consent: consent/consent-proof.ts), with the deletion's own line last.
      const history = await trx
        .selectFrom('consent_events')
        .select(['kind', 'source', 'consent_version', 'created_at', 'evidence'])
        .where('signup_id', '=', id)
        .orderBy('id')
        .execute();
      const kept = JSON.stringify({
        language: person?.language,
        lines: history.map((line) => ({
          kind: line.kind,
          source: line.source,
          consentVersion: line.consent_version,
          at: iso(line.created_at),
          evidence: line.evidence === null ? null : (JSON.parse(line.evidence) as unknown),
        })),
      });
      const deleted = await trx.deleteFrom('signups').where('id', '=', id).executeTakeFirst();
      if (!person || Number(deleted.numDeletedRows) === 0) return false;
      await trx.deleteFrom('consent_events').where('signup_id', '=', id).execute();
      // Everything else tied to them keeps its counts and loses the person (forget-people.ts).
      await forgetPeopleInMessages(trx, [id]);
      // The owner's log keeps that something was done, about "a person, deleted": no part of them.
      // Their email or whole number written in a line, matched literally (a typed % or _ is a letter,
      // not a wildcard), and a number only when it is one (7 digits or more): a made-up "+2026"
      // must not blank every line that holds a year.
      const digits = person.phone.replace(/\D/g, '');
      const literally = (text: string) => sql<string>`${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
      await trx
        .updateTable('owner_audit_log')
        .set({ subject: null, detail: DELETED_PERSON })
        .where((eb) =>
          eb.or([
            eb('subject', '=', id),
            eb(eb.fn('lower', ['detail']), 'like', sql<string>`${literally(person.email.toLowerCase())} escape '\\'`),
            ...(digits.length >= 7 ? [eb('detail', 'like', sql<string>`${literally(digits)} escape '\\'`)] : []),
          ]),
        )
        .execute();
      await addSuppressions(
        trx,
        suppressions.map((entry) => (entry.reason === 'deleted' ? { ...entry, history: kept } : entry)),
        at,
      );
      // The owner's other tools are told, by id alone, so they can delete the person too (issue 56).
      await emitWebhookEvents(trx, at, [
        { type: 'consent.changed', signupId: id, data: { signupId: id, channel: 'all', change: 'deleted' } },
      ]);
      // What their number texted us that nobody acted on goes too.
      const phones = suppressions.filter((entry) => entry.kind === 'phone').map((entry) => entry.hash);
      if (phones.length > 0) await trx.deleteFrom('sms_replies').where('phone_hash', 'in', phones).execute();
      return true;
    });
    if (removed) await eraseFromLog(this.context);
    return removed;
  }

  /** A STOP from this number: texts off for everyone who gave it, and the number on the suppression list. */
  async stopTexts(phones: string[], suppression: Suppression, evidence?: string): Promise<number> {
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      const people = phones.length === 0 ? [] : await this.setSmsOptOut(trx, phones, at);
      for (const { id } of people)
        await recordConsentEvent(trx, String(id), 'sms_off', suppression.source, at, evidence);
      await addSuppressions(trx, [suppression], at);
      return people.length;
    });
  }

  /** Keeps a mark by an address's hash that no consent change causes (the one "come back?" email went). */
  async remember(suppression: Suppression): Promise<void> {
    await addSuppressions(this.context.db, [suppression], stamp(this.context));
  }

  /**
   * A START from this number: texts on again for everyone on the list who gave it, the number's
   * suppression lifted, and the number proven (START is a yes).
   */
  async startTexts(
    phones: string[],
    hash: string | string[],
    source: ConsentSource,
    evidence?: string,
  ): Promise<number> {
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      const people = phones.length === 0 ? [] : await this.setSmsOptOut(trx, phones, null);
      for (const { id } of people) await recordConsentEvent(trx, String(id), 'sms_on', source, at, evidence);
      await liftSuppressions(trx, 'phone', hash, undefined, { source, at });
      for (const { id } of await confirmNumber(trx, phones, at))
        await recordConsentEvent(trx, id, 'sms_confirmed', source, at, evidence);
      return people.length;
    });
  }

  /**
   * A YES from this number: texts to it are proven wanted for everyone on the list who gave it (a
   * STOP or texts-off stays: YES is not START). Returns how many it confirmed.
   */
  async confirmTexts(phones: string[], source: ConsentSource, evidence?: string): Promise<number> {
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      const people = await confirmNumber(trx, phones, at);
      for (const { id } of people) await recordConsentEvent(trx, id, 'sms_confirmed', source, at, evidence);
      return people.length;
    });
  }

  /**
   * A provider said this person's address (email) or number (phone) cannot be reached: a consent
   * event on their history, and the address's hash suppressed (reason "undeliverable") so no later
   * message tries it. A later sign-up with the address lifts it, as it lifts a leaving.
   */
  async markUndeliverable(id: string, suppression: Suppression): Promise<void> {
    const at = stamp(this.context);
    await this.context.db.transaction().execute(async (trx) => {
      await addSuppressions(trx, [suppression], at);
      await recordConsentEvent(
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
    const at = stamp(this.context);
    await this.context.db.transaction().execute(async (trx) => {
      await addSuppressions(trx, [suppression], at);
      if (signupId && isSignupId(signupId)) {
        const found = await trx.selectFrom('signups').select('id').where('id', '=', signupId).executeTakeFirst();
        if (found) await recordConsentEvent(trx, signupId, event, suppression.source, at);
      }
    });
  }

  /**
   * The owner's way back (decision 037): these rows of the list lifted by id, each recorded on the
   * person's history when they are still here. Only the reasons the caller may lift are passed in.
   */
  async liftRows(rows: { id: number; kind: AddressKind; signupId: string | null }[]): Promise<number> {
    if (rows.length === 0) return 0;
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      const lifted = await liftRowsById(
        trx,
        rows.map((row) => row.id),
        { source: 'owner', at },
      );
      const people = new Map(rows.flatMap((row) => (row.signupId ? [[`${row.signupId} ${row.kind}`, row]] : [])));
      for (const row of people.values())
        await recordConsentEvent(
          trx,
          row.signupId!,
          row.kind === 'email' ? 'email_undeliverable_cleared' : 'sms_undeliverable_cleared',
          'owner',
          at,
        );
      return lifted;
    });
  }

  /** The owner's "that answer was wrong": the undeliverable mark on this hash lifted, recorded on the person's history. */
  async clearUndeliverable(id: string, kind: AddressKind, hash: string | string[]): Promise<void> {
    const at = stamp(this.context);
    await this.context.db.transaction().execute(async (trx) => {
      await liftSuppressions(trx, kind, hash, ['undeliverable'], { source: 'owner', at });
      await recordConsentEvent(
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
}
