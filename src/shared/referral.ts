// A person's own link to pass on (SITE_URL/?ref=CODE): the code's form, and how one is made. Free of zod:
// the page's first script reads the code from its address.

/** The query parameter a shared link carries. */
export const REFERRAL_PARAMETER = 'ref';

/** Lower-case letters and digits without i, l, o and u, so a code read aloud or retyped stays whole. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 12;

/** 12 characters of a 32-letter alphabet: 60 random bits, not guessable, and nothing about the person. */
export const REFERRAL_CODE_PATTERN = /^[0-9a-hjkmnp-tv-z]{12}$/;

export function isReferralCode(value: unknown): value is string {
  return typeof value === 'string' && REFERRAL_CODE_PATTERN.test(value);
}

/** A new code from the platform's secure random source (Node's and the browser's alike). */
export function newReferralCode(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(LENGTH));
  // 256 is a multiple of 32, so taking each byte modulo 32 favours no letter.
  return Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}
