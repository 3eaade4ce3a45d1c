// Test helper: a signed-in owner for in-process tests, signed in as an owner really is (a one-time
// link made the way `sudo scamsavvy owner:link` makes one, then its page's POST).
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../db/open-database.js';
import { SESSION_COOKIE, SIGN_IN_LINK_LIFETIME_MS } from '../owner/owner-auth.js';
import { newSecret, secretHash } from '../secrets.js';

export const TEST_OWNER = 'owner@example.com';

/**
 * Adds the owner if they are not one yet, signs them in with a fresh link, and returns the Cookie
 * header that carries their session (`scamsavvy_owner=…`).
 */
export async function signInAsOwner(
  app: FastifyInstance,
  db: Pick<Db, 'owners'>,
  email: string = TEST_OWNER,
): Promise<string> {
  await db.owners.add(email);
  const owner = await db.owners.byEmail(email);
  if (!owner) throw new Error(`${email} could not be added as an owner.`);
  const token = newSecret();
  await db.owners.createLink(owner.id, secretHash(token), SIGN_IN_LINK_LIFETIME_MS);
  const response = await app.inject({
    method: 'POST',
    url: `/owner/sign-in/${token}`,
    // A same-origin POST whatever SITE_URL the test's app has (the Fetch Metadata header, not an Origin).
    headers: { 'sec-fetch-site': 'same-origin' },
  });
  expect(response.statusCode).toBe(303);
  const cookie = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
  expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return `${SESSION_COOKIE}=${cookie?.value ?? ''}`;
}
