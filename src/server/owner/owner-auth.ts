// Signing owners in without passwords: one-time links and session cookies, both random secrets of
// 256 bits that the database keeps only as SHA-256 hashes (decision 024).
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A sign-in link works once, for this long. */
export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60_000;
/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 12 * 3_600_000;
/** Everything the owner sees lives under this path; the session cookie is sent to nothing else. */
export const OWNER_PATH = '/owner';
export const SIGN_IN_PATH = `${OWNER_PATH}/sign-in`;
export const SESSION_COOKIE = 'scamsavvy_owner';

/** An owner's address: loose enough for any real one, strict enough to catch a missing @. */
export const OWNER_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A secret we made looks like this; anything else is refused before the database is asked. */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function signInLink(siteUrl: string, token: string): string {
  return `${siteUrl}${SIGN_IN_PATH}/${token}`;
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page or link
 * sends it), Secure over HTTPS, for the owner's paths only. No Max-Age: the server ends it after
 * 12 idle hours, and the browser forgets it when it closes.
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.setCookie(SESSION_COOKIE, value, {
    path: OWNER_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: OWNER_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
  });
}

/**
 * True when a POST comes from one of our own pages: its Origin (which browsers send with every POST)
 * is this site's, by the address it was asked at or by SITE_URL. Without an Origin, the Fetch
 * Metadata header must say same-origin; a request with neither is refused.
 */
export function sameOrigin(request: FastifyRequest, siteUrl: string): boolean {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    const own = `${request.protocol}://${request.host}`;
    return origin === own || origin === new URL(siteUrl).origin;
  }
  return request.headers['sec-fetch-site'] === 'same-origin';
}
