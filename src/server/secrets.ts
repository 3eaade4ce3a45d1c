// The random secrets the product makes (owners' sign-in links and sessions, API keys) and what the
// database keeps of them: a SHA-256 hash, so a copy of the database opens nothing.
import { createHash, randomBytes } from 'node:crypto';

/**
 * 32 random bytes, base64url: a secret nobody can guess, short enough for a link. Drawn again until
 * it has no "-" (about two draws): one word of 43 characters, which no spam filter takes for a
 * Bitcoin address in the sign-in email (SpamAssassin's PDS_BTC_ID looks for 26 to 35 between word
 * boundaries, and a "-" is one: issue 55). It costs the secret under one bit of its 256.
 */
export function newSecret(): string {
  for (;;) {
    const secret = randomBytes(32).toString('base64url');
    if (!secret.includes('-')) return secret;
  }
}

/** What the database keeps of a secret. */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');
