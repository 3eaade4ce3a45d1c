// The token every message we send carries (in the envelope sender, a header, a provider's tag or a
// status-callback URL), so that what comes back (a bounce, a complaint, a delivery receipt) is
// matched to one message and one person, never to an address someone typed into a report. Only
// we can issue one: a random id and its HMAC with a key derived from SECRET_KEY. Lowercase letters
// and digits only, 32 characters: safe in an email's local part (which some servers lowercase),
// a header, a URL or a provider's tag.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKeys } from './derived-keys.js';
import { randomPart } from './random-pool.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** 10 bytes of id and 10 of MAC: 16 base-32 characters each. */
const PART_BYTES = 10;
const PART_CHARACTERS = 16;
const TOKEN = /^[a-z2-7]{32}$/;

/** RFC 4648 base 32, lowercase, no padding (10 bytes make exactly 16 characters). */
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let text = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return text;
}

export interface MessageTokens {
  /** A new token for one message about to be sent. */
  issue(): string;
  /** True only for a token we issued (any case: some mail servers lowercase or uppercase it). */
  verify(token: string): boolean;
}

/** Issues with SECRET_KEY; verifies with it or SECRET_KEY_PREVIOUS (messages sent before a rotation). */
export function createMessageTokens(secretKey: string, previousKey?: string): MessageTokens {
  const keys = derivedKeys('message-tokens', secretKey, previousKey);
  const macWith = (key: Buffer, id: string) =>
    base32(createHmac('sha256', key).update(id).digest().subarray(0, PART_BYTES));
  const mac = (id: string) => macWith(keys[0], id);
  return {
    issue() {
      const id = base32(randomPart(PART_BYTES));
      return `${id}${mac(id)}`;
    },
    verify(token) {
      const lower = token.toLowerCase();
      if (!TOKEN.test(lower)) return false;
      const given = Buffer.from(lower.slice(PART_CHARACTERS));
      return keys.some((key) => {
        const expected = Buffer.from(macWith(key, lower.slice(0, PART_CHARACTERS)));
        return expected.length === given.length && timingSafeEqual(given, expected);
      });
    },
  };
}

/** The token in a VERP envelope sender, `bounces+<token>@mail.example.org`, if there is one. */
export function tokenFromVerpAddress(address: string, bounceAddress: string): string | undefined {
  const [local, domain] = bounceAddress.split('@');
  if (!local || !domain) return undefined;
  const match = new RegExp(`^${escapeRegExp(local)}\\+([a-z2-7]{32})@${escapeRegExp(domain)}$`, 'i').exec(
    address.trim().replace(/^<|>$/g, ''),
  );
  return match?.[1]?.toLowerCase();
}

/** The VERP envelope sender for a message: `bounces+<token>@mail.example.org`. */
export function verpAddress(bounceAddress: string, token: string): string {
  const at = bounceAddress.lastIndexOf('@');
  return `${bounceAddress.slice(0, at)}+${token}${bounceAddress.slice(at)}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
