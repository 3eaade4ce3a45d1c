// Webhooks on both engines, against a real HTTP server on loopback (the network's edge): events made
// from the consent history, a deletion and a broadcast's moves; deliveries signed as Standard
// Webhooks 1.0 says (verified with the official package); an endpoint down for an hour gets every
// event once it is back, none twice; 410 pauses it with the reason; a person's details only where
// asked, and never a deleted person's; Slack's words without anyone's details.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { openDatabase, type Db } from '../db/open-database.js';
import type { DatabaseConfig } from '../config.js';
import { rawSql } from '../test/raw-sql.js';
import { storeEngines } from '../test/store-engines.js';
import { machineClock, testClock, type TestClock } from '../test/clock.js';
import { capturedLog } from '../test/captured-log.js';
import { makeEndpoint, resumeEndpoint } from './webhook-endpoints.js';
import { secretHash } from '../secrets.js';
import { CONSENT_SETTLE_MS, RETRY_DELAYS_MS, WebhookSender } from './webhook-sender.js';
import type { WebhookEventType } from './webhook-events.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An endpoint on loopback that answers `status()` and keeps what came. */
async function receiver(status: () => number = () => 204) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const closers: (() => void)[] = [];
  closers.push(() => server.close());
  cleanups.push(() => closers.forEach((close) => close()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`webhooks on ${engine.name}`, () => {
    let database: DatabaseConfig;
    async function world(): Promise<{ db: Db; clock: TestClock; sender: WebhookSender }> {
      // The store's clock, a little ahead of the machine's: PostgreSQL stamps sign-ups with its own.
      const clock = testClock(machineClock.ms() + 60_000);
      database = await engine.database();
      const db = await openDatabase(database, { now: clock });
      cleanups.push(() => db.close());
      const sender = new WebhookSender({ db, logger: capturedLog().logger, now: clock });
      return { db, clock, sender };
    }
    const endpoint = async (
      db: Db,
      url: string,
      options: {
        events?: WebhookEventType[] | '*';
        withPersonalData?: boolean;
        kind?: 'standard' | 'slack';
        name?: string;
      } = {},
    ) => {
      const made = await makeEndpoint(db, {
        name: options.name ?? 'CRM',
        kind: options.kind ?? 'standard',
        url,
        events: options.events ?? '*',
        withPersonalData: options.withPersonalData ?? false,
        by: 'owner@example.com',
      });
      if (made === 'name_taken') throw new Error('taken');
      return made.secret;
    };
    /** What the job does: the consent history read once its lines have settled, then the deliveries. */
    const run = async ({ clock, sender }: { clock: TestClock; sender: WebhookSender }) => {
      clock.advance(CONSENT_SETTLE_MS + 1);
      await sender.readEvents();
      return sender.deliver();
    };
    const signUp = (db: Db, email: string) =>
      db.signups.add({ name: 'Rosa Example', email, phone: '+12125550142', betaTesting: false });

    it('delivers signup.created signed as Standard Webhooks says, with no personal data unless asked', async () => {
      const w = await world();
      const plain = await receiver();
      const personal = await receiver();
      const secret = await endpoint(w.db, plain.url, { events: ['signup.created'] });
      await endpoint(w.db, personal.url, { name: 'Sheet', withPersonalData: true });
      await signUp(w.db, 'rosa@example.com');
      await signUp(w.db, 'rosa@example.com'); // a repeat is not a new person
      expect(await run(w)).toBe('2 deliveries made, 0 to try again');
      expect(plain.received).toHaveLength(1);
      const [delivery] = plain.received;
      const verified = new Webhook(secret).verify(delivery!.body, {
        'webhook-id': String(delivery!.headers['webhook-id']),
        'webhook-timestamp': String(delivery!.headers['webhook-timestamp']),
        'webhook-signature': String(delivery!.headers['webhook-signature']),
      }) as { type: string; data: Record<string, unknown> };
      const rosa = (await w.db.subscribers.subscriberByEmailKey('rosa@example.com'))!;
      expect(verified).toMatchObject({ type: 'signup.created', data: { signupId: rosa.id, source: 'signup_form' } });
      expect(delivery!.body).not.toContain('rosa@example.com');
      expect(delivery!.body).not.toContain('Rosa');
      expect(delivery!.headers['webhook-id']).toMatch(/^evt_\d+$/);
      // A signature made with another secret does not pass.
      expect(() =>
        new Webhook(`whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`).verify(delivery!.body, {
          'webhook-id': String(delivery!.headers['webhook-id']),
          'webhook-timestamp': String(delivery!.headers['webhook-timestamp']),
          'webhook-signature': String(delivery!.headers['webhook-signature']),
        }),
      ).toThrow();
      expect(JSON.parse(personal.received[0]!.body).data.person).toEqual({
        name: 'Rosa Example',
        email: 'rosa@example.com',
        phone: '+12125550142',
        language: 'en',
      });
      // Nothing again on the next runs.
      expect(await run(w)).toBeUndefined();
    });

    it('gives an endpoint down for an hour every event once it is back, none twice', async () => {
      const w = await world();
      let down = true;
      const hook = await receiver(() => (down ? 503 : 200));
      await endpoint(w.db, hook.url);
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await signUp(w.db, email);
      expect(await run(w)).toBe('0 deliveries made, 3 to try again');
      // The first try and those 5 s, 5 min and 30 min after fail; an hour in, it is back; the next try
      // (2 h after the fourth) is accepted.
      let waited = 0;
      for (const delay of RETRY_DELAYS_MS.slice(0, 3)) {
        w.clock.advance(delay);
        waited += delay;
        await run(w);
      }
      down = false;
      w.clock.advance(60 * 60_000 - waited);
      expect(await run(w)).toBeUndefined();
      w.clock.advance(RETRY_DELAYS_MS[3]!);
      expect(await run(w)).toBe('3 deliveries made, 0 to try again');
      for (let more = 0; more < 3; more += 1) {
        w.clock.advance(10 * 3_600_000);
        await run(w);
      }
      const accepted = hook.received.slice(-3).map((delivery) => delivery.headers['webhook-id']);
      expect(new Set(accepted).size).toBe(3);
      const ids = hook.received.map((delivery) => delivery.headers['webhook-id']);
      // While it was down one delivery tried it at each step of the back-off (four refused, then
      // accepted); the others waited, untried, and went once it took that one. Every try of an event
      // carries the same id.
      expect(ids).toEqual(['evt_1', 'evt_1', 'evt_1', 'evt_1', 'evt_1', 'evt_2', 'evt_3']);
      const [only] = await w.db.webhooks.list();
      const deliveries = await w.db.webhooks.deliveries(only!.id);
      expect(deliveries.map((delivery) => [delivery.state, delivery.attempts])).toEqual([
        ['sent', 1],
        ['sent', 1],
        ['sent', 5],
      ]);
    });

    it('tries an endpoint that is down once a run, and never holds up another', async () => {
      const w = await world();
      const down = await receiver(() => 503);
      const up = await receiver(() => 200);
      await endpoint(w.db, down.url, { name: 'Down' });
      await endpoint(w.db, up.url, { name: 'Up' });
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await signUp(w.db, email);
      expect(await run(w)).toBe('3 deliveries made, 3 to try again');
      expect(up.received).toHaveLength(3);
      expect(down.received).toHaveLength(1);
    });

    it('pauses an endpoint that answers 410, keeps its deliveries, and sends them when resumed', async () => {
      const w = await world();
      let status = 410;
      const hook = await receiver(() => status);
      await endpoint(w.db, hook.url);
      await signUp(w.db, 'a@example.com');
      await run(w);
      const [paused] = await w.db.webhooks.list();
      expect(paused?.pausedReason).toBe('It answered 410: the address is gone. Check it, then resume.');
      await signUp(w.db, 'b@example.com');
      w.clock.advance(24 * 3_600_000);
      await run(w);
      expect(hook.received).toHaveLength(1);
      status = 200;
      expect(await resumeEndpoint(w.db, 'CRM', 'owner@example.com')).toBe(true);
      expect(await run(w)).toBe('2 deliveries made, 0 to try again');
      expect((await w.db.owners.auditLog(5)).map((entry) => entry.detail)).toContain('Resumed');
    });

    it('gives up after a day of failures, pausing with the last answer', async () => {
      const w = await world();
      const hook = await receiver(() => 500);
      await endpoint(w.db, hook.url);
      await signUp(w.db, 'a@example.com');
      await run(w);
      for (const delay of RETRY_DELAYS_MS) {
        w.clock.advance(delay);
        await run(w);
      }
      expect(hook.received).toHaveLength(RETRY_DELAYS_MS.length + 1);
      const [paused] = await w.db.webhooks.list();
      expect(paused?.pausedReason).toBe(
        'No delivery was accepted for over a day (last: answered 500). Check it, then resume.',
      );
    });

    it('tells of a change of consent and a deletion by id, and sends a deleted person no details', async () => {
      const w = await world();
      const hook = await receiver();
      await endpoint(w.db, hook.url, { withPersonalData: true });
      await signUp(w.db, 'rosa@example.com');
      const rosa = (await w.db.subscribers.subscriberByEmailKey('rosa@example.com'))!;
      w.clock.advance(CONSENT_SETTLE_MS + 1);
      await w.sender.readEvents();
      expect(await w.db.optOuts.remove(rosa.id, [])).toBe(true);
      await run(w);
      const bodies = hook.received.map(
        (delivery) => JSON.parse(delivery.body) as { type: string; data: Record<string, unknown> },
      );
      expect(bodies.map((body) => body.type)).toEqual(['signup.created', 'consent.changed']);
      expect(bodies[1]!.data).toEqual({ signupId: rosa.id, channel: 'all', change: 'deleted' });
      expect(hook.received.map((delivery) => delivery.body).join('')).not.toContain('rosa@example.com');
    });

    it('a restore from before a delivery went keeps it sent: the endpoint is not told twice', async () => {
      const w = await world();
      const hook = await receiver();
      await endpoint(w.db, hook.url);
      await signUp(w.db, 'rosa@example.com');
      expect(await run(w)).toBe('1 delivery made, 0 to try again');
      // What the database being replaced knows, read before the restore …
      const carry = await w.db.carryOver.read();
      // … and the backup, made while the delivery still waited.
      const [only] = await w.db.webhooks.list();
      const [delivery] = await w.db.webhooks.deliveries(only!.id);
      await rawSql(database, "UPDATE outbox SET state = 'queued', sent_at = NULL, next_attempt_at = $1 WHERE id = $2", [
        w.clock().toISOString(),
        delivery!.id,
      ]);
      await w.db.carryOver.apply(carry);
      expect(await run(w)).toBeUndefined();
      expect(hook.received).toHaveLength(1);
    });

    it('a restore never brings back a key revoked or an endpoint deleted since the backup', async () => {
      const w = await world();
      const hook = await receiver();
      await endpoint(w.db, hook.url);
      const key = `ssk_${'a'.repeat(43)}`;
      await w.db.apiKeys.create({
        name: 'Zapier',
        scope: 'read',
        keyHash: secretHash(key),
        keyEnd: 'aaaa',
        createdBy: 'owner@example.com',
      });
      // After the backup: the key is revoked and the endpoint deleted; then the backup comes back.
      expect(await w.db.apiKeys.revoke('Zapier')).toBe(true);
      expect(await w.db.webhooks.remove('CRM')).toBe(true);
      const carry = await w.db.carryOver.read();
      await rawSql(database, 'UPDATE api_keys SET revoked_at = NULL');
      await rawSql(database, 'UPDATE webhook_endpoints SET deleted_at = NULL');
      await w.db.carryOver.apply(carry);
      expect(await w.db.apiKeys.use(secretHash(key))).toBeUndefined();
      expect(await w.db.webhooks.list()).toEqual([]);
      await signUp(w.db, 'rosa@example.com');
      expect(await run(w)).toBeUndefined();
      expect(hook.received).toHaveLength(0);
    });

    it('posts to Slack how the list grows and the launch goes, with nobody’s details', async () => {
      const w = await world();
      const slack = await receiver(() => 200);
      await endpoint(w.db, slack.url, { kind: 'slack', name: '#launch' });
      await signUp(w.db, 'rosa@example.com');
      await run(w);
      expect(slack.received.map((delivery) => JSON.parse(delivery.body))).toEqual([
        { text: 'New sign-up: 1 today, 1 in all (0 through a family link)' },
      ]);
      expect(slack.received[0]!.headers['webhook-signature']).toBeUndefined();
      const broadcast = (await w.db.broadcasts.create({
        name: 'launch',
        template: 'launch',
        channels: ['email'],
        segment: 'all',
        confirmation: 'everyone',
        content: {},
      } as never))!;
      await w.db.broadcasts.moveState(broadcast.id, 'sending', ['ready']);
      await w.db.broadcasts.moveState(broadcast.id, 'finished', ['sending']);
      await run(w);
      expect(slack.received.slice(1).map((delivery) => JSON.parse(delivery.body).text)).toEqual([
        'The broadcast “launch” started sending (email).',
        'The broadcast “launch” is finished: 0 messages sent, 0 not sent.',
      ]);
      expect(slack.received.map((delivery) => delivery.body).join('')).not.toContain('rosa');
    });
  });
}
