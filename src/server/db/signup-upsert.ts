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
  /** "Either asked": beta interest is kept once given. */
  either(a: string, b: string): string;
  /** The moment of this sign-up. */
  now: string;
  /** One day before it. */
  dayBefore: string;
}

/** In SQLite's DO UPDATE a bare column is the stored row's value before this update. */
export const sqliteUpsert: UpsertDialect = {
  stored: (column) => column,
  incoming: (column) => `excluded.${column}`,
  either: (a, b) => `max(${a}, ${b})`,
  now: 'excluded.last_seen_at',
  dayBefore: `strftime('%Y-%m-%dT%H:%M:%fZ', excluded.last_seen_at, '-1 day')`,
};

/** created_at and last_seen_at are PostgreSQL's clock (spec section 3). */
export const postgresUpsert: UpsertDialect = {
  stored: (column) => `signups.${column}`,
  incoming: (column) => `excluded.${column}`,
  either: (a, b) => `${a} OR ${b}`,
  now: 'now()',
  dayBefore: `now() - interval '1 day'`,
};

/**
 * One statement for new and repeated emails alike (the first record is kept; a different phone
 * number waits for the address on record to agree), so both take the same
 * path and time. A repeat sign-up is new consent: it lifts earlier opt-outs and leaving, and someone
 * who had left or turned email off confirms again (anyone can type an address, so only its owner may
 * undo their "no"). It asks for a confirmation email (confirm_requested_at; the incoming value is
 * null when confirmation is off) unless the person is confirmed, one is already waiting, or one went
 * out in the last day; someone coming back after leaving or turning email off is asked whenever they
 * come back (the last email confirmed the consent they withdrew; withdrawing takes their personal
 * link, so this is one email per "no" at most).
 */
export function onRepeatSignup(d: UpsertDialect): string {
  const stored = d.stored;
  const stillConsenting = `${stored('left_at')} IS NULL AND ${stored('email_opt_out_at')} IS NULL`;
  // Another phone number: kept aside, and the address on record asked to press a button before it
  // replaces the one they gave (decision 031). The same number again drops an earlier request. While
  // an email asking went out in the last day, a new number is not kept, and that email's time stays
  // even when a request is dropped (one such email a day at most, whatever order numbers come in).
  const samePhone = `${d.incoming('phone')} = ${stored('phone')}`;
  const askedToday = `${stored('phone_change_sent_at')} IS NOT NULL AND ${stored('phone_change_sent_at')} >= ${d.dayBefore}`;
  const phoneChange = (column: string, asked: string) =>
    `CASE WHEN ${samePhone} THEN NULL WHEN ${askedToday} THEN ${stored(column)} ELSE ${asked} END`;
  return `ON CONFLICT (email_key) DO UPDATE SET
    phone_change_to = ${phoneChange('phone_change_to', d.incoming('phone'))},
    phone_change_at = ${phoneChange('phone_change_at', d.now)},
    phone_change_sent_at = CASE WHEN ${askedToday} THEN ${stored('phone_change_sent_at')} END,
    beta_testing = ${d.either(stored('beta_testing'), d.incoming('beta_testing'))},
    last_seen_at = ${d.now},
    signup_count = ${stored('signup_count')} + 1,
    left_at = NULL,
    email_opt_out_at = NULL,
    sms_opt_out_at = NULL,
    confirmed_at = CASE WHEN ${stillConsenting} THEN ${stored('confirmed_at')} END,
    confirm_requested_at = CASE
      WHEN ${d.incoming('confirm_requested_at')} IS NULL THEN ${stored('confirm_requested_at')}
      WHEN ${stored('confirmed_at')} IS NOT NULL AND ${stillConsenting} THEN ${stored('confirm_requested_at')}
      WHEN ${stored('confirm_requested_at')} IS NOT NULL THEN ${stored('confirm_requested_at')}
      WHEN ${stored('left_at')} IS NOT NULL
        OR ${stored('email_opt_out_at')} IS NOT NULL
        OR ${stored('confirm_sent_at')} IS NULL
        OR ${stored('confirm_sent_at')} < ${d.dayBefore}
        THEN ${d.incoming('confirm_requested_at')}
    END`;
}

/** The consent history's line for every sign-up, new or repeated, written in the sign-up's transaction. */
export const SIGNUP_CONSENT_EVENT = { kind: 'signed_up', source: 'signup_form' } as const;
