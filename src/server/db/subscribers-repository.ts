// The people on the list as messaging reads them, and the changes of their say that keep them on it:
// written once with Kysely for both engines.
import type { Language } from '../../shared/languages.js';
import { sql, type ExpressionBuilder, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import { addSuppressions, liftOwnPhoneMarks, liftSuppressions, type Suppression } from './suppressions-repository.js';
import { iso, isoOrNull, isSignupId, isTrue } from './column-types.js';
import type { ConsentKind, ConsentSource } from './consent-events.table.js';
import { recordConsentEvent } from './consent-events-repository.js';
import type { Database } from './database.js';
import { NO_PHONE_CHANGE } from './phone-change-queue-repository.js';
import { NEW_NUMBER_UNPROVEN } from './joining-texts-repository.js';
import { flag, stamp, type QueryContext } from './sql-dialect.js';
import { messageStanding, type ConfirmationFacts } from './signup-row.js';
import { confirmationColumns, withdrawQueued } from './message-queue-repository.js';

/** A person's addresses as the suppression list keys them: every key's hash, SECRET_KEY's first. */
export interface AddressHashes {
  email?: string[] | undefined;
  phone?: string[] | undefined;
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
  /**
   * A confirmation email (or the one "come back?") is waiting to go, or being sent. A "no" (leaving,
   * email off) withdraws it; a request the person's "no" withdrew is never sent (decision 041).
   */
  confirmationWaiting: boolean;
  /** Asked to confirm (signup-row.ts says when). */
  askedToConfirm: boolean;
  emailOptOutAt: string | null;
  smsOptOutAt: string | null;
  leftAt: string | null;
  /** The number replied YES (or START) to a text from us (decision 041). */
  smsConfirmedAt: string | null;
  /** The joining text ("Reply YES to confirm…") went to the number. */
  joiningTextSentAt: string | null;
  /** A repeat sign-up asked for another phone number, waiting for the address on record to agree (decision 031). */
  phoneChange: { to: string; at: string; sentAt: string | null } | null;
  /** Their own link's code (SITE_URL/?ref=CODE), for "Tell a family member". */
  referralCode: string | null;
  /** The language every message to them goes in (the page they signed up on; the owner may change it). */
  language: Language;
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
  'email_opt_out_at',
  'sms_opt_out_at',
  'left_at',
  'phone_change_to',
  'phone_change_at',
  'phone_change_sent_at',
  'referral_code',
  'sms_confirmed_at',
  'joining_text_sent_at',
  'language',
] as const;

type SubscriberRow = Pick<Selectable<Database['signups']>, (typeof SUBSCRIBER_COLUMNS)[number]> & ConfirmationFacts;

/** The record's columns, and what the outbox says of its confirmation email. */
const subscriberColumns = (eb: ExpressionBuilder<Database, 'signups'>) => [
  ...SUBSCRIBER_COLUMNS,
  ...confirmationColumns(eb),
];

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
    confirmationSentAt: isoOrNull(row.confirm_sent_at),
    confirmationWaiting: isTrue(row.confirmation_waiting),
    ...messageStanding(row),
    phoneChange:
      row.phone_change_to !== null && row.phone_change_at !== null
        ? { to: row.phone_change_to, at: iso(row.phone_change_at), sentAt: isoOrNull(row.phone_change_sent_at) }
        : null,
    referralCode: row.referral_code,
    language: row.language,
  };
}

/** One person's record, or undefined (also for an id that is not one of ours). */
export async function readSubscriber(db: Kysely<Database>, id: string): Promise<Subscriber | undefined> {
  if (!isSignupId(id)) return undefined;
  const row = await db.selectFrom('signups').select(subscriberColumns).where('id', '=', id).executeTakeFirst();
  return row ? subscriberFrom(row) : undefined;
}

/**
 * The people on the list as messaging reads them, and the changes of their say that keep them on it:
 * confirming, their preferences, their name and phone number (each with its consent event). Leaving,
 * deleting and STOP are opt-outs-repository.ts's; the sign-up itself is written by the engines'
 * hand-tuned group-commit paths.
 */
export class SubscribersRepository {
  constructor(private readonly context: QueryContext) {}

  subscriber(id: string): Promise<Subscriber | undefined> {
    return readSubscriber(this.context.db, id);
  }

  async subscriberByEmailKey(emailKey: string): Promise<Subscriber | undefined> {
    const row = await this.context.db
      .selectFrom('signups')
      .select(subscriberColumns)
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
    return row ? subscriberFrom(row) : undefined;
  }

  /** Everyone who gave one of these numbers (the forms one number may have been typed in). */
  async subscribersByPhone(phones: string[]): Promise<Subscriber[]> {
    if (phones.length === 0) return [];
    const rows = await this.context.db
      .selectFrom('signups')
      .select(subscriberColumns)
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
    const rows = await this.context.db
      .selectFrom('signups')
      .select(subscriberColumns)
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

  /** Marks the sign-up confirmed (once); its pending confirmation email is no longer needed. */
  async confirm(id: string, source: ConsentSource = 'confirm_page'): Promise<'confirmed' | 'already' | 'missing'> {
    if (!isSignupId(id)) return 'missing';
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('signups')
        .set({ confirmed_at: at })
        .where('id', '=', id)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        const exists = await trx.selectFrom('signups').select('id').where('id', '=', id).executeTakeFirst();
        return exists ? 'already' : 'missing';
      }
      await recordConsentEvent(trx, id, 'confirmed', source, at);
      await withdrawQueued(trx, 'confirmation', id, 'confirmed');
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
    hashes: AddressHashes = {},
  ): Promise<Subscriber | undefined> {
    const current = await readSubscriber(this.context.db, id);
    if (!current) return undefined;
    const at = stamp(this.context);
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
      set.beta_testing = flag(this.context, wanted.beta);
      changes.push(wanted.beta ? 'beta_on' : 'beta_off');
    }
    // Nothing changed on the row, and no "off" kept by an address to lift: nothing to do.
    const mayLift =
      (wanted.email === true && Boolean(hashes.email?.length)) ||
      (wanted.sms === true && Boolean(hashes.phone?.length));
    if (changes.length === 0 && !mayLift) return current;
    if (current.leftAt !== null && (wanted.email || wanted.sms)) {
      // Back on the list: the channel not asked for stays off.
      set.left_at = null;
      if (set.email_opt_out_at === undefined) set.email_opt_out_at = current.emailOptOutAt ?? at;
      if (set.sms_opt_out_at === undefined) set.sms_opt_out_at = current.smsOptOutAt ?? at;
    }
    await this.context.db.transaction().execute(async (trx) => {
      if (Object.keys(set).length > 0) await trx.updateTable('signups').set(set).where('id', '=', id).execute();
      // Email off withdraws a confirmation email still waiting: it asked before this "no".
      if (wanted.email === false && changes.includes('email_off'))
        await withdrawQueued(trx, 'confirmation', id, 'email turned off');
      for (const kind of changes) await recordConsentEvent(trx, id, kind, source, at);
      await keepChannelNoes(trx, id, { changes, wanted }, hashes, source, at);
    });
    return this.subscriber(id);
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
    const current = await readSubscriber(this.context.db, id);
    if (!current) return undefined;
    const set: Updateable<Database['signups']> = {};
    const changes: ConsentKind[] = [];
    if (wanted.name !== undefined && wanted.name !== current.name) {
      set.name = wanted.name;
      changes.push('name_changed');
    }
    if (wanted.phone !== undefined && wanted.phone !== current.phone) {
      // A new number is unproven: it gets its own joining text and needs its own YES.
      Object.assign(set, { phone: wanted.phone, ...NO_PHONE_CHANGE, ...NEW_NUMBER_UNPROVEN });
      changes.push('phone_changed');
    }
    if (changes.length === 0) return current;
    const at = stamp(this.context);
    await this.context.db.transaction().execute(async (trx) => {
      await trx.updateTable('signups').set(set).where('id', '=', id).execute();
      for (const kind of changes) await recordConsentEvent(trx, id, kind, source, at);
    });
    return this.subscriber(id);
  }

  /**
   * The owner changed the language their messages go in (issue 45). Not a consent: the owner's audit
   * log records it. Undefined when nobody has this id.
   */
  async changeLanguage(id: string, language: Language): Promise<Subscriber | undefined> {
    if (!isSignupId(id)) return undefined;
    await this.context.db.updateTable('signups').set({ language }).where('id', '=', id).execute();
    return this.subscriber(id);
  }
}

/**
 * A channel turned off is kept by the address's hash too (SECRET_KEY's: the first of `hashes`), so it
 * outlives the row (a sweep, a deletion) and holds for every record that gives the address (a
 * stranger typing the number). Turned on again, the person's own "off" lifts: on the email, any (the
 * page's link proves the mailbox); on the number, only the marks this record's own "off"s made (another
 * person's "no" on a shared number stays). Issue 54.
 */
async function keepChannelNoes(
  trx: Transaction<Database>,
  id: string,
  { changes, wanted }: { changes: ConsentKind[]; wanted: Partial<Preferences> },
  hashes: AddressHashes,
  source: ConsentSource,
  at: string,
): Promise<void> {
  const [email] = hashes.email ?? [];
  const [phone] = hashes.phone ?? [];
  const noes: Suppression[] = [
    ...(changes.includes('email_off') && email
      ? [{ kind: 'email' as const, hash: email, reason: 'email_off' as const, source }]
      : []),
    ...(changes.includes('sms_off') && phone
      ? [{ kind: 'phone' as const, hash: phone, reason: 'sms_off' as const, source }]
      : []),
  ];
  await addSuppressions(trx, noes, at);
  // Asked on (a changed choice, or one the row already had while the address kept an "off": a record
  // swept and typed again), so that what the page then says is what the rule does.
  const by = { source, at };
  if (wanted.email === true && hashes.email) await liftSuppressions(trx, 'email', hashes.email, ['email_off'], by);
  if (wanted.sms === true) await liftOwnPhoneMarks(trx, id, hashes.phone ?? [], 'sms_off', 'sms_off', by);
}
