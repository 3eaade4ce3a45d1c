// Per-client limits on sign-ups and event beacons: in memory for one instance, in Redis when several share the work.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimitConfig } from './config.js';
import { AppError } from './errors.js';

/**
 * The address a limit counts against. IPv6 clients are counted per /64, since one home or phone
 * is given a whole /64 and could otherwise step around the limit by changing address.
 */
export function clientKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (!address.includes(':')) return address;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) return address.slice(7);
  const [head = '', tail] = address.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const parts =
    tail === undefined
      ? headParts
      : [...headParts, ...Array<string>(8 - headParts.length - tailParts.length).fill('0'), ...tailParts];
  return `${parts
    .slice(0, 4)
    .map((part) => parseInt(part || '0', 16).toString(16))
    .join(':')}::/64`;
}

export const rateLimitedMessage = 'Too many sign-ups from this connection. Please wait a little and try again.';
export const eventsRateLimitedMessage = 'Too many event batches from this connection.';

/**
 * Registers the rate-limit plugin and returns the pre-handler for POST /api/signups, which counts
 * the request against every window that is switched on. (The plugin's own per-route hook runs
 * only once per request, so two windows are checked here with its `createRateLimit`.) A limited
 * request gets 429 with the same words and no headers, whichever limit it hit. If Redis is
 * unreachable, sign-ups are let through rather than refused: losing a real sign-up is worse than
 * letting a burst in.
 */
export async function signupRateLimits(
  app: FastifyInstance,
  { perMinute, perHour }: RateLimitConfig,
  redis: Redis | undefined,
): Promise<preHandlerAsyncHookHandler[]> {
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'scamsavvy-signups:' } : {}),
    skipOnError: true,
  });
  const windows = [
    { name: 'minute', max: perMinute, timeWindow: 60_000 },
    { name: 'hour', max: perHour, timeWindow: 3_600_000 },
  ].filter((window) => window.max > 0);
  if (windows.length === 0) return [];
  const limiters = windows.map(({ name, max, timeWindow }) =>
    app.createRateLimit({ max, timeWindow, keyGenerator: (request) => `${name}:${clientKey(request.ip)}` }),
  );
  const checkLimits: preHandlerAsyncHookHandler = async (request) => {
    const results = await Promise.all(limiters.map((limiter) => limiter(request)));
    if (results.some((result) => !result.isAllowed && result.isExceeded)) {
      throw new AppError(429, 'rate_limited', rateLimitedMessage);
    }
  };
  return [checkLimits];
}

/**
 * The pre-handler for POST /api/events: `perMinute` batches per client address per minute (0: no
 * limit), counted apart from sign-ups (their own keys in the same memory or Redis store), so a
 * chatty page never uses up anyone's sign-up allowance. It needs the plugin that
 * `signupRateLimits` registered, and fails open the same way when Redis is away.
 */
export function eventRateLimits(app: FastifyInstance, perMinute: number): preHandlerAsyncHookHandler[] {
  return perMinuteLimit(app, perMinute, 'events', eventsRateLimitedMessage);
}

/** `perMinute` requests per client address per minute under keys of `name` (0: none); past it, 429 with `message`. */
function perMinuteLimit(
  app: FastifyInstance,
  perMinute: number,
  name: string,
  message: string,
): preHandlerAsyncHookHandler[] {
  if (!app.hasDecorator('createRateLimit')) throw new Error('Register the rate-limit plugin (signupRateLimits) first.');
  if (perMinute === 0) return [];
  const limiter = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `${name}:${clientKey(request.ip)}`,
  });
  const checkLimit: preHandlerAsyncHookHandler = async (request) => {
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) throw new AppError(429, 'rate_limited', message);
  };
  return [checkLimit];
}

export const webhooksRateLimitedMessage = 'Too many reports from this address: send them again in a minute.';

/**
 * The pre-handler for the webhook routes: `perMinute` requests per sending address per minute (0:
 * no limit), in the same memory or Redis store under keys of their own. Generous, since a provider
 * sends a launch's reports from a few addresses; a provider told 429 sends the report again later,
 * so nothing is lost, and a stranger's flood of forged requests (each a signature check, an SNS
 * certificate fetch) is cut short. It fails open like the others when Redis is away.
 */
export function webhookRateLimits(app: FastifyInstance, perMinute: number): preHandlerAsyncHookHandler[] {
  return perMinuteLimit(app, perMinute, 'webhooks', webhooksRateLimitedMessage);
}

/** Sign-in attempts on the owner's pages (asking for a link, using one) per client address per window. */
export const OWNER_SIGN_IN_ATTEMPTS = 10;
export const OWNER_SIGN_IN_WINDOW_MS = 15 * 60_000;

/**
 * Counts an owner's sign-in attempt against the connection's allowance, in the same memory or Redis
 * store as the other limits (registered by `signupRateLimits`), under keys of its own. Resolves
 * false once the allowance is used up. Unlike sign-ups, a Redis outage does not open the door wide:
 * the plugin's skipOnError lets the attempt through, but a link still works only once and only for
 * its owner's inbox.
 */
export function ownerSignInLimit(app: FastifyInstance): (request: FastifyRequest) => Promise<boolean> {
  if (!app.hasDecorator('createRateLimit')) throw new Error('Register the rate-limit plugin (signupRateLimits) first.');
  const limiter = app.createRateLimit({
    max: OWNER_SIGN_IN_ATTEMPTS,
    timeWindow: OWNER_SIGN_IN_WINDOW_MS,
    keyGenerator: (request) => `owner-sign-in:${clientKey(request.ip)}`,
  });
  return async (request) => {
    const result = await limiter(request);
    return result.isAllowed || !result.isExceeded;
  };
}

/**
 * Requests through the API (/api/v1) per API key per minute, in the same memory or Redis store under
 * keys of their own; `keyOf` names the key a request was let in with. Resolves false past the
 * allowance. Like the owner's sign-in, a Redis outage lets the request through (the key is still checked).
 */
export function apiKeyLimit(
  app: FastifyInstance,
  perMinute: number,
  keyOf: (request: FastifyRequest) => string,
): (request: FastifyRequest) => Promise<boolean> {
  if (!app.hasDecorator('createRateLimit')) throw new Error('Register the rate-limit plugin (signupRateLimits) first.');
  const limiter = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `api-key:${keyOf(request)}`,
  });
  return async (request) => {
    const result = await limiter(request);
    return result.isAllowed || !result.isExceeded;
  };
}
