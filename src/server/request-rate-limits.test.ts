import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Config } from './config.js';
import { clientKey, OWNER_SIGN_IN_ATTEMPTS, rateLimitedMessage } from './request-rate-limits.js';
import { buildTestApp } from './test/build-test-app.js';
import { testRedisUrl } from './test/store-engines.js';

async function appWith(rateLimit: Partial<Config['rateLimit']>, extra: Partial<Config> = {}, redis?: Redis) {
  const { app, db: store } = await buildTestApp({
    config: {
      rateLimit: { perMinute: 0, perHour: 0, redisUrl: undefined, eventsPerMinute: 0, ...rateLimit },
      ...extra,
    },
    ...(redis ? { redis } : {}),
  });
  return { app, store };
}

let emailCounter = 0;
function signUp(app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) {
  emailCounter += 1;
  return app.inject({
    method: 'POST',
    url: '/api/signups',
    remoteAddress,
    headers,
    payload: { name: 'Rosa Díaz', phone: '+15551234567', email: `rosa${emailCounter}@example.com`, openedForMs: 5000 },
  });
}

/** An address no other test run uses, so counters kept in Redis never carry over. */
function randomAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

describe('sign-up rate limits', () => {
  it('answers 429 past the per-minute limit, per client address, storing nothing more', async () => {
    const { app, store } = await appWith({ perMinute: 2 });
    const client = randomAddress();
    expect((await signUp(app, client)).statusCode).toBe(201);
    expect((await signUp(app, client)).statusCode).toBe(201);
    const limited = await signUp(app, client);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: rateLimitedMessage } });
    expect(await store.signups.count()).toBe(2);
    expect((await signUp(app, randomAddress())).statusCode).toBe(201);
  });

  it('says the same words, with no headers, whichever limit fired', async () => {
    const byMinute = await appWith({ perMinute: 1, perHour: 100 });
    const byHour = await appWith({ perMinute: 100, perHour: 1 });
    const client = randomAddress();
    await signUp(byMinute.app, client);
    await signUp(byHour.app, client);
    const [minute, hour] = [await signUp(byMinute.app, client), await signUp(byHour.app, client)];
    expect(minute.statusCode).toBe(429);
    expect(hour.statusCode).toBe(429);
    expect(minute.body).toBe(hour.body);
    for (const response of [minute, hour]) {
      expect(Object.keys(response.headers).filter((name) => /ratelimit|retry-after/i.test(name))).toEqual([]);
    }
  });

  it('turns a limit off at 0', async () => {
    const { app } = await appWith({ perMinute: 0, perHour: 0 });
    const client = randomAddress();
    for (let index = 0; index < 30; index += 1) expect((await signUp(app, client)).statusCode).toBe(201);
  });

  it('counts the socket address, ignoring X-Forwarded-For unless TRUST_PROXY trusts the proxy', async () => {
    const untrusting = await appWith({ perMinute: 1 });
    const proxy = randomAddress();
    expect((await signUp(untrusting.app, proxy, { 'x-forwarded-for': randomAddress() })).statusCode).toBe(201);
    expect((await signUp(untrusting.app, proxy, { 'x-forwarded-for': randomAddress() })).statusCode).toBe(429);

    const trusting = await appWith({ perMinute: 1 }, { trustProxy: [proxy] });
    expect((await signUp(trusting.app, proxy, { 'x-forwarded-for': randomAddress() })).statusCode).toBe(201);
    expect((await signUp(trusting.app, proxy, { 'x-forwarded-for': randomAddress() })).statusCode).toBe(201);
  });

  it('lets sign-ups through when Redis cannot be reached, rather than lose them', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    unreachable.on('error', () => undefined);
    const { app, store } = await appWith({ perMinute: 1 }, {}, unreachable);
    const client = randomAddress();
    expect((await signUp(app, client)).statusCode).toBe(201);
    expect((await signUp(app, client)).statusCode).toBe(201);
    expect(await store.signups.count()).toBe(2);
  });
});

describe.skipIf(!testRedisUrl)('sign-up rate limits shared through Redis', () => {
  it('two instances on one Redis enforce one limit', async () => {
    const first = await appWith({ perMinute: 3 }, {}, new Redis(testRedisUrl ?? ''));
    const second = await appWith({ perMinute: 3 }, {}, new Redis(testRedisUrl ?? ''));
    const client = randomAddress();
    expect((await signUp(first.app, client)).statusCode).toBe(201);
    expect((await signUp(second.app, client)).statusCode).toBe(201);
    expect((await signUp(first.app, client)).statusCode).toBe(201);
    expect((await signUp(second.app, client)).statusCode).toBe(429);
    expect((await signUp(first.app, client)).statusCode).toBe(429);
    expect((await first.store.signups.count()) + (await second.store.signups.count())).toBe(3);
  });

  it(`two instances on one Redis share the owner's ${OWNER_SIGN_IN_ATTEMPTS} sign-in attempts`, async () => {
    const first = await appWith({}, {}, new Redis(testRedisUrl ?? ''));
    const second = await appWith({}, {}, new Redis(testRedisUrl ?? ''));
    const client = randomAddress();
    const attempt = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/owner/sign-in',
        remoteAddress: client,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://scamsavvy.example' },
        payload: 'email=owner%40example.com',
      });
    for (let index = 0; index < OWNER_SIGN_IN_ATTEMPTS; index += 1)
      expect((await attempt(index % 2 === 0 ? first.app : second.app)).statusCode).toBe(303);
    expect((await attempt(first.app)).statusCode).toBe(429);
    expect((await attempt(second.app)).statusCode).toBe(429);
  });
});

describe('clientKey', () => {
  it('counts IPv4 addresses as they are, and IPv6 clients per /64', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
