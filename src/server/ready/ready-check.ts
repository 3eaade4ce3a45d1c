// One launch check and what every check reads (ready-checks.ts runs them all).
import type { Config } from '../config.js';
import type { Db } from '../db/open-database.js';
import type { TxtLookup } from './dns-records.js';
import type { SeedOutcome } from './seed-message.js';

/** What the checks ask Twilio. */
export interface TwilioLookup {
  /** Resolves when the account may send; rejects saying why not. */
  account(): Promise<void>;
  /** A Messaging Service's A2P 10DLC registration (`us_app_to_person_registered`). */
  serviceRegistered(sid: string): Promise<boolean>;
}

export type Level = 'green' | 'amber' | 'red';
export type Area = 'mail' | 'texts' | 'site';

export interface ReadyCheck {
  id: string;
  area: Area;
  level: Level;
  /** What is checked, in a few words. */
  title: string;
  /** What was found. */
  found: string;
  /** What to do, where it is not green. */
  fix?: string;
}

export interface ReadyFacts {
  config: Config;
  db: Pick<Db, 'owners' | 'signups' | 'webhooks'>;
  dns: TxtLookup;
  /** Asks Twilio about the account and the sender; absent without Twilio. */
  twilio?: TwilioLookup;
  /** Sends the seed message and reads it back (sudo scamsavvy ready does; the dashboard and a send's refusal do not wait for it). */
  seed?: () => Promise<SeedOutcome>;
}

export const check = (
  id: string,
  area: Area,
  level: Level,
  title: string,
  found: string,
  fix?: string,
): ReadyCheck => ({ id, area, level, title, found, ...(fix && level !== 'green' ? { fix } : {}) });
