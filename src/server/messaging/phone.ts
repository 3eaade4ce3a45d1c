// Phone numbers as the text provider gives them (E.164) and as people typed them on the page; what
// the numbering plan says of one (libphonenumber-js, its full metadata): its E.164 form, its country,
// and whether it can take texts at all.
import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * The E.164 form of a stored phone number (digits with an optional leading "+"). Without a "+",
 * ten digits are a US number (the page's hint asks others to type + and their country code), and
 * eleven starting with 1 are a US number with its country code.
 */
export function toE164(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  if (phone.trim().startsWith('+')) return `+${digits}`;
  if (digits.length === 10) return `+1${digits}`;
  return `+${digits}`;
}

/** Every way a number in E.164 form may have been typed on the page (and stored): with +, without, without a US 1. */
export function storedForms(e164: string): string[] {
  const digits = e164.replace(/[^\d]/g, '');
  const forms = new Set([`+${digits}`, digits]);
  if (digits.length === 11 && digits.startsWith('1')) forms.add(digits.slice(1));
  return [...forms];
}

/** The last four digits of a number, as every page and message names a number. */
export function phoneEnd(phone: string): string {
  return phone.replace(/\D/g, '').slice(-4);
}

/**
 * The last digits of two numbers, enough to tell them apart: four, or more when the last four are
 * the same ("change to •••• 74567, keep the number ending 34567"), up to seven.
 */
export function distinctEnds(next: string, current: string): { next: string; current: string } {
  const a = next.replace(/\D/g, '');
  const b = current.replace(/\D/g, '');
  let length = 4;
  while (length < 7 && a.slice(-length) === b.slice(-length)) length += 1;
  return { next: a.slice(-length), current: b.slice(-length) };
}

export interface PhoneFacts {
  /** E.164 by the numbering plan, or by toE164 when the plan cannot read it. */
  e164: string;
  /** The country calling code ("1", "44") and the number after it. */
  callingCode: string;
  nationalNumber: string;
  /** The numbering plan could read it: a possible length for its country (e164 is then the plan's). */
  possible: boolean;
  /** False for a number that cannot take texts: why, in the owner's words. */
  textable: boolean;
  why?: string;
}

/** Kinds of number the plan marks as unable to take texts. */
const NOT_MOBILE: Record<string, string> = {
  FIXED_LINE: 'a landline number',
  TOLL_FREE: 'a toll-free number',
  PREMIUM_RATE: 'a premium-rate number',
  SHARED_COST: 'a shared-cost number',
  VOICEMAIL: 'a voicemail number',
  UAN: 'a company switchboard number',
  PAGER: 'a pager number',
};

/**
 * What the numbering plan says of a number as typed (`country`: SMS_DEFAULT_COUNTRY, for numbers
 * typed without their country code). A number of an impossible length, or of a kind that cannot
 * take texts, is not textable. One of a possible length in a range the plan does not list (an area
 * code newer than the metadata, or the 555 test range) is tried: the provider's answer judges it.
 */
export function phoneFacts(phone: string, country: CountryCode = 'US'): PhoneFacts {
  const parsed = parsePhoneNumberFromString(phone, country);
  if (!parsed || !parsed.isPossible()) {
    const e164 = toE164(phone);
    const digits = e164.slice(1);
    return {
      e164,
      callingCode: digits.startsWith('1') ? '1' : '',
      nationalNumber: digits.startsWith('1') ? digits.slice(1) : digits,
      possible: false,
      textable: false,
      why: 'not a phone number that can exist (wrong length for its country)',
    };
  }
  const kind = parsed.isValid() ? parsed.getType() : undefined;
  const notMobile = kind ? NOT_MOBILE[kind] : undefined;
  return {
    e164: parsed.number,
    callingCode: parsed.countryCallingCode,
    nationalNumber: parsed.nationalNumber,
    possible: true,
    textable: notMobile === undefined,
    ...(notMobile ? { why: `${notMobile}, which cannot take texts` } : {}),
  };
}

/** The countries of the North American plan share "+1" and ten-digit numbers. */
const NANP_COUNTRIES = new Set([
  'US',
  'CA',
  'AG',
  'AI',
  'AS',
  'BB',
  'BM',
  'BS',
  'DM',
  'DO',
  'GD',
  'GU',
  'JM',
  'KN',
  'KY',
  'LC',
  'MP',
  'MS',
  'PR',
  'SX',
  'TC',
  'TT',
  'VC',
  'VG',
  'VI',
]);

/**
 * A number as every record keeps it (issue 54: every number is one number): E.164 when the numbering
 * plan can read it (a possible length), or undefined, and the form, the person's page and the owner's
 * page refuse it ("Please include your area code"). A North American area code never starts with 0
 * or 1 (a national number from abroad typed without its country code): not read either. The shapes
 * nearly every sign-up has (+1 and ten digits; ten digits, or eleven starting with 1, in a North
 * American country) are written out directly, as the plan would: the request path parses nothing it
 * does not need to (bench:api).
 */
export function signupE164(phone: string, country: CountryCode = 'US'): string | undefined {
  const digits = phone.replace(/\D/g, '');
  const plus = phone.trim().startsWith('+');
  if (plus && digits.length === 11 && digits.startsWith('1') && /^[2-9]/.test(digits.slice(1))) return `+${digits}`;
  if (!plus && NANP_COUNTRIES.has(country)) {
    if (digits.length === 10 && /^[2-9]/.test(digits)) return `+1${digits}`;
    if (digits.length === 11 && digits.startsWith('1') && /^[2-9]/.test(digits.slice(1))) return `+${digits}`;
  }
  const facts = phoneFacts(phone, country);
  if (!facts.possible) return undefined;
  return facts.e164.startsWith('+1') && !/^\+1[2-9]\d{9}$/.test(facts.e164) ? undefined : facts.e164;
}

/**
 * The country a number is in (ISO 3166), as the numbering plan reads it; a number in a range the plan
 * does not list (the 555 test range, an area code newer than the metadata) is taken to be in
 * `country` (SMS_DEFAULT_COUNTRY) when it shares that country's calling code, else in none.
 */
export function numberCountry(phone: string, country: CountryCode = 'US'): string | undefined {
  const parsed = parsePhoneNumberFromString(phone, country);
  if (!parsed) return undefined;
  if (parsed.country) return parsed.country;
  return parsed.countryCallingCode === getCountryCallingCode(country) ? country : undefined;
}
