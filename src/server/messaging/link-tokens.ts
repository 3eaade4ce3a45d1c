// The personal links in messages (signed with SECRET_KEY) and the keyed hashes the suppression list keeps.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressKind } from '../db/suppressions.table.js';
import { derivedKeys } from './derived-keys.js';

/**
 * What a link may do: confirm a sign-up, manage one (the preferences page), only turn email off (the
 * one-click unsubscribe and List-Unsubscribe: whoever holds a forwarded email, or only its header, can
 * stop email and nothing more; issue 54), make the phone number change a repeat sign-up asked for
 * (bound to that number), or press an emailed button (bound to what it does, when it was sent, and the
 * choices it changes: consent/emailed-buttons.ts).
 */
export type LinkPurpose = 'confirm' | 'manage' | 'off' | 'phone' | 'button';

/** 20 bytes of HMAC-SHA256: 160 bits nobody can guess, in a link short enough to read aloud if need be. */
const MAC_BYTES = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A token is letters and digits only, 50 of them (issue 55): one word that no spam filter can take
 * for a Bitcoin address. SpamAssassin's PDS_BTC_ID looks for 26 to 35 such characters between word
 * boundaries, and the "-" of base64url made boundaries inside a token, so about 6 emails in 10,000
 * scored for it. The 16 bytes of the id are 22 characters, the 20 of the MAC 28: each part one
 * spelling, zero-padded to its width.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_CHARACTERS = 22;
const MAC_CHARACTERS = 28;
const TOKEN = /^[0-9A-Za-z]{50}$/;
/** The tokens of emails sent before (base64url, 49 characters): they keep working (decision 041). */
const BASE64URL_TOKEN = /^[A-Za-z0-9_-]{49}$/;

/** 62 to the 5th: five digits at a time, the rest in plain numbers (a BigInt division each costs more). */
const FIVE_DIGITS = 62n ** 5n;

function toBase62(bytes: Buffer, width: number): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  const digits = new Array<string>(width);
  for (let place = width - 1; place >= 0;) {
    let five = Number(value % FIVE_DIGITS);
    value /= FIVE_DIGITS;
    for (let digit = 0; digit < 5 && place >= 0; digit += 1, place -= 1) {
      digits[place] = BASE62[five % 62]!;
      five = Math.floor(five / 62);
    }
  }
  // One flat string (not a rope of 50 prepended characters, which every slice of it would flatten).
  return digits.join('');
}

/** The `size` bytes a base-62 text spells, or undefined when it spells more than they hold. */
function fromBase62(text: string, size: number): Buffer | undefined {
  let value = 0n;
  for (const character of text) value = value * 62n + BigInt(BASE62.indexOf(character));
  const hex = value.toString(16).padStart(size * 2, '0');
  return hex.length === size * 2 ? Buffer.from(hex, 'hex') : undefined;
}

/** The id and MAC a token spells, in either form, or undefined when it is neither. */
function tokenParts(token: string): { id: Buffer; given: Buffer } | undefined {
  if (TOKEN.test(token)) {
    const id = fromBase62(token.slice(0, ID_CHARACTERS), 16);
    const given = fromBase62(token.slice(ID_CHARACTERS), MAC_BYTES);
    return id && given ? { id, given } : undefined;
  }
  if (!BASE64URL_TOKEN.test(token)) return undefined;
  const id = Buffer.from(token.slice(0, 22), 'base64url');
  const given = Buffer.from(token.slice(22), 'base64url');
  // Only the one spelling we made: base64's last character has spare bits a changed link could flip.
  if (id.length !== 16 || given.length !== MAC_BYTES) return undefined;
  if (`${id.toString('base64url')}${given.toString('base64url')}` !== token) return undefined;
  return { id, given };
}

export interface LinkSigner {
  /** A token naming the sign-up `signupId` (a UUID) for `purpose`, and `bound` if given (a phone number asked for). */
  sign(purpose: LinkPurpose, signupId: string, bound?: string): string;
  /** The sign-up a token names, or undefined when it is not one of ours for `purpose` (and `bound`). */
  verify(purpose: LinkPurpose, token: string, bound?: string): string | undefined;
  /** The sign-up a well-formed token claims to name, not yet verified: to look up what to verify it against. */
  claimedId(token: string): string | undefined;
}

/**
 * Signs with SECRET_KEY; verifies with it or, after a rotation, with SECRET_KEY_PREVIOUS, so every link
 * in mail already delivered keeps working (decision 041).
 */
export function createLinkSigner(secretKey: string, previousKey?: string): LinkSigner {
  const keys = derivedKeys('links', secretKey, previousKey);
  const macWith = (key: Buffer, purpose: LinkPurpose, id: Buffer, bound: string | undefined) => {
    const hmac = createHmac('sha256', key).update(purpose).update('\0').update(id);
    if (bound !== undefined) hmac.update('\0').update(bound);
    return hmac.digest().subarray(0, MAC_BYTES);
  };
  const mac = (purpose: LinkPurpose, id: Buffer, bound: string | undefined) => macWith(keys[0], purpose, id, bound);
  const signedByOne = (given: Buffer, purpose: LinkPurpose, id: Buffer, bound: string | undefined) =>
    keys.some((key) => timingSafeEqual(given, macWith(key, purpose, id, bound)));
  const uuidOf = (id: Buffer) => {
    const hex = id.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
  return {
    sign(purpose, signupId, bound) {
      if (!UUID.test(signupId)) throw new Error('A link names a sign-up by its UUID.');
      const id = Buffer.from(signupId.replace(/-/g, ''), 'hex');
      return `${toBase62(id, ID_CHARACTERS)}${toBase62(mac(purpose, id, bound), MAC_CHARACTERS)}`;
    },
    verify(purpose, token, bound) {
      const parts = tokenParts(token);
      if (!parts || !signedByOne(parts.given, purpose, parts.id, bound)) return undefined;
      return uuidOf(parts.id);
    },
    claimedId(token) {
      const parts = tokenParts(token);
      return parts ? uuidOf(parts.id) : undefined;
    },
  };
}

export interface AddressHasher {
  /**
   * A keyed hash of a normalised address (the email's key, the phone's digits): the suppression
   * list can say "never write to this one again" without keeping the address itself.
   */
  hash(kind: AddressKind, normalised: string): string;
  /**
   * Every hash the list may hold for the address: SECRET_KEY's, then SECRET_KEY_PREVIOUS's after a
   * rotation (entries made before it are still read, so no "no" is forgotten). New entries use `hash`.
   */
  hashes(kind: AddressKind, normalised: string): string[];
}

export function createAddressHasher(secretKey: string, previousKey?: string): AddressHasher {
  const keys = derivedKeys('suppression', secretKey, previousKey);
  const with_ = (key: Buffer, kind: AddressKind, normalised: string) =>
    createHmac('sha256', key).update(`${kind}:${normalised}`).digest('base64url');
  return {
    hash: (kind, normalised) => with_(keys[0], kind, normalised),
    hashes: (kind, normalised) => keys.map((key) => with_(key, kind, normalised)),
  };
}
