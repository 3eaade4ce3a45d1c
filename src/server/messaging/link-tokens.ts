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
  // 16 bytes of id are 22 characters; 20 of MAC are 27.
  const WELL_FORMED = /^[A-Za-z0-9_-]{49}$/;
  return {
    sign(purpose, signupId, bound) {
      if (!UUID.test(signupId)) throw new Error('A link names a sign-up by its UUID.');
      const id = Buffer.from(signupId.replace(/-/g, ''), 'hex');
      return `${id.toString('base64url')}${mac(purpose, id, bound).toString('base64url')}`;
    },
    verify(purpose, token, bound) {
      if (!WELL_FORMED.test(token)) return undefined;
      const id = Buffer.from(token.slice(0, 22), 'base64url');
      const given = Buffer.from(token.slice(22), 'base64url');
      if (id.length !== 16 || given.length !== MAC_BYTES || !signedByOne(given, purpose, id, bound)) return undefined;
      // Only the one spelling we made: base64's last character has spare bits a changed link could flip.
      if (`${id.toString('base64url')}${given.toString('base64url')}` !== token) return undefined;
      return uuidOf(id);
    },
    claimedId(token) {
      if (!WELL_FORMED.test(token)) return undefined;
      const id = Buffer.from(token.slice(0, 22), 'base64url');
      return id.length === 16 ? uuidOf(id) : undefined;
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
