// The port each engine's sign-up writer implements: the one hot path that may differ per engine,
// because bench:api shows it pays (decision 013: SQLite's writer thread, PostgreSQL's batch insert).
import type { AnalyticsEvent } from '../../shared/analytics-events.js';
import type { SignupInput } from '../../shared/signup-schema.js';

/** What a stored sign-up tells the page: the person's own link code, for a new record only (null for a repeat). */
export interface SignupAdded {
  referralCode: string | null;
}

/**
 * A sign-up that did not come through our page's form: through the API, from another channel (a
 * partner's page, a tablet at an event: issue 56). Its consent line names the API and keeps the
 * evidence the caller gave, as JSON. The rules are the page's own: nothing else differs.
 */
export interface SignupVia {
  source: 'api';
  evidence: string;
}

export interface SignupWriter {
  /** Resolves once the sign-up (and its consent line, and its confirmation request) is committed. */
  add(input: SignupInput, via?: SignupVia): Promise<SignupAdded>;
  /** Resolves once the events are committed, in a transaction of their own. */
  recordEvents(events: AnalyticsEvent[], at?: Date): Promise<void>;
  /** Writes everything already accepted, then stops. */
  close(): Promise<void>;
}

export interface SignupWriterOptions {
  /**
   * Each new sign-up (and a repeat one not yet confirmed, at most once a day) asks for a
   * confirmation email, in the same transaction that stores it (EMAIL_CONFIRMATION).
   */
  confirmSignups: boolean;
  /** Makes record ids; random UUIDs unless a test needs to force a clash. */
  newId: () => string;
  /** The clock for what the app stamps (not the sign-up's own times on PostgreSQL, which are the database's). */
  now: () => Date;
}
