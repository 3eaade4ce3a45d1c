// What a sign-up becomes on its way into the database and back, the same for both engines.
import { emailKey, type SignupButton, type SignupInput, type SignupRecord } from '../../shared/signup-schema.js';
import type { Selectable } from 'kysely';
import { DEFAULT_LANGUAGE } from '../../shared/languages.js';
import { iso, isoOrNull, isTrue, type Flag } from './column-types.js';
import type { SignupsTable } from './signups.table.js';
import type { SignupVia } from './signup-writer.js';
import { SIGNUP_CONSENT_EVENT } from './signup-upsert.js';

/** What the server derives from a sign-up before storing it, the same for every engine. */
export interface SignupRow extends Pick<
  SignupRecord,
  | 'name'
  | 'phone'
  | 'email'
  | 'betaTesting'
  | 'utmSource'
  | 'utmMedium'
  | 'utmCampaign'
  | 'utmTerm'
  | 'utmContent'
  | 'referrer'
  | 'landingPath'
  | 'button'
  | 'consentVersion'
  | 'language'
> {
  emailKey: string;
  /** The label stats group by: utm_source, else the referring site's host, else "(direct)". */
  source: string;
  /** The code of the link the visit came through, as sent; stored only if someone on record has it. */
  referredBy: string | null;
  /** How the consent line names where it came from: the page's form, or the API (with its evidence). */
  consentSource: 'signup_form' | 'api';
  consentEvidence: string | null;
}

export const DIRECT_SOURCE = '(direct)';
export const NO_CAMPAIGN = '(none)';

function referrerHost(referrer: string | undefined): string | null {
  if (!referrer) return null;
  try {
    return new URL(referrer).hostname.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

const orNull = (value: string | undefined) => (value === undefined || value === '' ? null : value);

export function toSignupRow(input: SignupInput, via?: SignupVia): SignupRow {
  const attribution = input.attribution ?? {};
  const utmSource = orNull(attribution.utmSource);
  return {
    name: input.name,
    phone: input.phone,
    email: input.email,
    emailKey: emailKey(input.email),
    betaTesting: input.betaTesting,
    utmSource,
    utmMedium: orNull(attribution.utmMedium),
    utmCampaign: orNull(attribution.utmCampaign),
    utmTerm: orNull(attribution.utmTerm),
    utmContent: orNull(attribution.utmContent),
    referrer: orNull(attribution.referrer),
    landingPath: orNull(attribution.landingPath),
    button: attribution.button ?? null,
    source: utmSource ?? referrerHost(attribution.referrer) ?? DIRECT_SOURCE,
    consentVersion: input.consentVersion ?? null,
    language: input.language ?? DEFAULT_LANGUAGE,
    referredBy: attribution.referredBy ?? null,
    consentSource: via?.source ?? SIGNUP_CONSENT_EVENT.source,
    consentEvidence: via?.evidence ?? null,
  };
}

/** A stored sign-up as either engine returns it (SQLite: 0/1 and ISO text; PostgreSQL: booleans and Dates). */
export type StoredSignup = Selectable<SignupsTable>;

/** What the outbox says of a person's confirmation email (message-queue-repository.ts confirmationColumns). */
export interface ConfirmationFacts {
  /** One waits to be sent. */
  confirmation_waiting: Flag;
  /** One was queued, ever. */
  confirmation_queued: Flag;
}

/**
 * Asked to confirm (a confirmation is due or was sent): sign-ups from before confirmation was on
 * were never asked. Said once for every reader of the row.
 */
export const askedToConfirm = (row: Pick<StoredSignup, 'confirm_sent_at'> & ConfirmationFacts): boolean =>
  isTrue(row.confirmation_queued) || row.confirm_sent_at !== null;

/** Where a person stands on messages, read from their row the same way by every reader of it. */
export function messageStanding(
  row: Pick<
    StoredSignup,
    | 'confirmed_at'
    | 'confirm_sent_at'
    | 'email_opt_out_at'
    | 'sms_opt_out_at'
    | 'left_at'
    | 'sms_confirmed_at'
    | 'joining_text_sent_at'
  > &
    ConfirmationFacts,
) {
  return {
    confirmedAt: isoOrNull(row.confirmed_at),
    askedToConfirm: askedToConfirm(row),
    emailOptOutAt: isoOrNull(row.email_opt_out_at),
    smsOptOutAt: isoOrNull(row.sms_opt_out_at),
    leftAt: isoOrNull(row.left_at),
    smsConfirmedAt: isoOrNull(row.sms_confirmed_at),
    joiningTextSentAt: isoOrNull(row.joining_text_sent_at),
  };
}

export function recordFromColumns(row: StoredSignup): SignupRecord {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    betaTesting: isTrue(row.beta_testing),
    timestamp: iso(row.created_at),
    lastSeenAt: iso(row.last_seen_at),
    signupCount: row.signup_count,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    utmTerm: row.utm_term,
    utmContent: row.utm_content,
    referrer: row.referrer,
    landingPath: row.landing_path,
    button: row.button as SignupButton | null,
    consentVersion: row.consent_version,
    confirmedAt: isoOrNull(row.confirmed_at),
    emailOptOutAt: isoOrNull(row.email_opt_out_at),
    smsOptOutAt: isoOrNull(row.sms_opt_out_at),
    smsConfirmedAt: isoOrNull(row.sms_confirmed_at),
    leftAt: isoOrNull(row.left_at),
    referralCode: row.referral_code,
    referredBy: row.referred_by,
    language: row.language,
  };
}
