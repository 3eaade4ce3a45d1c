// One suite, every engine: broadcasts, their outbox and their senders, through OutboxRepository (decision 023).
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { emailKey, type SignupInput } from '../../shared/signup-schema.js';
import type { DatabaseConfig } from '../config.js';
import { ann, rosa } from '../test/people.js';
import { storeEngines, suiteName, type StoreEngine } from '../test/store-engines.js';
import { openDatabase, type BroadcastDb, type Db } from './open-database.js';
import { SenderBusyError } from './broadcast-senders-repository.js';
import type { Broadcast, BroadcastsRepository } from './broadcasts-repository.js';
import type { ClaimedMessage } from './outbox-rows.js';
import type { Channel } from './message-channels.js';
import { NOT_SUPPRESSED } from './suppression-fold.js';

const T0 = new Date('2026-11-24T09:00:00.000Z');
const at = (ms: number): string => new Date(T0.getTime() + ms).toISOString();

const launch = {
  name: 'launch',
  template: 'launch-day',
  segment: 'all',
  channels: ['email', 'sms'],
  confirmation: 'everyone',
  content: {
    subject: 'ScamSavvy is live',
    text: 'Hello, it is here.',
    html: '<p>Hello, it is here.</p>',
    sms: 'Live!',
  },
} as const satisfies Parameters<BroadcastsRepository['create']>[0];

/** The store's clock: fixed at T0 until the test moves it. */
function fixedClock() {
  let now = T0;
  return {
    now: () => now,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

/** The sender fields a test does not care about. */
const sender = (id: string, broadcastId: number) => ({ id, broadcastId, host: 'test-host', pid: 4242 });
const alive = () => false;

interface MessageRow {
  id: number;
  state: string;
  attempts: number;
  provider_id: string | null;
  error: string | null;
}

/** The outbox rows as stored, read past the port: no public method returns a row's provider id or error. */
async function storedMessages(database: DatabaseConfig): Promise<Map<number, MessageRow>> {
  const query = 'SELECT id, state, attempts, provider_id, error FROM outbox ORDER BY id';
  let rows: MessageRow[];
  if (database.kind === 'sqlite') {
    const db = new Database(database.file, { readonly: true });
    try {
      rows = db.prepare(query).all() as MessageRow[];
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client(database.url);
    await client.connect();
    try {
      rows = (await client.query<MessageRow>(query)).rows;
    } finally {
      await client.end();
    }
  }
  return new Map(rows.map((row) => [Number(row.id), { ...row, id: Number(row.id) }]));
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(suiteName('OutboxRepository', engine), () => {
    // A test about one engine's behaviour is not registered at all on the other (not counted as skipped).
    const onlyOn = (name: StoreEngine['name']) =>
      engine.name === name ? it : ((() => undefined) as unknown as typeof it);

    async function open() {
      const clock = fixedClock();
      const database = await engine.database();
      const store = await openDatabase(database, { now: clock.now });
      onTestFinished(() => store.close());
      return { store, outbox: store as BroadcastDb, clock, database };
    }

    async function created(outbox: BroadcastDb, name: string = launch.name): Promise<Broadcast> {
      const broadcast = await outbox.broadcasts.create({ ...launch, channels: [...launch.channels], name });
      if (!broadcast) throw new Error(`${name} was not created`);
      return broadcast;
    }

    /** `count` people (ids need name no sign-up: the outbox keeps no reference) on one channel, queued. */
    async function queued(outbox: BroadcastDb, broadcastId: number, count: number, channel: Channel) {
      const rows = Array.from({ length: count }, () => ({ signupId: randomUUID(), channel }));
      expect(await outbox.outbox.enqueue(broadcastId, rows)).toBe(count);
      return rows;
    }

    /** A fresh database with the launch broadcast and `count` emails queued. */
    async function withQueue(count: number) {
      const opened = await open();
      const { id } = await created(opened.outbox);
      await queued(opened.outbox, id, count, 'email');
      return { ...opened, id };
    }

    /** A sender registered on the broadcast, alive; its id. */
    async function registered(outbox: BroadcastDb, broadcastId: number): Promise<string> {
      const id = randomUUID();
      await outbox.broadcastSenders.registerSender(sender(id, broadcastId), alive);
      return id;
    }

    async function signUp(store: Db, input: SignupInput): Promise<string> {
      await store.signups.add(input);
      const subscriber = await store.subscribers.subscriberByEmailKey(emailKey(input.email));
      if (!subscriber) throw new Error(`${input.email} was not stored`);
      return subscriber.id;
    }

    const ids = (claimed: ClaimedMessage[]) => claimed.map((message) => message.id);

    it('creates a broadcast once per name, and get, list and state read it back as it was given', async () => {
      const { outbox, clock } = await open();
      const first = await outbox.broadcasts.create({ ...launch, channels: ['email', 'sms'] });
      expect(first).toEqual({
        id: expect.any(Number),
        ...launch,
        channels: ['email', 'sms'],
        state: 'ready',
        createdAt: T0.toISOString(),
        startedAt: null,
        finishedAt: null,
        healthAcceptedAt: null,
      });
      clock.advance(1000);
      expect(
        await outbox.broadcasts.create({
          ...launch,
          channels: ['sms'],
          content: { ...launch.content, subject: 'Other' },
        }),
      ).toBeUndefined();
      const texts = await outbox.broadcasts.create({
        ...launch,
        name: 'texts-beta',
        segment: 'beta',
        channels: ['sms'],
        confirmation: 'confirmed_only',
      });
      expect(texts).toMatchObject({
        channels: ['sms'],
        confirmation: 'confirmed_only',
        segment: 'beta',
        createdAt: at(1000),
      });
      expect(await outbox.broadcasts.get('launch')).toEqual(first);
      expect(await outbox.broadcasts.get('nobody-made-this')).toBeUndefined();
      expect(await outbox.broadcasts.list()).toEqual([first, texts]);
      expect(await outbox.broadcasts.state(first?.id ?? 0)).toBe('ready');
      expect(await outbox.broadcasts.state(987_654)).toBeUndefined();
    });

    it('setState moves only from the allowed states, says whether it moved, and stamps start and finish', async () => {
      const { outbox, clock } = await open();
      const { id } = await created(outbox);
      expect(await outbox.broadcasts.setState(id, 'paused', ['sending'])).toBe(false);
      expect(await outbox.broadcasts.state(id)).toBe('ready');
      // A refused start (resume on a broadcast that was never started) stamps nothing.
      expect(await outbox.broadcasts.setState(id, 'sending', ['paused'])).toBe(false);
      expect(await outbox.broadcasts.get('launch')).toMatchObject({ state: 'ready', startedAt: null });
      clock.advance(1000);
      expect(await outbox.broadcasts.setState(id, 'sending', ['ready', 'paused'])).toBe(true);
      clock.advance(1000);
      expect(await outbox.broadcasts.setState(id, 'paused', ['sending'])).toBe(true);
      expect(await outbox.broadcasts.setState(id, 'paused', ['sending'])).toBe(false);
      clock.advance(1000);
      expect(await outbox.broadcasts.setState(id, 'sending', ['ready', 'paused'])).toBe(true);
      // Started when it first started, not when it resumed.
      expect(await outbox.broadcasts.get('launch')).toMatchObject({
        state: 'sending',
        startedAt: at(1000),
        finishedAt: null,
      });
      clock.advance(1000);
      expect(await outbox.broadcasts.setState(id, 'finished', ['sending'])).toBe(true);
      expect(await outbox.broadcasts.get('launch')).toMatchObject({
        state: 'finished',
        startedAt: at(1000),
        finishedAt: at(4000),
      });
      expect(await outbox.broadcasts.setState(id, 'sending', ['ready', 'paused'])).toBe(false);
      expect(await outbox.broadcasts.state(id)).toBe('finished');
      // Topped up and sent again: no longer finished.
      expect(await outbox.broadcasts.setState(id, 'sending', ['finished'])).toBe(true);
      expect(await outbox.broadcasts.get('launch')).toMatchObject({
        state: 'sending',
        startedAt: at(1000),
        finishedAt: null,
      });
    });

    it('enqueue adds one row per person and channel, and leaves anyone already in the outbox as they are', async () => {
      const { outbox } = await open();
      const { id } = await created(outbox);
      const other = await created(outbox, 'second');
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      const both = (signupId: string) => [
        { signupId, channel: 'email' as const },
        { signupId, channel: 'sms' as const },
      ];
      expect(await outbox.outbox.enqueue(id, [...both(a), ...both(b)])).toBe(4);
      // a is sent before the top-up: the top-up must not put a back in the queue.
      const sender1 = randomUUID();
      const claimed = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, sender1, 1);
      expect(claimed).toEqual([
        { id: expect.any(Number), kind: 'broadcast', signupId: a, channel: 'email', attempts: 1 },
      ]);
      await outbox.outbox.record(sender1, [{ id: claimed[0]?.id ?? 0, result: 'sent', providerId: 'smtp-1' }]);
      expect(await outbox.outbox.enqueue(id, [...both(a), ...both(b), ...both(c)])).toBe(2);
      expect(await outbox.outbox.enqueue(id, both(c))).toBe(0);
      expect(await outbox.outbox.enqueue(id, [])).toBe(0);
      expect(await outbox.outbox.counts(id)).toMatchObject({ total: 6, sent: 1, queued: 5 });
      expect(await outbox.outbox.counts(id, 'email')).toMatchObject({ total: 3, sent: 1, queued: 2 });
      // The same person in another broadcast is another row.
      expect(await outbox.outbox.enqueue(other.id, both(a))).toBe(2);
      expect((await outbox.outbox.counts(other.id)).total).toBe(2);
    });

    it('claim hands out due rows of one channel, oldest first, each once, counting attempts', async () => {
      const { outbox, clock } = await open();
      const { id } = await created(outbox);
      const emails = await queued(outbox, id, 5, 'email');
      await queued(outbox, id, 2, 'sms');
      const me = randomUUID();
      const first = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 3);
      const rest = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 3);
      expect(first).toHaveLength(3);
      expect(rest).toHaveLength(2);
      expect(await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 3)).toEqual([]);
      const all = [...first, ...rest];
      expect(all.map((message) => message.signupId)).toEqual(emails.map((row) => row.signupId));
      expect(ids(all)).toEqual([...ids(all)].sort((x, y) => x - y));
      expect(all.every((message) => message.channel === 'email' && message.attempts === 1)).toBe(true);
      expect(await outbox.outbox.inFlight(id)).toBe(5);
      expect(await outbox.outbox.counts(id, 'sms')).toMatchObject({ queued: 2, sending: 0 });

      // A retry is not due before its time, and is claimed again then with its attempts counted.
      const [retry] = first;
      await outbox.outbox.record(me, [
        { id: retry?.id ?? 0, result: 'temporary', error: '421 busy', retryAt: new Date(at(30_000)), kind: 'message' },
      ]);
      expect(await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 10)).toEqual([]);
      clock.advance(29_999);
      expect(await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 10)).toEqual([]);
      clock.advance(1);
      expect(await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 10)).toEqual([
        { ...retry, attempts: 2 },
      ]);
    });

    it('two senders claiming at once never take the same row', async () => {
      const { outbox, clock, database, id } = await withQueue(50);
      // A second process on the same database, with its own connections.
      const elsewhere = await openDatabase(database, { migrate: false, now: clock.now });
      onTestFinished(() => elsewhere.close());
      const senders = [
        { outbox, id: randomUUID() },
        { outbox: elsewhere as BroadcastDb, id: randomUUID() },
      ];
      if (engine.name === 'postgres')
        for (const one of senders) await one.outbox.broadcastSenders.registerSender(sender(one.id, id), alive);
      /** One sender taking batches of 3, two at a time, until nothing is left. */
      const drain = async ({ outbox: mine, id: senderId }: (typeof senders)[number]) => {
        const taken: number[] = [];
        const worker = async () => {
          for (;;) {
            const batch = await mine.outbox.claim({ broadcastId: id, channel: 'email' }, senderId, 3);
            if (batch.length === 0) return;
            taken.push(...ids(batch));
          }
        };
        await Promise.all([worker(), worker()]);
        return taken;
      };
      const [mine, theirs] = await Promise.all(senders.map(drain));
      const union = new Set([...(mine ?? []), ...(theirs ?? [])]);
      expect(union.size).toBe(50);
      expect((mine ?? []).length + (theirs ?? []).length).toBe(50);
      expect((mine ?? []).filter((row) => (theirs ?? []).includes(row))).toEqual([]);
      expect(await outbox.outbox.counts(id)).toMatchObject({ sending: 50, queued: 0 });
      expect(await outbox.outbox.inFlight(id)).toBe(50);
    });

    onlyOn('postgres')(
      'on PostgreSQL a claim skips rows another sender is taking, without waiting for it',
      async () => {
        const { outbox, database, id } = await withQueue(6);
        if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
        // Another sender mid-claim, past the port: its transaction holds the three oldest rows.
        const other = new pg.Client(database.url);
        await other.connect();
        onTestFinished(() => other.end());
        await other.query('BEGIN');
        const locked = await other.query<{ id: string }>('SELECT id FROM outbox ORDER BY id LIMIT 3 FOR UPDATE');
        const heldIds = locked.rows.map((row) => Number(row.id));
        try {
          const claim = outbox.outbox.claim({ broadcastId: id, channel: 'email' }, randomUUID(), 10);
          const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 2000).unref());
          const claimed = await Promise.race([claim, waited]);
          expect(claimed).not.toBe('waited');
          expect(ids(claimed as ClaimedMessage[]).filter((row) => heldIds.includes(row))).toEqual([]);
          expect(claimed).toHaveLength(3);
        } finally {
          await other.query('ROLLBACK');
        }
      },
    );

    onlyOn('sqlite')('on SQLite a second sender is refused while one is live', async () => {
      const { outbox } = await open();
      const { id } = await created(outbox);
      const first = randomUUID();
      expect(await outbox.broadcastSenders.registerSender(sender(first, id), alive)).toEqual({ unknown: 0 });
      const refusal = await outbox.broadcastSenders
        .registerSender({ ...sender(randomUUID(), id), pid: 7 }, alive)
        .catch((e) => e);
      expect(refusal).toBeInstanceOf(SenderBusyError);
      expect((refusal as SenderBusyError).other).toMatchObject({ id: first, pid: 4242, host: 'test-host' });
      expect((refusal as SenderBusyError).message).toContain('process 4242 on test-host');
      expect((await outbox.broadcastSenders.liveSenders()).map((live) => live.id)).toEqual([first]);
      // Once the first stops, the slot is free.
      await outbox.broadcastSenders.stopSender(first);
      const second = randomUUID();
      expect(await outbox.broadcastSenders.registerSender(sender(second, id), alive)).toEqual({ unknown: 0 });
      expect((await outbox.broadcastSenders.liveSenders(id)).map((live) => live.id)).toEqual([second]);
    });

    onlyOn('postgres')('on PostgreSQL several senders run at once', async () => {
      const { outbox, clock } = await open();
      const { id } = await created(outbox);
      const [first, second] = [randomUUID(), randomUUID()];
      await outbox.broadcastSenders.registerSender(sender(first, id), alive);
      clock.advance(1000);
      await outbox.broadcastSenders.registerSender(sender(second, id), alive);
      expect((await outbox.broadcastSenders.liveSenders(id)).map((live) => live.id)).toEqual([first, second]);
    });

    it('liveSenders lists who has not stopped, per broadcast, with their heartbeat; channelsSending, their channels', async () => {
      const { outbox, clock } = await open();
      const { id } = await created(outbox);
      // The channels a sender heard from within 15 s is sending (what the own messages make room for).
      const sending = async () => [
        ...(await outbox.broadcastSenders.channelsSending(new Date(clock.now().getTime() - 15_000))),
      ];
      const me = await registered(outbox, id);
      clock.advance(20_000);
      expect(await sending()).toEqual([]); // not heard from for longer: it counts as sending no more
      await outbox.broadcastSenders.heartbeat(me);
      expect(await sending()).toEqual(['email', 'sms']);
      expect(await outbox.broadcastSenders.liveSenders()).toEqual([
        { id: me, broadcastId: id, host: 'test-host', pid: 4242, startedAt: at(0), heartbeatAt: at(20_000) },
      ]);
      expect(await outbox.broadcastSenders.liveSenders(id + 1)).toEqual([]);
      expect(await outbox.broadcastSenders.stopSender(me)).toBe(0);
      expect(await outbox.broadcastSenders.liveSenders()).toEqual([]);
      expect(await sending()).toEqual([]);
    });

    it('record stores each outcome, and counts show them per state and per channel', async () => {
      const { store, outbox, clock, database, id } = await withQueue(3);
      await queued(outbox, id, 3, 'sms');
      const me = randomUUID();
      const [sent, retry, gaveUp] = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 3);
      const [permanent, skipped, other] = await outbox.outbox.claim({ broadcastId: id, channel: 'sms' }, me, 3);
      // Two of them were recorded in the message log as they left.
      await store.sentMessages.sending(
        [sent, other].map((message) => ({
          token: `token-${message?.id}`,
          channel: message?.channel ?? 'email',
          purpose: 'broadcast' as const,
          signupId: message?.signupId ?? null,
          broadcastId: id,
          outboxId: message?.id ?? null,
        })),
      );
      clock.advance(5000);
      const longError = `550 ${'x'.repeat(1000)}`;
      await outbox.outbox.record(me, [
        {
          id: sent?.id ?? 0,
          result: 'sent',
          providerId: '<broadcast-1.message-1@example.com>',
          token: `token-${sent?.id}`,
        },
        {
          id: retry?.id ?? 0,
          result: 'temporary',
          error: '421 try later',
          retryAt: new Date(at(35_000)),
          kind: 'message',
        },
        { id: gaveUp?.id ?? 0, result: 'temporary', error: '451 still failing', retryAt: null, kind: 'message' },
        { id: permanent?.id ?? 0, result: 'permanent', error: longError, kind: 'recipient' },
        { id: skipped?.id ?? 0, result: 'skipped', error: 'replied STOP' },
        { id: other?.id ?? 0, result: 'sent', providerId: 'SM0123456789', token: `token-${other?.id}` },
      ]);
      expect(await outbox.outbox.counts(id)).toEqual({
        queued: 0,
        sending: 0,
        sent: 2,
        failed_temporary: 2,
        failed_permanent: 1,
        skipped: 1,
        unknown: 0,
        retrying: 1,
        total: 6,
      });
      expect(await outbox.outbox.counts(id, 'email')).toMatchObject({
        sent: 1,
        failed_temporary: 2,
        retrying: 1,
        total: 3,
      });
      expect(await outbox.outbox.counts(id, 'sms')).toMatchObject({
        sent: 1,
        failed_permanent: 1,
        skipped: 1,
        total: 3,
      });
      expect(await outbox.outbox.inFlight(id)).toBe(0);
      expect(await outbox.outbox.sentSince(id, new Date(at(5000)))).toBe(2);
      // Only the one waiting to be tried again is due again, at its time.
      expect(await outbox.outbox.nextDue(id, 'email')).toBe(at(35_000));
      expect(await outbox.outbox.nextDue(id, 'sms')).toBeUndefined();

      const rows = await storedMessages(database);
      // The provider's id has one home, the message log, written in the same transaction as the outcome.
      expect(rows.get(sent?.id ?? 0)).toMatchObject({ state: 'sent', provider_id: null, error: null });
      expect(rows.get(other?.id ?? 0)).toMatchObject({ state: 'sent', provider_id: null });
      expect(await store.sentMessages.find({ token: `token-${sent?.id}` })).toMatchObject({
        state: 'sent',
        providerId: '<broadcast-1.message-1@example.com>',
      });
      expect(await store.sentMessages.find({ providerId: 'SM0123456789' })).toMatchObject({
        token: `token-${other?.id}`,
        state: 'sent',
      });
      expect(rows.get(retry?.id ?? 0)).toMatchObject({ state: 'failed_temporary', error: '421 try later' });
      expect(rows.get(gaveUp?.id ?? 0)).toMatchObject({ state: 'failed_temporary', error: '451 still failing' });
      expect(rows.get(permanent?.id ?? 0)).toMatchObject({ state: 'failed_permanent', error: longError.slice(0, 300) });
      expect(rows.get(skipped?.id ?? 0)).toMatchObject({ state: 'skipped', error: 'replied STOP' });
    });

    it('record changes only rows this sender holds', async () => {
      const { outbox, id } = await withQueue(2);
      const [holder, stranger] = [randomUUID(), randomUUID()];
      // The second row stays queued: nobody claimed it.
      const [held] = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, holder, 1);
      await outbox.outbox.record(stranger, [{ id: held?.id ?? 0, result: 'sent', providerId: 'stolen' }]);
      expect(await outbox.outbox.counts(id)).toMatchObject({ sending: 1, sent: 0, queued: 1 });
      await outbox.outbox.record(holder, [{ id: held?.id ?? 0, result: 'sent', providerId: 'mine' }]);
      expect(await outbox.outbox.counts(id)).toMatchObject({ sending: 0, sent: 1, queued: 1 });
      // Recorded once: a repeat (a retried request) cannot turn a sent row into a failure.
      await outbox.outbox.record(holder, [
        { id: held?.id ?? 0, result: 'permanent', error: 'late', kind: 'recipient' },
      ]);
      expect(await outbox.outbox.counts(id)).toMatchObject({ sent: 1, failed_permanent: 0 });
    });

    it('a message put back untried leaves the message log; one a report already reached keeps its row', async () => {
      const { store, outbox, id } = await withQueue(2);
      const me = randomUUID();
      const [untried, reported] = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 2);
      const logged = (message: typeof untried) => ({
        token: `token-${message?.id}`,
        channel: 'email' as const,
        purpose: 'broadcast' as const,
        signupId: message?.signupId ?? null,
        broadcastId: id,
        outboxId: message?.id ?? null,
      });
      await store.sentMessages.sending([logged(untried), logged(reported)]);
      await store.sentMessages.advance(`token-${reported?.id}`, 'bounced');
      await outbox.outbox.record(me, [
        { id: untried?.id ?? 0, result: 'requeue', kind: null, error: 'not sent', token: `token-${untried?.id}` },
        { id: reported?.id ?? 0, result: 'requeue', kind: null, error: 'not sent', token: `token-${reported?.id}` },
      ]);
      expect(await outbox.outbox.counts(id)).toMatchObject({ queued: 2, total: 2 });
      expect(await store.sentMessages.find({ token: `token-${untried?.id}` })).toBeUndefined();
      expect(await store.sentMessages.find({ token: `token-${reported?.id}` })).toMatchObject({ state: 'bounced' });
    });

    it('a sender that dies mid-claim leaves its rows unknown, never queued or sent, until the owner requeues them once', async () => {
      const { outbox, id } = await withQueue(6);
      const dead = await registered(outbox, id);
      const claimed = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, dead, 4);
      await outbox.outbox.record(dead, [{ id: claimed[0]?.id ?? 0, result: 'sent', providerId: 'smtp-1' }]);
      expect(await outbox.outbox.inFlight(id)).toBe(3);

      expect(await outbox.broadcastSenders.reapDeadSenders(() => true)).toBe(3);
      expect(await outbox.outbox.counts(id)).toMatchObject({ unknown: 3, sending: 0, sent: 1, queued: 2 });
      expect(await outbox.outbox.inFlight(id)).toBe(0);
      expect(await outbox.broadcastSenders.liveSenders()).toEqual([]);
      expect(await outbox.broadcastSenders.reapDeadSenders(() => true)).toBe(0);

      // The next sender gets only what is surely unsent.
      const next = await registered(outbox, id);
      const fresh = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, next, 10);
      expect(fresh).toHaveLength(2);
      expect(ids(fresh).some((row) => ids(claimed).includes(row))).toBe(false);
      await outbox.outbox.record(
        next,
        fresh.map((message) => ({ id: message.id, result: 'sent' as const, providerId: `smtp-${message.id}` })),
      );
      expect(await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, next, 10)).toEqual([]);

      // The owner's "send them anyway": once.
      expect(await outbox.outbox.requeueUnknown(id)).toBe(3);
      expect(await outbox.outbox.requeueUnknown(id)).toBe(0);
      expect(await outbox.outbox.counts(id)).toMatchObject({ unknown: 0, queued: 3, sent: 3 });
      const again = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, next, 10);
      expect(ids(again)).toEqual(ids(claimed).slice(1));
      expect(again.every((message) => message.attempts === 2)).toBe(true);
    });

    it('a new sender reaps only the dead, and a sender that stops hands back what it still held as unknown', async () => {
      const { outbox, id } = await withQueue(4);
      const [dead, stopping] = [randomUUID(), randomUUID()];
      await outbox.broadcastSenders.registerSender(sender(dead, id), alive);
      await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, dead, 2);
      // The one that died is noticed when the next registers (on SQLite it also frees the slot).
      const result = await outbox.broadcastSenders.registerSender(sender(stopping, id), (other) => other.id === dead);
      expect(result).toEqual({ unknown: 2 });
      expect((await outbox.broadcastSenders.liveSenders()).map((live) => live.id)).toEqual([stopping]);
      await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, stopping, 1);
      // A live sender is not reaped.
      expect(await outbox.broadcastSenders.reapDeadSenders((other) => other.id === dead)).toBe(0);
      expect(await outbox.outbox.inFlight(id)).toBe(1);
      expect(await outbox.broadcastSenders.stopSender(stopping)).toBe(1);
      expect(await outbox.outbox.counts(id)).toMatchObject({ unknown: 3, sending: 0, queued: 1 });
      expect(await outbox.broadcastSenders.liveSenders()).toEqual([]);
    });

    it('a sender wrongly taken for dead still records what it knows', async () => {
      const { outbox, id } = await withQueue(2);
      const slow = await registered(outbox, id);
      const [first, second] = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, slow, 2);
      expect(await outbox.broadcastSenders.reapDeadSenders(() => true)).toBe(2);
      await outbox.outbox.record(slow, [
        { id: first?.id ?? 0, result: 'sent', providerId: 'smtp-1' },
        { id: second?.id ?? 0, result: 'permanent', error: '550 no such user', kind: 'recipient' },
      ]);
      expect(await outbox.outbox.counts(id)).toMatchObject({ unknown: 0, sent: 1, failed_permanent: 1 });
    });

    it('nextDue is the earliest due time of what waits, and sentSince counts sends from a time on', async () => {
      const { outbox, clock } = await open();
      const { id } = await created(outbox);
      expect(await outbox.outbox.nextDue(id, 'email')).toBeUndefined();
      await queued(outbox, id, 3, 'email');
      expect(await outbox.outbox.nextDue(id, 'email')).toBe(at(0));
      const me = randomUUID();
      const [a, b, c] = await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 3);
      expect(await outbox.outbox.nextDue(id, 'email')).toBeUndefined();
      await outbox.outbox.record(me, [
        { id: a?.id ?? 0, result: 'temporary', error: '421', retryAt: new Date(at(60_000)), kind: 'message' },
        { id: b?.id ?? 0, result: 'temporary', error: '421', retryAt: new Date(at(30_000)), kind: 'message' },
        { id: c?.id ?? 0, result: 'sent', providerId: 'smtp-c' },
      ]);
      expect(await outbox.outbox.nextDue(id, 'email')).toBe(at(30_000));
      expect(await outbox.outbox.nextDue(id, 'sms')).toBeUndefined();

      clock.advance(60_000);
      // Both due now: the one due first is claimed first, though its id is higher.
      expect(ids(await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 1))).toEqual([b?.id]);
      expect(ids(await outbox.outbox.claim({ broadcastId: id, channel: 'email' }, me, 1))).toEqual([a?.id]);
      await outbox.outbox.record(me, [{ id: b?.id ?? 0, result: 'sent', providerId: 'smtp-b' }]);
      clock.advance(60_000);
      await outbox.outbox.record(me, [{ id: a?.id ?? 0, result: 'sent', providerId: 'smtp-a' }]);
      expect(await outbox.outbox.sentSince(id, T0)).toBe(3);
      expect(await outbox.outbox.sentSince(id, new Date(at(60_000)))).toBe(2);
      expect(await outbox.outbox.sentSince(id, new Date(at(60_001)))).toBe(1);
      expect(await outbox.outbox.sentSince(id, new Date(at(120_001)))).toBe(0);
    });

    it('recipientsAfter pages through every sign-up in id order', async () => {
      const { store, outbox } = await open();
      for (let n = 0; n < 5; n += 1) await store.signups.add({ ...ann, email: `person${n}@example.com` });
      const pages = [];
      let after: string | null = null;
      for (;;) {
        const page = await outbox.broadcastRecipients.recipientsAfter(after, 2);
        pages.push(page.map((recipient) => recipient.id));
        if (page.length === 0) break;
        after = page[page.length - 1]?.id ?? null;
      }
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1, 0]);
      const seen = pages.flat();
      expect(seen).toEqual([...seen].sort());
      const everyone = [];
      for await (const record of store.signups.list()) everyone.push(record.id);
      expect(new Set(seen)).toEqual(new Set(everyone));
      expect(seen).toHaveLength(5);
    });

    it('recipients reads the named people as they are now, ignoring ids that are not UUIDs', async () => {
      const { store, outbox } = await open();
      const rosaId = await signUp(store, rosa);
      const annId = await signUp(store, ann);
      const gone = await signUp(store, { ...ann, email: 'gone@example.com' });
      await store.optOuts.leave(annId, 'preferences_page', []);
      await store.optOuts.remove(gone, []);
      const found = await outbox.broadcastRecipients.recipients([
        rosaId,
        annId,
        gone,
        'not-a-uuid',
        "1' OR '1'='1",
        randomUUID(),
      ]);
      expect([...found.keys()].sort()).toEqual([rosaId, annId].sort());
      expect(found.get(rosaId)).toEqual({
        id: rosaId,
        email: rosa.email,
        phone: rosa.phone,
        betaTesting: true,
        lastSeenAt: expect.any(String),
        confirmedAt: null,
        askedToConfirm: false,
        emailOptOutAt: null,
        smsOptOutAt: null,
        leftAt: null,
        smsConfirmedAt: null,
        joiningTextSentAt: null,
        language: 'en',
      });
      expect(found.get(annId)).toMatchObject({ betaTesting: false, leftAt: T0.toISOString() });
      expect(await outbox.broadcastRecipients.recipients(['not-a-uuid'])).toEqual(new Map());
      expect(await outbox.broadcastRecipients.recipients([])).toEqual(new Map());
    });

    it('the suppression list gives, per hash, whether the number replied STOP, its newest leaving, and when it was last undeliverable', async () => {
      const { store, clock } = await open();
      await store.optOuts.stopTexts([], { kind: 'phone', hash: 'phone-a', reason: 'sms_stop', source: 'sms_reply' });
      clock.advance(1000);
      const gone = await signUp(store, rosa);
      await store.optOuts.remove(gone, [
        { kind: 'phone', hash: 'phone-a', reason: 'deleted', source: 'owner' },
        { kind: 'phone', hash: 'phone-b', reason: 'deleted', source: 'owner' },
        { kind: 'email', hash: 'email-a', reason: 'deleted', source: 'owner' },
      ]);
      clock.advance(1000);
      const kept = await signUp(store, ann);
      await store.optOuts.markUndeliverable(kept, {
        kind: 'email',
        hash: 'email-b',
        reason: 'undeliverable',
        source: 'provider_answer',
      });
      const phones = await store.suppressions.entries('phone', [
        'phone-a',
        'phone-b',
        'phone-a',
        'phone-none',
        'email-a',
      ]);
      const none = NOT_SUPPRESSED;
      const deleted = { ...none, latestAt: at(1000), latestReason: 'deleted' };
      expect(phones).toEqual(
        new Map([
          ['phone-a', { ...deleted, stop: true, stopAt: at(0) }],
          ['phone-b', deleted],
        ]),
      );
      // An undeliverable address is not a leaving: it holds for that address alone (eligibility.ts).
      expect(await store.suppressions.entries('email', ['email-a', 'email-b'])).toEqual(
        new Map([
          ['email-a', deleted],
          ['email-b', { ...none, undeliverableAt: at(2000), undeliverableReason: 'undeliverable' }],
        ]),
      );
      expect((await store.consentEvents.history(kept)).map((event) => [event.kind, event.source])).toContainEqual([
        'email_undeliverable',
        'provider_answer',
      ]);
      expect(await store.suppressions.entries('email', [])).toEqual(new Map());
    });
  });
}
