// The owner's pages in-process, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: every route
// refuses an anonymous request, signing in by a one-time link through a real SMTP server on
// loopback, the session cookie, same-origin POSTs, the rate limit, and what is written in the audit log.
import { randomUUID } from 'node:crypto';
import { LANGUAGE_SCRIPT_HASH, TEXT_SIZE_SCRIPT_HASH } from '../security-headers.js';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { changeState } from '../broadcast/broadcast-rules.js';
import { newSecret, secretHash } from '../secrets.js';
import { OWNER_SIGN_IN_ATTEMPTS } from '../request-rate-limits.js';
import type { Db } from '../db/open-database.js';
import type { DatabaseConfig } from '../config.js';
import { rawSql } from '../test/raw-sql.js';
import { signInAsOwner, TEST_OWNER } from '../test/sign-in-as-owner.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { storeEngines, type StoreEngine } from '../test/store-engines.js';

import { SITE } from '../test/site.js';
import { DAYTIME, testClock } from '../test/clock.js';
const SAME_ORIGIN = { origin: SITE };
const OWNER = TEST_OWNER;

let app: FastifyInstance | undefined;
let sink: SmtpSink | undefined;
afterEach(async () => {
  await app?.close();
  await sink?.stop();
  app = undefined;
  sink = undefined;
});

interface SetUp {
  app: FastifyInstance;
  store: Db;
  database: DatabaseConfig;
  routes: RouteOptions[];
}

async function setUp(
  engine: StoreEngine,
  { mail = false, trustProxy = false, now }: { mail?: boolean; trustProxy?: boolean; now?: () => Date } = {},
): Promise<SetUp> {
  const routes: RouteOptions[] = [];
  if (mail) sink = await startSmtpSink();
  let store: Db;
  let database: DatabaseConfig;
  ({
    app,
    db: store,
    database,
  } = await buildTestApp({
    engine,
    // With email set up, the product's sign-in mailer sends the links to the sink.
    config: {
      trustProxy,
      siteUrl: SITE,
      ...(sink ? { messaging: { email: { smtpUrl: sink.url, from: 'ScamSavvy <hi@scamsavvy.example>' } } } : {}),
    },
    database: now ? { now } : {},
    keepOpen: true,
    onRoute: (route) => routes.push(route),
  }));
  await store.owners.add(OWNER);
  await store.signups.add({ name: 'Rosa Díaz', phone: '+15551234567', email: 'rosa@example.com', betaTesting: true });
  await store.broadcasts.create({
    name: 'launch',
    template: 'launch',
    segment: 'all',
    channels: ['email'],
    confirmation: 'everyone',
    content: { subject: 'It is here', text: 'Text', html: '<p>HTML</p>', sms: 'SMS' },
  });
  return { app, store, database, routes };
}

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...SAME_ORIGIN },
  payload: new URLSearchParams(fields).toString(),
});

/** The routes that answer without a session: the sign-in pages, and nothing else. */
const PUBLIC_ROUTES = [
  'GET /owner/sign-in',
  'POST /owner/sign-in',
  'GET /owner/sign-in/sent',
  'GET /owner/sign-in/:token',
  'POST /owner/sign-in/:token',
];

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`on ${engine.name}`, () => {
    describe('without a session', () => {
      it('every owner route the server registers refuses: pages and their forms redirect to sign-in, data answers 401', async () => {
        const setup = await setUp(engine);
        const person = (await setup.store.subscribers.subscriberByEmailKey('rosa@example.com'))?.id ?? '';
        const ownerRoutes = setup.routes
          .filter((route) => route.url.startsWith('/owner'))
          .flatMap((route) =>
            (Array.isArray(route.method) ? route.method : [route.method]).map((method) => `${method} ${route.url}`),
          )
          .filter((route) => !route.startsWith('HEAD '));
        expect(ownerRoutes.length).toBeGreaterThan(PUBLIC_ROUTES.length + 10);
        expect(ownerRoutes.filter((route) => route.includes('/sign-in'))).toEqual(PUBLIC_ROUTES);
        const guarded = ownerRoutes.filter((route) => !PUBLIC_ROUTES.includes(route));
        // Real values for every parameter, so a refusal is never a 404 for a missing thing.
        const filled = (url: string) =>
          url.replace(':id', person).replace(':name', 'launch').replace(':action', 'send');
        const checked: string[] = [];
        const sessions = [undefined, newSecret(), 'not-a-session'];
        for (const route of guarded) {
          const [method, url] = route.split(' ') as ['GET' | 'POST', string];
          for (const session of sessions) {
            const response = await setup.app.inject({
              method,
              url: filled(url),
              headers: { ...SAME_ORIGIN, ...(session ? { cookie: `scamsavvy_owner=${session}` } : {}) },
            });
            // Pages and their forms go to the sign-in page; data (the progress, the exports) is 401.
            const isData = /\/progress$|\/export\.(csv|json)$/.test(url);
            const refused = isData
              ? response.statusCode === 401
              : response.statusCode === 303 && response.headers.location === '/owner/sign-in';
            expect(
              refused,
              `${route} with ${session ? 'a made-up session' : 'no session'}: ${response.statusCode}`,
            ).toBe(true);
            expect(response.body).not.toContain('rosa@example.com');
            expect(response.headers['cache-control']).toBe('no-store');
          }
          checked.push(route);
        }
        expect(checked).toEqual(guarded);
        // Nothing changed: the person is still there, the broadcast was not started.
        expect(await setup.store.subscribers.subscriber(person)).toBeDefined();
        expect((await setup.store.broadcasts.get('launch'))?.state).toBe('ready');
      });

      it('a session that was signed out is refused like none at all', async () => {
        const setup = await setUp(engine);
        const ownerCookie = await signInAsOwner(setup.app, setup.store);
        const cookie = { cookie: ownerCookie };
        expect((await setup.app.inject({ url: '/owner', headers: cookie })).statusCode).toBe(200);
        const out = await setup.app.inject({
          method: 'POST',
          url: '/owner/sign-out',
          headers: { ...cookie, ...SAME_ORIGIN },
        });
        expect(out.statusCode).toBe(200);
        expect(out.cookies.find((candidate) => candidate.name === 'scamsavvy_owner')?.value).toBe('');
        const after = await setup.app.inject({ url: '/owner', headers: cookie });
        expect(after.statusCode).toBe(303);
        expect(after.headers.location).toBe('/owner/sign-in');
      });
    });

    describe('a send whose sender died', () => {
      it('says "Stopped: the server restarted" on its page and in its progress, and offers Resume', async () => {
        const setup = await setUp(engine);
        const cookie = { cookie: await signInAsOwner(setup.app, setup.store) };
        const broadcast = (await setup.store.broadcasts.get('launch'))!;
        // Sending, as a dashboard send leaves it, but the process that ran it is gone: no sender at all.
        expect(await changeState(setup.store.broadcasts, broadcast.id, 'start')).toBe(true);
        const page = (await setup.app.inject({ url: '/owner/broadcasts/launch', headers: cookie })).body;
        expect(page).toContain('Stopped: the server restarted');
        expect(page).toContain('href="/owner/broadcasts/launch/resume"');
        expect(page).not.toContain('href="/owner/broadcasts/launch/pause"');
        const progress = await setup.app.inject({ url: '/owner/broadcasts/launch/progress', headers: cookie });
        expect(progress.json()).toMatchObject({ state: 'stopped', stateLabel: 'Stopped: the server restarted' });
      });
    });

    describe('idle sessions', () => {
      it('the progress poll never keeps a session alive: after 12 hours without the owner, the poll and the page say why', async () => {
        const clock = testClock();
        const setup = await setUp(engine, { now: clock });
        const cookie = { cookie: await signInAsOwner(setup.app, setup.store) };
        const poll = () => setup.app.inject({ url: '/owner/broadcasts/launch/progress', headers: cookie });
        // A tab left open polls every 2 s for 12 hours: none of it counts as the owner being there.
        for (const hours of [1, 6, 11.9]) {
          clock.set(Date.parse(DAYTIME) + hours * 3_600_000);
          expect((await poll()).statusCode).toBe(200);
        }
        clock.set(Date.parse(DAYTIME) + 12.1 * 3_600_000);
        const refused = await poll();
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).toMatchObject({ error: { code: 'idle' } });
        const page = await setup.app.inject({ url: '/owner', headers: cookie });
        expect(page.headers.location).toBe('/owner/sign-in?idle=1');
        const signIn = await setup.app.inject({ url: '/owner/sign-in?idle=1' });
        expect(signIn.body).toContain('You were signed out after 12 hours idle.');
      });

      it('a page the owner opens does keep it alive', async () => {
        const clock = testClock();
        const setup = await setUp(engine, { now: clock });
        const cookie = { cookie: await signInAsOwner(setup.app, setup.store) };
        clock.set(Date.parse(DAYTIME) + 11 * 3_600_000);
        expect((await setup.app.inject({ url: '/owner', headers: cookie })).statusCode).toBe(200);
        clock.set(Date.parse(DAYTIME) + 20 * 3_600_000);
        expect((await setup.app.inject({ url: '/owner', headers: cookie })).statusCode).toBe(200);
      });
    });

    describe('signing in', () => {
      it('answers the same whether or not the address is an owner, and emails a link only to an owner', async () => {
        const setup = await setUp(engine, { mail: true });
        const asOwner = await setup.app.inject({
          method: 'POST',
          url: '/owner/sign-in',
          ...form({ email: 'Owner@Example.com' }),
        });
        const asStranger = await setup.app.inject({
          method: 'POST',
          url: '/owner/sign-in',
          ...form({ email: 'stranger@example.com' }),
        });
        for (const response of [asOwner, asStranger]) {
          expect(response.statusCode).toBe(303);
          expect(response.headers.location).toBe('/owner/sign-in/sent');
          expect(response.cookies).toEqual([]);
        }
        expect(asOwner.body).toBe(asStranger.body);
        const mail = await sink?.waitFor((received) => received.envelope.to.includes(OWNER));
        const link =
          mail?.parsed.text?.match(/https:\/\/scamsavvy\.example\/owner\/sign-in\/[A-Za-z0-9_-]{43}/)?.[0] ?? '';
        expect(link).not.toBe('');
        expect(mail?.parsed.html).toContain(link);
        // No list headers: this is not a list email.
        expect(mail?.parsed.headers.has('list-unsubscribe')).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(sink?.messages().map((received) => received.envelope.to)).toEqual([[OWNER]]);
        // The link opens a page with a button (a mail scanner's GET uses nothing) …
        const path = new URL(link).pathname;
        for (let visit = 0; visit < 2; visit += 1) {
          const page = await setup.app.inject({ url: path });
          expect(page.statusCode).toBe(200);
          expect(page.body).toContain('Sign me in');
        }
        // … whose POST signs in once.
        const first = await setup.app.inject({ method: 'POST', url: path, headers: SAME_ORIGIN });
        expect(first.statusCode).toBe(303);
        expect(first.headers.location).toBe('/owner');
        const setCookie = String(first.headers['set-cookie']);
        expect(setCookie).toMatch(/^scamsavvy_owner=[A-Za-z0-9_-]{43}; Path=\/owner; HttpOnly; SameSite=Strict$/);
        const again = await setup.app.inject({ method: 'POST', url: path, headers: SAME_ORIGIN });
        expect(again.statusCode).toBe(404);
        expect(again.cookies).toEqual([]);
        expect((await setup.app.inject({ url: path })).statusCode).toBe(404);
        expect((await setup.store.owners.auditLog(5)).map((entry) => [entry.ownerEmail, entry.action])).toEqual([
          [OWNER, 'signed_in'],
        ]);
      });

      // Issue 54: every message leaves through the one outbox, the owner's sign-in link too.
      it('sends the link through the one outbox: a row that names the owner, ended by what the mail server said', async () => {
        const setup = await setUp(engine, { mail: true });
        const owner = await setup.store.owners.byEmail(OWNER);
        const rows = async () =>
          (
            await rawSql(
              setup.database,
              "SELECT owner_id, signup_id, state, failure_kind, error FROM outbox WHERE kind = 'owner_sign_in' ORDER BY id",
            )
          ).map((row) => ({ ...row, owner_id: Number(row.owner_id) }) as Record<string, unknown>);
        const ask = () => setup.app.inject({ method: 'POST', url: '/owner/sign-in', ...form({ email: OWNER }) });
        await ask();
        await sink?.waitFor((received) => received.envelope.to.includes(OWNER));
        await expect.poll(async () => (await rows()).map((row) => row.state)).toEqual(['sent']);
        expect((await rows())[0]).toMatchObject({ owner_id: owner?.id, signup_id: null, error: null });
        // A stranger's address writes no row: the outbox holds only what was sent, or tried.
        await setup.app.inject({ method: 'POST', url: '/owner/sign-in', ...form({ email: 'stranger@example.com' }) });
        // "Not now" from the mail server: the link cannot be written again later (only its hash is
        // kept), so it is not retried; its row says why, and the owner asks again.
        sink?.rejectNext(451, '4.3.0 Try again later');
        await ask();
        await expect.poll(async () => (await rows()).map((row) => row.state)).toEqual(['sent', 'skipped']);
        expect(String((await rows())[1]?.error)).toMatch(/^not sent \(message\): .*4\.3\.0 Try again later/);
        // No such mailbox: the one judge says it is the address's, for good.
        sink?.rejectNext(550, '5.1.1 No such user');
        await ask();
        await expect
          .poll(async () => (await rows()).map((row) => row.state))
          .toEqual(['sent', 'skipped', 'failed_permanent']);
        expect((await rows())[2]?.failure_kind).toBe('recipient');
        expect(sink?.messages()).toHaveLength(1);
      });

      // Issue 54, path 13: the answer does no work an owner's address would add, so its time tells nothing.
      it("answers before it looks the address up or makes a link: an owner's address waits on nothing a stranger's does not", async () => {
        const setup = await setUp(engine, { mail: true });
        const { owners } = setup.store;
        let lookups = 0;
        const stalled = new Promise<never>(() => undefined);
        const byEmail = owners.byEmail.bind(owners);
        owners.byEmail = (email: string) => {
          lookups += 1;
          return byEmail(email);
        };
        // A link that would never be made: the answer must not wait for it.
        owners.createLink = () => stalled;
        const asOwner = await setup.app.inject({
          method: 'POST',
          url: '/owner/sign-in',
          ...form({ email: 'Owner@Example.com' }),
        });
        expect(asOwner.statusCode).toBe(303);
        expect(lookups).toBe(0);
        await expect.poll(() => lookups).toBe(1);
      });

      it('marks the cookie Secure behind HTTPS', async () => {
        const setup = await setUp(engine, { trustProxy: true });
        const token = newSecret();
        await setup.store.owners.createLink(
          (await setup.store.owners.byEmail(OWNER))?.id ?? 0,
          secretHash(token),
          60_000,
        );
        const response = await setup.app.inject({
          method: 'POST',
          url: `/owner/sign-in/${token}`,
          headers: { ...SAME_ORIGIN, 'x-forwarded-proto': 'https' },
        });
        expect(String(response.headers['set-cookie'])).toMatch(/; Secure/);
      });

      it('refuses a link that is made up, or mistyped', async () => {
        const setup = await setUp(engine);
        for (const token of [newSecret(), 'short', `${newSecret()}x`]) {
          const response = await setup.app.inject({
            method: 'POST',
            url: `/owner/sign-in/${token}`,
            headers: SAME_ORIGIN,
          });
          expect(response.statusCode).toBe(404);
          expect(response.cookies).toEqual([]);
        }
      });

      it(`allows ${OWNER_SIGN_IN_ATTEMPTS} attempts per connection per quarter hour, then says to wait`, async () => {
        const setup = await setUp(engine);
        for (let attempt = 0; attempt < OWNER_SIGN_IN_ATTEMPTS; attempt += 1) {
          const response = await setup.app.inject({ method: 'POST', url: '/owner/sign-in', ...form({ email: OWNER }) });
          expect(response.statusCode).toBe(303);
        }
        const limited = await setup.app.inject({ method: 'POST', url: '/owner/sign-in', ...form({ email: OWNER }) });
        expect(limited.statusCode).toBe(429);
        expect(limited.body).toContain('Too many tries');
        // Using a link counts too: a guesser cannot go on by switching to made-up links.
        const guess = await setup.app.inject({
          method: 'POST',
          url: `/owner/sign-in/${newSecret()}`,
          headers: SAME_ORIGIN,
        });
        expect(guess.statusCode).toBe(429);
      });

      it('says which address to type when it is not one', async () => {
        const setup = await setUp(engine);
        const response = await setup.app.inject({
          method: 'POST',
          url: '/owner/sign-in',
          ...form({ email: 'owner at example' }),
        });
        expect(response.statusCode).toBe(400);
        expect(response.body).toContain('Type an email address');
        expect(response.body).toContain('value="owner at example"');
      });
    });

    describe('signed in', () => {
      it('refuses a change from another site, or from nowhere, and changes nothing', async () => {
        const setup = await setUp(engine);
        const ownerCookie = await signInAsOwner(setup.app, setup.store);
        const person = (await setup.store.subscribers.subscriberByEmailKey('rosa@example.com'))?.id ?? '';
        for (const headers of [
          { origin: 'https://evil.example' },
          { origin: 'null' },
          {},
          { 'sec-fetch-site': 'cross-site' },
        ]) {
          const response = await setup.app.inject({
            method: 'POST',
            url: `/owner/people/${person}/delete`,
            headers: { cookie: ownerCookie, ...headers },
          });
          expect(response.statusCode, JSON.stringify(headers)).toBe(403);
        }
        expect(await setup.store.subscribers.subscriber(person)).toBeDefined();
      });

      it('owner pages are never cached or indexed, and load nothing from another host', async () => {
        const setup = await setUp(engine);
        const ownerCookie = await signInAsOwner(setup.app, setup.store);
        for (const url of [
          '/owner',
          '/owner/people?q=rosa',
          '/owner/broadcasts',
          '/owner/broadcasts/launch',
          '/owner/audit',
          '/owner/sign-in',
        ]) {
          const response = await setup.app.inject({ url, headers: { cookie: ownerCookie } });
          expect(response.statusCode, url).toBe(200);
          expect(response.headers['cache-control']).toBe('no-store');
          expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
          expect(response.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
          expect(String(response.headers['content-security-policy'])).toContain(
            `default-src 'self';script-src 'self' ${TEXT_SIZE_SCRIPT_HASH} ${LANGUAGE_SCRIPT_HASH};`,
          );
          // No address of another host in any src or href.
          expect(response.body.match(/(?:src|href|action)="(?:https?:)?\/\/[^"]*"/g) ?? []).toEqual([]);
        }
      });

      it('the overview shows the list’s health: the last 30 days’ bounce and complaint rates, and the suppression list by reason', async () => {
        const setup = await setUp(engine);
        const ownerCookie = await signInAsOwner(setup.app, setup.store);
        const { sentMessages: messages, optOuts } = setup.store;
        // 40 emails: 2 bounced, 1 reported as spam; one still sending (not counted).
        for (let index = 0; index < 41; index += 1) {
          const token = `token${String(index).padStart(27, '0')}`;
          await messages.sending([
            { token, channel: 'email', purpose: 'broadcast', signupId: null, addressHash: `h${index}` },
          ]);
          if (index === 40) continue;
          await messages.sent(token, { state: 'sent' });
          if (index < 2) await messages.advance(token, 'bounced');
          if (index === 2) await messages.advance(token, 'complained');
        }
        await optOuts.suppressByReport(
          null,
          { kind: 'email', hash: 'h0', reason: 'bounced', source: 'provider_report' },
          'email_bounced',
        );
        await optOuts.suppressByReport(
          null,
          { kind: 'email', hash: 'h2', reason: 'complained', source: 'provider_report' },
          'email_complained',
        );
        const response = await setup.app.inject({ url: '/owner', headers: { cookie: ownerCookie } });
        expect(response.body).toContain('The list&#x27;s health, last 30 days');
        const figure = (name: string) =>
          new RegExp(
            `data-figure="${name}"><span class="figure__label">[^<]+</span><span class="figure__value">([^<]+)</span>`,
          ).exec(response.body)?.[1];
        expect(figure('emails')).toBe('40');
        expect(figure('bounce-rate')).toBe('5.0%');
        expect(figure('complaint-rate')).toBe('2.5%');
        expect(response.body).toMatch(/<th scope="row">Email bounced<\/th><td class="number">1<\/td>/);
        expect(response.body).toMatch(/<th scope="row">Reported our email as spam<\/th><td class="number">1<\/td>/);
      });

      it('the overview says "Email confirmation is off" rather than a share confirmed while it is off', async () => {
        const setup = await setUp(engine);
        const ownerCookie = await signInAsOwner(setup.app, setup.store);
        const body = (await setup.app.inject({ url: '/owner', headers: { cookie: ownerCookie } })).body;
        const confirmed = /data-figure="confirmed">(.*?)<\/li>/.exec(body)?.[1] ?? '';
        expect(confirmed).toContain('Email confirmation is off');
        expect(confirmed).not.toMatch(/%/);
      });

      it('a broadcast’s page and its live progress show what came back: delivered, bounced, spam reports and the rates', async () => {
        const setup = await setUp(engine);
        const ownerCookie = await signInAsOwner(setup.app, setup.store);
        const broadcast = (await setup.store.broadcasts.get('launch'))!;
        const { sentMessages: messages } = setup.store;
        for (let index = 0; index < 4; index += 1) {
          const token = `token${String(index).padStart(27, '0')}`;
          await messages.sending([
            { token, channel: 'email', purpose: 'broadcast', signupId: null, broadcastId: broadcast.id },
          ]);
          await messages.sent(token, { state: 'sent' });
          await messages.advance(token, index === 0 ? 'bounced' : 'delivered');
        }
        const progress = await setup.app.inject({
          url: '/owner/broadcasts/launch/progress',
          headers: { cookie: ownerCookie },
        });
        expect(progress.json()).toMatchObject({
          fields: {
            'email.delivered': '3',
            'email.hardBounced': '1',
            'email.complained': '0',
            'email.bounceRate': '25.0%',
          },
        });
        const page = await setup.app.inject({ url: '/owner/broadcasts/launch', headers: { cookie: ownerCookie } });
        expect(page.body).toMatch(
          /<th scope="row">Bounce rate \(pauses past BROADCAST_MAX_BOUNCE_RATE\)<\/th><td class="number" data-live="email.bounceRate">25.0%<\/td>/,
        );
      });

      it("shows the language of a person's messages, and changes it when the owner says, in the audit log (issue 45)", async () => {
        const setup = await setUp(engine);
        const cookie = { cookie: await signInAsOwner(setup.app, setup.store) };
        await setup.store.signups.add({
          name: 'Luz Ortega',
          phone: '+15557654321',
          email: 'luz@example.com',
          betaTesting: false,
          language: 'es',
        });
        const id = (await setup.store.subscribers.subscriberByEmailKey('luz@example.com'))?.id ?? '';
        const record = await setup.app.inject({ url: `/owner/people/${id}`, headers: cookie });
        expect(record.body).toMatch(/<th scope="row">Language of their messages<\/th><td>Spanish<\/td>/);
        expect(record.body).toMatch(/<input type="radio" name="language" checked="" value="es"\/>/);
        const change = (language: string) =>
          setup.app.inject({
            method: 'POST',
            url: `/owner/people/${id}/language`,
            headers: { ...cookie, ...SAME_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
            payload: `language=${language}`,
          });
        const changed = await change('en');
        expect(changed.statusCode).toBe(303);
        expect(changed.headers.location).toBe(`/owner/people/${id}?done=language`);
        expect((await setup.store.subscribers.subscriber(id))?.language).toBe('en');
        expect((await setup.app.inject({ url: `/owner/people/${id}?done=language`, headers: cookie })).body).toContain(
          'Saved. Their messages are now in English.',
        );
        // Anything but one of ours is refused, and changes nothing; the same language again is no change.
        expect((await change('fr')).statusCode).toBe(400);
        expect((await change('en')).headers.location).toBe(`/owner/people/${id}?done=unchanged`);
        expect((await setup.store.subscribers.subscriber(id))?.language).toBe('en');
        const log = await setup.store.owners.auditLog(10);
        expect(log.filter((entry) => entry.action === 'changed_person').map((entry) => entry.detail)).toEqual([
          'Language of lu•••@example.com: Spanish to English',
        ]);
      });

      it('finds a person, shows their record, deletes them, and writes each step in the audit log', async () => {
        const setup = await setUp(engine);
        const ownerCookie = await signInAsOwner(setup.app, setup.store);
        const cookie = { cookie: ownerCookie };
        await setup.store.signups.add({
          name: 'Ann Lee',
          phone: '+15559876543',
          email: 'ann@example.com',
          betaTesting: false,
        });
        const byEmail = await setup.app.inject({ url: '/owner/people?q=ROSA@', headers: cookie });
        expect(byEmail.body).toContain('rosa@example.com');
        expect(byEmail.body).not.toContain('ann@example.com');
        const byPhone = await setup.app.inject({ url: '/owner/people?q=987-6543', headers: cookie });
        expect(byPhone.body).toContain('ann@example.com');
        expect(byPhone.body).not.toContain('rosa@example.com');
        // A % or _ is a letter to find, not a wildcard.
        expect((await setup.app.inject({ url: '/owner/people?q=%25%25%25', headers: cookie })).body).toContain(
          'Nobody matches',
        );
        const id = (await setup.store.subscribers.subscriberByEmailKey('rosa@example.com'))?.id ?? '';
        const record = await setup.app.inject({ url: `/owner/people/${id}`, headers: cookie });
        expect(record.statusCode).toBe(200);
        expect(record.body).toContain('Consent history');
        expect(record.body).toContain('The sign-up form');
        // The question changes nothing; its button does.
        expect((await setup.app.inject({ url: `/owner/people/${id}/delete`, headers: cookie })).body).toContain(
          'Yes, delete them',
        );
        expect(await setup.store.subscribers.subscriber(id)).toBeDefined();
        const deleted = await setup.app.inject({
          method: 'POST',
          url: `/owner/people/${id}/delete`,
          headers: { ...cookie, ...SAME_ORIGIN },
        });
        expect(deleted.statusCode).toBe(303);
        expect(await setup.store.subscribers.subscriber(id)).toBeUndefined();
        expect(await setup.store.consentEvents.history(id)).toEqual([]);
        const log = await setup.store.owners.auditLog(10);
        // What was searched for is never kept, and once deleted the person is "a person, deleted".
        expect(log.map((entry) => [entry.action, entry.detail, entry.subject ?? null])).toEqual([
          ['deleted_person', 'a person, deleted', null],
          ['viewed_person', 'a person, deleted', null],
          ['searched', 'By email or phone: 0 matches', null],
          ['searched', 'By email or phone: 1 match', null],
          ['searched', 'By email or phone: 1 match', null],
          ['signed_in', 'With a one-time link', null],
        ]);
        // A search with more matches than the page shows says so.
        for (let index = 0; index < 51; index += 1)
          await setup.store.signups.add({
            name: `P ${index}`,
            phone: '+15550001111',
            email: `many${index}@example.com`,
            betaTesting: false,
          });
        const many = await setup.app.inject({ url: '/owner/people?q=many', headers: cookie });
        expect(many.body).toContain('Only the first 50 are shown');
        expect((await setup.store.owners.auditLog(1))[0]?.detail).toBe('By email or phone: 50+ matches');
        // Never a whole address in the log.
        expect(JSON.stringify(log)).not.toContain('rosa@example.com');
        const page = await setup.app.inject({ url: '/owner/audit', headers: cookie });
        expect(page.body).toContain('Deleted a person');
      });

      it('a notice says only what the server put in the address: a crafted link cannot make it say more', async () => {
        const setup = await setUp(engine);
        const cookie = { cookie: await signInAsOwner(setup.app, setup.store) };
        const shown = await setup.app.inject({
          url: '/owner/people?deleted=ro%E2%80%A2%E2%80%A2%E2%80%A2%40example.com',
          headers: cookie,
        });
        expect(shown.body).toContain('Deleted ro•••@example.com and their consent history.');
        for (const url of [
          '/owner/people?deleted=your%20account.%20Call%20555-0100',
          '/owner/broadcasts/launch?done=test&to=everyone.%20Call%20555-0100',
        ]) {
          const response = await setup.app.inject({ url, headers: cookie });
          expect(response.statusCode).toBe(200);
          expect(response.body).not.toContain('555-0100');
        }
      });

      it('exports the same safe CSV as the command, streamed, and logs the export', async () => {
        const setup = await setUp(engine);
        const ownerCookie = await signInAsOwner(setup.app, setup.store);
        await setup.store.signups.add({
          name: '=HYPERLINK("x")',
          phone: '+15559876543',
          email: 'ann@example.com',
          betaTesting: false,
        });
        const csv = await setup.app.inject({ url: '/owner/export.csv', headers: { cookie: ownerCookie } });
        expect(csv.statusCode).toBe(200);
        expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(csv.headers['content-disposition']).toMatch(
          /^attachment; filename="scamsavvy-signups-\d{4}-\d{2}-\d{2}\.csv"$/,
        );
        expect(csv.body).toContain('rosa@example.com');
        expect(csv.body).toContain(`"'=HYPERLINK(""x"")"`);
        const json = await setup.app.inject({
          url: '/owner/export.json',
          headers: { cookie: ownerCookie },
        });
        expect((JSON.parse(json.body) as { email: string }[]).map((row) => row.email)).toEqual([
          'rosa@example.com',
          'ann@example.com',
        ]);
        expect((await setup.store.owners.auditLog(2)).map((entry) => entry.detail)).toEqual([
          'JSON of everyone on the list (2 people)',
          'CSV of everyone on the list (2 people)',
        ]);
      });

      it('shows a broadcast and its progress as JSON; without SECRET_KEY its buttons say nothing can be sent', async () => {
        const setup = await setUp(engine);
        const ownerCookie = await signInAsOwner(setup.app, setup.store);
        const cookie = { cookie: ownerCookie };
        const page = await setup.app.inject({ url: '/owner/broadcasts/launch', headers: cookie });
        expect(page.body).toContain('SECRET_KEY is not set');
        const progress = await setup.app.inject({ url: '/owner/broadcasts/launch/progress', headers: cookie });
        expect(progress.json()).toMatchObject({
          name: 'launch',
          state: 'ready',
          stateLabel: 'Ready to send',
          percent: 100,
        });
        const send = await setup.app.inject({
          method: 'POST',
          url: '/owner/broadcasts/launch/send',
          headers: { ...cookie, ...SAME_ORIGIN },
        });
        expect(send.statusCode).toBe(303);
        expect((await setup.store.broadcasts.get('launch'))?.state).toBe('ready');
        expect((await setup.app.inject({ url: '/owner/broadcasts/nothing', headers: cookie })).statusCode).toBe(404);
        expect((await setup.app.inject({ url: `/owner/people/${randomUUID()}`, headers: cookie })).statusCode).toBe(
          404,
        );
      });
    });
  });
}
