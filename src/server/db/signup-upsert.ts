// The sign-up upsert's rules, written once: what a repeat sign-up changes, when it asks for a
// confirmation email, and the consent history's line. Each engine's writer builds its statement
// from these with a small dialect object (below; sqlite-shared.ts and postgres-signup-writer.ts use
// them). No Kysely here: SQLite's writer thread loads this file and should start quickly.

/** How the engines spell the few things the rules need. */
export interface UpsertDialect {
  /** A column of the stored row as it was before this update. */
  stored(column: string): string;
  /** A column of the incoming sign-up. */
  incoming(column: string): string;
  /** The moment of this sign-up. */
  now: string;
  /** One day before it. */
  dayBefore: string;
}

/** In SQLite's DO UPDATE a bare column is the stored row's value before this update. */
export const sqliteUpsert: UpsertDialect = {
  stored: (column) => column,
  incoming: (column) => `excluded.${column}`,
  now: 'excluded.last_seen_at',
  dayBefore: `strftime('%Y-%m-%dT%H:%M:%fZ', excluded.last_seen_at, '-1 day')`,
};

/** created_at and last_seen_at are PostgreSQL's clock (spec section 3). */
export const postgresUpsert: UpsertDialect = {
  stored: (column) => `signups.${column}`,
  incoming: (column) => `excluded.${column}`,
  now: 'now()',
  dayBefore: `now() - interval '1 day'`,
};

/**
 * One statement for new and repeated emails alike (the first record is kept), so both take the same
 * path and time. Anyone can type an address, so a repeat sign-up speaks for nobody: it never lifts a
 * leaving, an email opt-out or texts-off, never clears a confirmation, and never changes the beta
 * wish (the person does those on their own page, or by the emailed button; decision 041). What it
 * may do:
 * - count the visit (last_seen_at, signup_count);
 * - ask the address on record about a different phone number, for someone still on the list
 *   (decision 031; one such email a day at most);
 * - and, in a statement after it (asksToConfirm), ask for a confirmation email.
 */
export function onRepeatSignup(d: UpsertDialect): string {
  const stored = d.stored;
  const saidNo = `(${stored('left_at')} IS NOT NULL OR ${stored('email_opt_out_at')} IS NOT NULL)`;
  // Another phone number: kept aside, and the address on record asked to press a button before it
  // replaces the one they gave (decision 031). The same number again drops an earlier request. While
  // an email asking went out in the last day, a new number is not kept, and that email's time stays
  // even when a request is dropped (one such email a day at most, whatever order numbers come in).
  // Someone who said no is not asked about numbers at all.
  const samePhone = `${d.incoming('phone')} = ${stored('phone')}`;
  const askedToday = `${stored('phone_change_sent_at')} IS NOT NULL AND ${stored('phone_change_sent_at')} >= ${d.dayBefore}`;
  const phoneChange = (column: string, asked: string) =>
    `CASE WHEN ${saidNo} THEN ${stored(column)} WHEN ${samePhone} THEN NULL WHEN ${askedToday} THEN ${stored(column)} ELSE ${asked} END`;
  return `ON CONFLICT (email_key) DO UPDATE SET
    phone_change_to = ${phoneChange('phone_change_to', d.incoming('phone'))},
    phone_change_at = ${phoneChange('phone_change_at', d.now)},
    phone_change_sent_at = CASE WHEN ${saidNo} OR ${askedToday} THEN ${stored('phone_change_sent_at')} END,
    last_seen_at = ${d.now},
    signup_count = ${stored('signup_count')} + 1`;
}

/** How the engines name the sign-up's row once stored, and its moment, for asksToConfirm. */
export interface AskDialect {
  /** A column of the stored row (none of the columns read here is changed by a repeat sign-up). */
  row(column: string): string;
  /** One day before this sign-up. */
  dayBefore: string;
}

/**
 * Whether this sign-up asks for a confirmation email (queued in the outbox, decision 052; asked only
 * when confirmation is on): for someone unconfirmed, unless one went out in the last day; for
 * someone who left or turned email off, the one "come back?" email, unless one already went after
 * their latest "no" (consent/confirmation-mailer.ts sends which one the record calls for); an email
 * stamped the same instant as the "no" went before it, not after. One already waiting is kept as it
 * is (the outbox holds one live confirmation per person).
 */
export function asksToConfirm(d: AskDialect): string {
  const row = d.row;
  const saidNo = `(${row('left_at')} IS NOT NULL OR ${row('email_opt_out_at')} IS NOT NULL)`;
  // Their latest "no": leaving sets email_opt_out_at too (to the leaving's time unless earlier).
  const latestNo = `CASE
      WHEN ${row('left_at')} IS NULL THEN ${row('email_opt_out_at')}
      WHEN ${row('email_opt_out_at')} IS NULL OR ${row('left_at')} > ${row('email_opt_out_at')} THEN ${row('left_at')}
      ELSE ${row('email_opt_out_at')} END`;
  const sent = row('confirm_sent_at');
  return `(CASE
      WHEN ${saidNo} THEN (${sent} IS NULL OR ${sent} <= ${latestNo})
      WHEN ${row('confirmed_at')} IS NOT NULL THEN 1 = 0
      ELSE (${sent} IS NULL OR ${sent} < ${d.dayBefore})
    END)`;
}

/**
 * The person's own link code comes back only for a new record: a repeat sign-up's answer holds
 * nothing the first one did not (anyone can type an address).
 */
export const OWN_CODE_IF_NEW = `CASE WHEN signup_count = 1 THEN referral_code END AS referral_code`;

/** The consent history's line for every sign-up, new or repeated, written in the sign-up's transaction. */
export const SIGNUP_CONSENT_EVENT = { kind: 'signed_up', source: 'signup_form' } as const;
