// /api/v1 in-process on both engines: keys (https, scope, revocation, the per-key allowance, the
// audit log), the list cursor-paged newest first, one person and everything held about them, the
// dashboard's deletion, and a sign-up from another channel through the page's rules with its evidence.
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestSettings } from '../test/build-test-app.js';
import { storeEngines } from '../test/store-engines.js';
import type { Db } from '../db/open-database.js';
import { makeApiKey } from './api-keys.js';
import { consentTextsNow } from '../consent/consent-texts.js';
import { SIGNUP_CONSENT_VERSION, signupConsentWords } from '../../shared/consent-words.js';

const KEY = 'a test secret that is at least 32 characters long';
const messaging = {
  secretKey: KEY,
  emailConfirmation: false,
  unconfirmedRetentionDays: 30,
  confirmationReminderDays: 7,
};

async function keyOf(db: Db, name: string, scope: 'read' | 'write'): Promise<string> {
  const made = await makeApiKey(db, { name, scope, by: 'owner@example.com' });
  if (made === 'name_taken') throw new Error('taken');
  return made.key;
}

const call = (
  app: FastifyInstance,
  key: string | undefined,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
) =>
  app.inject({
    method,
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const evidence = {
  words: 'Yes, tell me when ScamSavvy launches, by text and email. Reply STOP to stop.',
  version: 'partner-2026-11',
  at: '2026-11-29T10:00:00Z',
  source: 'https://partner.example/join',
  ip: '203.0.113.7',
};
const newSignup = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'Rosa Partner',
  email,
  phone: '+1 212 555 0142',
  consent: evidence,
  ...extra,
});

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`/api/v1 on ${engine.name}`, () => {
    const build = (config: TestSettings = {}) => buildTestApp({ engine, config: { messaging, ...config } });

    it('lets a key in only over https or from this computer, and never a revoked or unknown one', async () => {
      const { app, db } = await build();
      const key = await keyOf(db, 'Zapier', 'read');
      const missing = await call(app, undefined, 'GET', '/api/v1/signups');
      expect(missing.statusCode).toBe(401);
      expect(missing.headers['content-type']).toContain('application/problem+json');
      expect(missing.headers['www-authenticate']).toContain('Bearer');
      expect(missing.json()).toMatchObject({
        status: 401,
        code: 'key_missing',
        type: 'urn:scamsavvy:problem:key_missing',
      });

      expect((await call(app, key, 'GET', '/api/v1/signups')).statusCode).toBe(200);
      // From another computer over plain http: refused before the key is even looked up.
      const plain = await app.inject({
        method: 'GET',
        url: '/api/v1/signups',
        remoteAddress: '198.51.100.4',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(plain.statusCode).toBe(403);
      expect(plain.json().code).toBe('https_required');
      const unknown = await call(app, `ssk_${'A'.repeat(43)}`, 'GET', '/api/v1/signups');
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json().code).toBe('key_unknown');

      expect(await db.apiKeys.revoke('Zapier')).toBe(true);
      expect((await call(app, key, 'GET', '/api/v1/signups')).statusCode).toBe(401);
      const [listed] = await db.apiKeys.list();
      expect(listed).toMatchObject({ name: 'Zapier', scope: 'read', keyEnd: key.slice(-4) });
      expect(listed?.revokedAt).not.toBeNull();
      expect(listed?.lastUsedAt).not.toBeNull();
    });

    it('answers https through a proxy it trusts', async () => {
      const { app, db } = await build({ trustProxy: ['127.0.0.1'] });
      const key = await keyOf(db, 'CRM', 'read');
      const through = (proto: string) =>
        app.inject({
          method: 'GET',
          url: '/api/v1/signups',
          headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '198.51.100.4', 'x-forwarded-proto': proto },
        });
      expect((await through('https')).statusCode).toBe(200);
      expect((await through('http')).statusCode).toBe(403);
    });

    it('pages the list newest first by cursor, with since, and writes each read in the audit log', async () => {
      const { app, db } = await build();
      const key = await keyOf(db, 'Sheets', 'read');
      for (let n = 1; n <= 5; n += 1)
        await db.signups.add({ name: `Person ${n}`, email: `p${n}@example.com`, phone: '', betaTesting: false });
      const seen: string[] = [];
      let url = '/api/v1/signups?limit=2';
      for (let pages = 0; pages < 10; pages += 1) {
        const page = await call(app, key, 'GET', url);
        expect(page.statusCode).toBe(200);
        expect(page.headers['cache-control']).toBe('no-store');
        const body = page.json() as { data: { email: string; launchEmail: string }[]; nextCursor: string | null };
        expect(body.data.length).toBeLessThanOrEqual(2);
        seen.push(...body.data.map((person) => person.email));
        if (body.nextCursor === null) break;
        url = `/api/v1/signups?limit=2&cursor=${body.nextCursor}`;
      }
      expect(seen).toEqual(['p5@example.com', 'p4@example.com', 'p3@example.com', 'p2@example.com', 'p1@example.com']);
      const all = (await call(app, key, 'GET', '/api/v1/signups')).json();
      expect(all.data[0]).toMatchObject({ launchEmail: 'yes', launchText: expect.any(String) });

      const future = await call(app, key, 'GET', '/api/v1/signups?since=2999-01-01');
      expect(future.json()).toEqual({ data: [], nextCursor: null });
      for (const bad of [
        'limit=0',
        'limit=501',
        'limit=x',
        'since=yesterday',
        'cursor=%2F%2F',
        `cursor=${Buffer.from('p-1').toString('base64url')}`,
      ]) {
        const refused = await call(app, key, 'GET', `/api/v1/signups?${bad}`);
        expect(refused.statusCode, bad).toBe(400);
        expect(refused.headers['content-type']).toContain('application/problem+json');
      }

      const log = await db.owners.auditLog(50);
      const reads = log.filter((entry) => entry.action === 'api_read');
      expect(reads.length).toBeGreaterThanOrEqual(4);
      expect(reads.every((entry) => entry.ownerEmail === 'API key "Sheets"')).toBe(true);
      expect(JSON.stringify(log)).not.toContain('p5@example.com');
    });

    it('gives one person, and everything held about them, and 404 for nobody', async () => {
      const { app, db } = await build();
      const key = await keyOf(db, 'CRM', 'read');
      await db.signups.add({
        name: 'Ann Example',
        email: 'ann@example.com',
        phone: '+12125550142',
        betaTesting: true,
        consentVersion: '2026-11-29',
      });
      const ann = (await db.subscribers.subscriberByEmailKey('ann@example.com'))!;
      const one = await call(app, key, 'GET', `/api/v1/signups/${ann.id}`);
      expect(one.json().data).toMatchObject({
        id: ann.id,
        email: 'ann@example.com',
        betaTesting: true,
        consentVersion: '2026-11-29',
      });
      const everything = (await call(app, key, 'GET', `/api/v1/signups/${ann.id}/export`)).json();
      expect(everything.signup.id).toBe(ann.id);
      expect(everything.consentHistory).toEqual([
        expect.objectContaining({
          kind: 'signed_up',
          source: 'signup_form',
          consentVersion: '2026-11-29',
          evidence: null,
        }),
      ]);
      expect(everything.messages).toEqual([]);
      expect(everything.joinedThrough).toBe(0);
      for (const url of ['/api/v1/signups/not-an-id', '/api/v1/signups/00000000-0000-4000-8000-000000000000/export'])
        expect((await call(app, key, 'GET', url)).json()).toMatchObject({ status: 404, code: 'not_found' });
      expect((await call(app, key, 'GET', '/api/v1/nothing')).json().code).toBe('no_such_route');
    });

    it('lets only a write key add or delete; a deletion keeps the "no" against a sign-up that follows', async () => {
      const { app, db, product } = await build();
      const reader = await keyOf(db, 'Reader', 'read');
      const writer = await keyOf(db, 'Partner page', 'write');
      const refused = await call(app, reader, 'POST', '/api/v1/signups', newSignup('rosa@example.com'));
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('needs_write_scope');
      expect(await db.signups.count()).toBe(0);

      const added = await call(app, writer, 'POST', '/api/v1/signups', newSignup('rosa@example.com'));
      expect(added.statusCode).toBe(202);
      expect(added.json()).toEqual({ status: 'accepted' });
      const rosa = (await db.subscribers.subscriberByEmailKey('rosa@example.com'))!;
      expect(rosa.phone).toBe('+12125550142');
      const [line] = await db.consentEvents.history(rosa.id);
      expect(line).toMatchObject({
        kind: 'signed_up',
        source: 'api',
        consentVersion: 'partner-2026-11',
        evidence: {
          words: evidence.words,
          version: 'partner-2026-11',
          agreedAt: '2026-11-29T10:00:00.000Z',
          source: 'https://partner.example/join',
          ip: '203.0.113.7',
          apiKey: 'Partner page',
          receivedAt: expect.any(String),
        },
      });

      expect((await call(app, reader, 'DELETE', `/api/v1/signups/${rosa.id}`)).statusCode).toBe(403);
      const deleted = await call(app, writer, 'DELETE', `/api/v1/signups/${rosa.id}`);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.headers['cache-control']).toBe('no-store');
      expect((await call(app, writer, 'DELETE', `/api/v1/signups/${rosa.id}`)).statusCode).toBe(404);
      // A stranger (or the partner) typing the address again speaks for nobody: the deletion's "no" holds.
      expect((await call(app, writer, 'POST', '/api/v1/signups', newSignup('rosa@example.com'))).statusCode).toBe(202);
      const again = (await db.subscribers.subscriberByEmailKey('rosa@example.com'))!;
      expect(await product.messaging.subscriptions.mayContact(again, 'email')).toBe(false);
      const log = await db.owners.auditLog(20);
      expect(log.map((entry) => [entry.ownerEmail, entry.action])).toEqual(
        expect.arrayContaining([
          ['API key "Partner page"', 'api_added'],
          ['API key "Partner page"', 'deleted_person'],
        ]),
      );
    });

    it('answers a repeat as it answers someone new, and never undoes a "no"', async () => {
      const { app, db, product } = await build();
      const writer = await keyOf(db, 'Tablet', 'write');
      expect((await call(app, writer, 'POST', '/api/v1/signups', newSignup('pat@example.com'))).statusCode).toBe(202);
      const pat = (await db.subscribers.subscriberByEmailKey('pat@example.com'))!;
      await product.messaging.subscriptions.leave(pat.id, 'preferences_page');
      const repeat = await call(
        app,
        writer,
        'POST',
        '/api/v1/signups',
        newSignup('pat@example.com', { betaTesting: true }),
      );
      expect(repeat.statusCode).toBe(202);
      expect(repeat.body).toBe(JSON.stringify({ status: 'accepted' }));
      const after = (await db.subscribers.subscriberByEmailKey('pat@example.com'))!;
      expect(after.leftAt).not.toBeNull();
      expect(await product.messaging.subscriptions.mayContact(after, 'email')).toBe(false);
    });

    it('refuses a sign-up without its evidence, or with a bad one, saying which field and storing nothing', async () => {
      const { app, db } = await build();
      const writer = await keyOf(db, 'Partner', 'write');
      const cases: [unknown, string][] = [
        [{ name: 'Rosa Partner', email: 'r@example.com', phone: '+12125550142' }, 'consent'],
        [newSignup('r@example.com', { consent: { ...evidence, words: '' } }), 'consent.words'],
        [newSignup('r@example.com', { consent: { ...evidence, at: 'yesterday' } }), 'consent.at'],
        [newSignup('r@example.com', { consent: { ...evidence, at: '2999-01-01T00:00:00Z' } }), 'consent.at'],
        [newSignup('r@example.com', { consent: { ...evidence, ip: 'not an address' } }), 'consent.ip'],
        [newSignup('not an email'), 'email'],
        [newSignup('r@example.com', { phone: '555 0142' }), 'phone'],
      ];
      for (const [body, field] of cases) {
        const answer = await call(app, writer, 'POST', '/api/v1/signups', body);
        expect(answer.statusCode, field).toBe(400);
        expect(answer.json().fields, field).toHaveProperty([field]);
      }
      const extra = await call(app, writer, 'POST', '/api/v1/signups', newSignup('r@example.com', { id: 'mine' }));
      expect(extra.statusCode).toBe(400);
      expect(extra.json().detail).toContain('Unknown field: id');
      const notJson = await app.inject({
        method: 'POST',
        url: '/api/v1/signups',
        headers: { authorization: `Bearer ${writer}`, 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expect(notJson.statusCode).toBe(415);
      expect(notJson.json().code).toBe('unsupported_media_type');
      const huge = await call(
        app,
        writer,
        'POST',
        '/api/v1/signups',
        newSignup('r@example.com', { name: 'x'.repeat(20_000) }),
      );
      expect(huge.statusCode).toBe(413);
      expect(await db.signups.count()).toBe(0);
    });

    it('takes our own form’s version in place of the words, quoting them, and refuses a version it does not know', async () => {
      const { app, db } = await build();
      expect(await db.consentTexts.keep(consentTextsNow())).toEqual([]);
      const writer = await keyOf(db, 'Tablet', 'write');
      const { words: _words, version: _version, ...rest } = evidence;
      const ours = await call(
        app,
        writer,
        'POST',
        '/api/v1/signups',
        newSignup('ours@example.com', {
          language: 'es',
          consent: { ...rest, version: SIGNUP_CONSENT_VERSION },
        }),
      );
      expect(ours.statusCode).toBe(202);
      const person = (await db.subscribers.subscriberByEmailKey('ours@example.com'))!;
      const [line] = await db.consentEvents.history(person.id);
      expect(line?.evidence).toMatchObject({
        words: `${signupConsentWords.es.consentDetails}\n${signupConsentWords.es.consent}`,
        version: SIGNUP_CONSENT_VERSION,
      });
      const unknown = await call(
        app,
        writer,
        'POST',
        '/api/v1/signups',
        newSignup('other@example.com', {
          consent: { ...rest, version: 'partner-1' },
        }),
      );
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().fields).toHaveProperty(['consent.version']);
      expect(await db.subscribers.subscriberByEmailKey('other@example.com')).toBeUndefined();
    });

    it('holds each key to its own allowance per minute', async () => {
      const { app, db } = await build({
        rateLimit: { perMinute: 0, perHour: 0, redisUrl: undefined, eventsPerMinute: 0, apiPerMinute: 3 },
      });
      const first = await keyOf(db, 'One', 'read');
      const second = await keyOf(db, 'Two', 'read');
      for (let n = 0; n < 3; n += 1) expect((await call(app, first, 'GET', '/api/v1/signups')).statusCode).toBe(200);
      const limited = await call(app, first, 'GET', '/api/v1/signups');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect(limited.json().code).toBe('rate_limited');
      expect((await call(app, second, 'GET', '/api/v1/signups')).statusCode).toBe(200);
    });
  });
}
