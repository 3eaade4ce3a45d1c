// The port every sign-up store implements; the server and the owner's commands use only this.
import type { AnalyticsEvent, ScrollPercentage } from '../../shared/analytics-events.js';
import { emailKey, type SignupButton, type SignupInput, type SignupRecord } from '../../shared/signup-schema.js';
import type { ConsentRepository } from './consent-repository.js';
import type { OutboxRepository } from './outbox-repository.js';
import type { OwnerRepository } from './owner-repository.js';

export interface SignupFilter {
  /** Only sign-ups first stored at or after this moment. */
  since?: Date;
  /** Only sign-ups that asked to beta test. */
  betaOnly?: boolean;
}

export interface CountedLabel {
  label: string;
  count: number;
}

export interface SignupStats {
  /** People on the list (one record per email). */
  total: number;
  /** Sign-up submissions, repeats included. */
  submissions: number;
  /** People who asked to beta test. */
  betaTesting: number;
  /** People who confirmed their email (EMAIL_CONFIRMATION); 0 while confirmation has never been on. */
  confirmed: number;
  /** New people per UTC day, oldest first, for the days asked (days without any are left out). */
  byDay: CountedLabel[];
  /** utm_source, else the referring site, else "(direct)". */
  topSources: CountedLabel[];
  /** utm_campaign, else "(none)". */
  topCampaigns: CountedLabel[];
}

export interface StatsOptions {
  /** How many UTC days back, counting today, `byDay` covers. */
  days: number;
  /** How many entries the top lists keep. */
  top: number;
  now?: Date;
}

export interface FunnelOptions {
  /** How many UTC days back, counting today, the funnel covers. */
  days: number;
  now?: Date;
}

/** One UTC day of the landing page's first-party events, counted in SQL. */
export interface FunnelDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** page_view events on the landing page (page_name "home"). */
  landingViews: number;
  /** sign_up_start: the sign-up dialog opened. */
  dialogOpens: number;
  /** sign_up: a sign-up the server accepted. */
  signups: number;
  /** form_submission events with success false. */
  formFailures: number;
  /** download_intent: an app-store button pressed. */
  downloadIntents: number;
  /** scroll_depth events on the landing page, per threshold reached. */
  scrollDepth: Record<ScrollPercentage, number>;
}

/** Sign-ups: writing them (group commit) and reading them back (export, counts, figures). */
export interface SignupsRepository {
  /**
   * Stores a sign-up and resolves once it is durable. A second sign-up with the same email
   * (compared by `emailKey`) keeps the first record: beta interest is turned on if either asked,
   * and `lastSeenAt` and `signupCount` are updated. Either way it only says "stored" (spec
   * section 7 reads the answer only as success or failure), which keeps writes lean.
   */
  add(input: SignupInput): Promise<void>;
  /** Records in the order they were first stored, read in batches so a large list never sits in memory. */
  list(filter?: SignupFilter): AsyncIterable<SignupRecord>;
  count(): Promise<number>;
  stats(options: StatsOptions): Promise<SignupStats>;
}

/** The page's first-party analytics events: recording them and counting the funnel. */
export interface EventsRepository {
  /**
   * Stores first-party analytics events (already validated) and resolves once they are written.
   * They are written in batches a little later than sign-ups and never ahead of them, since losing
   * an event is acceptable and losing a sign-up is not. `at` is when they happened; left out, the
   * database's clock at the write.
   */
  record(events: AnalyticsEvent[], at?: Date): Promise<void>;
  /** The landing page's funnel per UTC day, oldest first, for the days asked (days without events are left out). */
  funnel(options: FunnelOptions): Promise<FunnelDay[]>;
}

/** The open database: one repository per domain, each written once for both engines. */
export interface Db {
  readonly engine: 'sqlite' | 'postgres';
  readonly signups: SignupsRepository;
  readonly events: EventsRepository;
  /** Consent, confirmation, opt-outs and the suppression list. */
  readonly consent: ConsentRepository;
  /** Launch-day broadcasts and their outbox. */
  readonly outbox: OutboxRepository;
  /** The dashboard's owners, their sign-in links and sessions, and the audit log. */
  readonly owners: OwnerRepository;
  /** Resolves if the database answers a trivial query; rejects if it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface SignupStoreOptions {
  /** Create or update the schema (the server and db:migrate do; export and stats only read). */
  migrate?: boolean;
  /**
   * Each new sign-up (and a repeat one not yet confirmed, at most once a day) asks for a
   * confirmation email, in the same transaction that stores it (EMAIL_CONFIRMATION).
   */
  confirmSignups?: boolean;
  /** The clock for what the app stamps (not the sign-up's own times on PostgreSQL, which are the database's). */
  now?: () => Date;
}

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
> {
  emailKey: string;
  /** The label stats group by: utm_source, else the referring site's host, else "(direct)". */
  source: string;
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

export function toSignupRow(input: SignupInput): SignupRow {
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
  };
}

/** The first UTC day (YYYY-MM-DD) that `days` days back from `now` covers. */
export function firstDay(now: Date, days: number): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  return start.toISOString().slice(0, 10);
}

/** The UTC day (YYYY-MM-DD) after `now`'s: the end, exclusive, of a window that ends today. */
export function dayAfter(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().slice(0, 10);
}

/** An analytics event as both engines store it: no visitor, address or browser, only the event. */
export interface EventRow {
  name: AnalyticsEvent['name'];
  pageName: string;
  /** The validated params, page_name included, as JSON: enough to re-validate the event as it was. */
  params: string;
  /** ISO 8601, or null for the database's clock. */
  createdAt: string | null;
}

export function toEventRow(event: AnalyticsEvent, at: Date | undefined): EventRow {
  return {
    name: event.name,
    pageName: event.params.page_name,
    params: JSON.stringify(event.params),
    createdAt: at ? at.toISOString() : null,
  };
}

/** Thrown when the database has no sign-ups table yet (the owner's commands never create one). */
export class NotMigratedError extends Error {
  constructor() {
    super(
      'It has no sign-up tables yet, or older ones than this version needs: start the server once (npm start) or run npm run db:migrate.',
    );
    this.name = 'NotMigratedError';
  }
}

/**
 * The database cannot take writes just now (unreachable, locked, full). The API answers 503 with a
 * retry hint; nothing was stored, and the visitor's form still holds what they typed.
 */
export class StoreUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`The sign-up database is unavailable: ${reason}`);
    this.name = 'StoreUnavailableError';
  }
}

/** A stored row as either engine returns it (SQLite: 0/1 and ISO text; PostgreSQL: booleans and Dates). */
export interface StoredSignupColumns {
  id: string;
  name: string;
  phone: string;
  email: string;
  beta_testing: number | boolean;
  created_at: string | Date;
  last_seen_at: string | Date;
  signup_count: number;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  referrer: string | null;
  landing_path: string | null;
  button: string | null;
  consent_version: string | null;
  confirmed_at?: string | Date | null;
  email_opt_out_at?: string | Date | null;
  sms_opt_out_at?: string | Date | null;
  left_at?: string | Date | null;
}

const isoTime = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);

export function recordFromColumns(row: StoredSignupColumns): SignupRecord {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    betaTesting: row.beta_testing === true || row.beta_testing === 1,
    timestamp: isoTime(row.created_at),
    lastSeenAt: isoTime(row.last_seen_at),
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
    confirmedAt: row.confirmed_at ? isoTime(row.confirmed_at) : null,
    emailOptOutAt: row.email_opt_out_at ? isoTime(row.email_opt_out_at) : null,
    smsOptOutAt: row.sms_opt_out_at ? isoTime(row.sms_opt_out_at) : null,
    leftAt: row.left_at ? isoTime(row.left_at) : null,
  };
}
