// When a text may reach a person: inside the hours that hold at their location, in every time zone
// their number may be in. The federal rule (8 a.m. to 9 p.m.), the stricter rules of the state an
// area code is in (STATE_RULES, each with its source), and the owner's SMS_SEND_HOURS (which can only
// narrow them) all hold at once. docs/messaging.md ("Texts wait for daytime") explains it for owners.
import type { CountryCode } from 'libphonenumber-js/max';
import type { Hours, TextHoursConfig } from '../messaging-config.js';
import { numberCountry, phoneFacts, type PhoneFacts } from './phone.js';
import { COUNTRY_ZONES, NANP_AREAS } from './phone-zones-data.js';

type Weekday = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat';

export interface PlaceRule {
  /** The hours each day allows (null: none that day); `all` for the days not named. */
  hours: Partial<Record<Weekday | 'all', Hours | null>>;
  /** At most this many texts to the number in any 24 hours. */
  capPer24Hours?: number;
  source: string;
}

const at = (clock: string): number => {
  const [hours, minutes] = clock.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
};
const between = (from: string, to: string): Hours => [at(from), at(to)];

/** 47 CFR 64.1200(c)(1): no telephone solicitation before 8 a.m. or after 9 p.m. at the called party's location. */
export const FEDERAL_RULE: PlaceRule = {
  hours: { all: between('08:00', '21:00') },
  source: '47 CFR 64.1200(c)(1) (TCPA): 8 a.m. to 9 p.m., local time at the called party’s location',
};

/**
 * The states whose rules are stricter than the federal one, for texts or calls (a text counts as a
 * call under most of them). Where a source gives two readings, the stricter is kept. Public holidays
 * (AL, LA, MS, RI) are not modelled: SMS_SEND_HOURS cannot say them either, so do not launch on one.
 */
export const STATE_RULES: Record<string, PlaceRule> = {
  FL: {
    hours: { all: between('08:00', '20:00') },
    capPer24Hours: 3,
    source:
      'Fla. Stat. 501.616(6)(a)-(b), as amended by SB 1120 (2021): 8 a.m. to 8 p.m.; 3 in 24 hours on the same subject',
  },
  OK: {
    hours: { all: between('08:00', '20:00') },
    capPer24Hours: 3,
    source:
      'Okla. Stat. tit. 15, 775C.1 ff. (Telephone Solicitation Act of 2022, HB 3168): 8 a.m. to 8 p.m.; 3 in 24 hours',
  },
  MD: {
    hours: { all: between('08:00', '20:00') },
    capPer24Hours: 3,
    source:
      'Md. Code, Com. Law 14-4501 ff. (Stop the Spam Calls Act of 2023): 8 a.m. to 8 p.m.; 3 calls or texts in 24 hours',
  },
  NJ: {
    hours: { all: between('08:00', '20:00') },
    capPer24Hours: 3,
    source:
      'N.J.A.C. 13:45D-4.1 allows 8 a.m. to 9 p.m.; kept to 8 a.m. to 8 p.m. and 3 in 24 hours, as for FL, OK and MD (the stricter reading)',
  },
  CT: {
    hours: { all: between('09:00', '20:00') },
    source: 'Conn. Gen. Stat. 42-288a, as amended by P.A. 23-98 (texts included): 9 a.m. to 8 p.m.',
  },
  TX: {
    hours: { all: between('09:00', '21:00'), sun: between('12:00', '21:00') },
    source: 'Tex. Bus. & Com. Code 301.051: 9 a.m. to 9 p.m. Monday to Saturday, noon to 9 p.m. Sunday',
  },
  RI: {
    hours: { all: between('09:00', '18:00'), sat: between('10:00', '17:00'), sun: null },
    source: 'R.I. Gen. Laws 5-61-3.6 and 5-61-2: 9 a.m. to 6 p.m. weekdays, 10 a.m. to 5 p.m. Saturday, never Sunday',
  },
  KY: {
    hours: { all: between('10:00', '21:00') },
    source: 'Ky. Rev. Stat. 367.46955(15): 10 a.m. to 9 p.m.',
  },
  AL: {
    hours: { all: between('08:00', '20:00'), sun: null },
    source: 'Ala. Admin. Code 770-X-6 (telephone solicitation): 8 a.m. to 8 p.m., never Sunday',
  },
  LA: {
    hours: { all: between('08:00', '20:00'), sun: null },
    source: 'La. R.S. 45:844.17 and LPSC General Order: 8 a.m. to 8 p.m., never Sunday',
  },
  MS: {
    hours: { all: between('08:00', '20:00'), sun: null },
    source: 'Miss. Code 77-3-725 and Public Utilities Staff rules: 8 a.m. to 8 p.m., never Sunday',
  },
};

/** Where a number's person may be: the time zones, and the state or province its area code is in. */
export interface NumberPlace {
  zones: string[];
  region: string;
}

/** The zones of the US's own clocks: a North American number whose area code says nothing (toll-free, unassigned). */
const US_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
];

export function placeOf(facts: Pick<PhoneFacts, 'callingCode' | 'nationalNumber'>): NumberPlace {
  if (facts.callingCode === '1') {
    const area = NANP_AREAS[facts.nationalNumber.slice(0, 3)];
    return area ? { zones: area[1].split(' '), region: area[0] } : { zones: US_ZONES, region: '' };
  }
  const zones = COUNTRY_ZONES[facts.callingCode];
  return { zones: zones ? zones.split(' ') : ['Etc/UTC'], region: '' };
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The weekday and minute of the day at `instant` in `zone`. */
function localTime(instant: Date, zone: string): { day: Weekday; minute: number } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: string) => parts.find((one) => one.type === type)?.value ?? '';
  return {
    day: part('weekday').toLowerCase().slice(0, 3) as Weekday,
    minute: Number(part('hour')) * 60 + Number(part('minute')),
  };
}

function allowedBy(rule: PlaceRule, day: Weekday, minute: number): boolean {
  const hours = day in rule.hours ? rule.hours[day] : rule.hours.all;
  return hours !== null && hours !== undefined && minute >= hours[0] && minute < hours[1];
}

/** The rules that hold for a place: the federal one, and its state's when stricter. */
export function rulesFor(place: NumberPlace): PlaceRule[] {
  const state = STATE_RULES[place.region];
  return state ? [FEDERAL_RULE, state] : [FEDERAL_RULE];
}

/** Whether a text may reach someone at `place` at `instant`: every rule, and the owner's hours, in every zone. */
export function allowedAt(place: NumberPlace, sendHours: Hours, instant: Date): boolean {
  const rules = [...rulesFor(place), { hours: { all: sendHours }, source: 'SMS_SEND_HOURS' }];
  return place.zones.every((zone) => {
    const { day, minute } = localTime(instant, zone);
    return rules.every((rule) => allowedBy(rule, day, minute));
  });
}

const MINUTE = 60_000;
/** How far ahead a window is looked for: a week and a day covers every weekly rule. */
const HORIZON_MINUTES = 8 * 24 * 60;

/**
 * When the next text may go: `instant` itself when allowed, else the first minute the window opens,
 * or undefined when it never does (zones too far apart for any common hour: such a number is told
 * apart and the owner sees why, never waited on for ever).
 */
export function nextAllowed(place: NumberPlace, sendHours: Hours, instant: Date): Date | undefined {
  const start = Math.ceil(instant.getTime() / MINUTE) * MINUTE;
  if (allowedAt(place, sendHours, instant)) return instant;
  // Every rule's hours start on a quarter hour or the owner's minute: step by 15, then back to the minute.
  for (let step = 15; step <= HORIZON_MINUTES; step += 15) {
    const probe = new Date(start + step * MINUTE);
    if (!allowedAt(place, sendHours, probe)) continue;
    let first = probe.getTime();
    while (first - MINUTE >= start && allowedAt(place, sendHours, new Date(first - MINUTE))) first -= MINUTE;
    return new Date(first);
  }
  return undefined;
}

/** A text that may not go yet: when it may, and whether daytime or a 24-hour cap holds it. */
export interface TextWait {
  until: Date;
  why: 'daytime' | 'cap';
}

/** What the rules say of one number: where it may be, its cap, and whether a text to it can ever go. */
export interface NumberTiming {
  facts: PhoneFacts;
  place: NumberPlace;
  capPer24Hours: number | undefined;
}

/**
 * What the rules every text follows say of a text to one number now, whichever message it is (a
 * broadcast's, a joining text): it may go; it never may (the number cannot take texts, or its zones
 * share no hour of daytime); not to this country (SMS_COUNTRIES); or not before `until` (daytime
 * where the person is).
 */
export type TextCheck =
  | { may: 'go'; number: NumberTiming }
  | { may: 'never'; why: string; cannotTakeTexts: boolean }
  | { may: 'not here'; country: string }
  | { may: 'later'; until: Date };

/**
 * The text rules with the product's settings: when a text to a number may go (in the real clock's
 * terms; TEST_TEXT_CLOCK moves only the rules' "now"). Windows are kept per place for a minute
 * (every rule's hours start and end on a whole minute).
 */
export class TextTiming {
  private readonly openings = new Map<string, { minute: number; opens: number | undefined }>();

  constructor(private readonly config: TextHoursConfig) {}

  numberTiming(phone: string): NumberTiming {
    const facts = phoneFacts(phone, this.config.defaultCountry as CountryCode);
    const place = placeOf(facts);
    const caps = rulesFor(place).flatMap((rule) => (rule.capPer24Hours === undefined ? [] : [rule.capPer24Hours]));
    return { facts, place, capPer24Hours: caps.length > 0 ? Math.min(...caps) : undefined };
  }

  /** The instant (real clock) a text to this place may go: `now` itself when it may now; undefined: never. */
  opensAt(place: NumberPlace, now: Date): Date | undefined {
    const shifted = now.getTime() + this.config.clockShiftMs;
    const minute = Math.floor(shifted / MINUTE);
    const key = `${place.region}|${place.zones.join(' ')}`;
    let known = this.openings.get(key);
    if (!known || known.minute !== minute) {
      known = { minute, opens: nextAllowed(place, this.config.sendHours, new Date(shifted))?.getTime() };
      this.openings.set(key, known);
    }
    if (known.opens === undefined) return undefined;
    return known.opens <= shifted ? now : new Date(known.opens - this.config.clockShiftMs);
  }

  /**
   * The country of a number SMS_COUNTRIES does not name, or undefined when we text it: any other
   * number gets no text (issue 54: nobody can make us text numbers abroad, SMS pumping).
   */
  outsideTextCountries(phone: string): string | undefined {
    const country = numberCountry(phone, this.config.defaultCountry as CountryCode);
    return country !== undefined && this.config.textCountries.includes(country)
      ? undefined
      : (country ?? 'an unknown country');
  }

  /**
   * The one check every text passes just before it goes (issue 54): a number that can take texts, in
   * a country SMS_COUNTRIES names, at an hour it may (`hours: false` for a text that answers what the
   * person did this moment). What each kind of message makes of a "no" here is its own: a broadcast's
   * text is skipped or waits, a joining text looks again later.
   */
  check(phone: string, now: Date, { hours = true }: { hours?: boolean } = {}): TextCheck {
    const number = this.numberTiming(phone);
    if (!number.facts.textable)
      return { may: 'never', why: number.facts.why ?? 'not a mobile number', cannotTakeTexts: true };
    const abroad = this.outsideTextCountries(number.facts.e164);
    if (abroad) return { may: 'not here', country: abroad };
    if (!hours) return { may: 'go', number };
    const opens = this.opensAt(number.place, now);
    if (opens === undefined) return { may: 'never', why: 'its zones share no hour of daytime', cannotTakeTexts: false };
    return opens > now ? { may: 'later', until: opens } : { may: 'go', number };
  }

  /** The rules' "now" (the real clock but for TEST_TEXT_CLOCK). */
  now(real = new Date()): Date {
    return new Date(real.getTime() + this.config.clockShiftMs);
  }
}
