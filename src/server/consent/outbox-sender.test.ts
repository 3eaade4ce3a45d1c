// The one outbox's rows of the kinds the product sends by itself (MessageQueueRepository), and the one
// sender that claims and judges them (OutboxSender), on every engine (decision 052). The kind's
// handler here says what a mail server would; the verdicts are the one judge's, from its answers.
import { describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase, type Db } from '../db/open-database.js';
import type { ClaimedMessage } from '../db/outbox-rows.js';
import type { QueuedKind } from '../db/outbox.table.js';
import { classifySmtpError } from '../messaging/smtp-answers.js';
import { capturedLog, ERROR } from '../test/captured-log.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { createAddressHasher } from '../messaging/link-tokens.js';
import {
  NO_WORDS,
  OutboxSender,
  RESTORE_HOLDS_MESSAGES,
  type QueuedKindHandler,
  type SendOutcome,
} from './outbox-sender.js';
import { Subscriptions } from './subscriptions.js';

const T0 = new Date('2026-11-24T09:00:00.000Z');
const KEY = 'outbox-sender-test-key-long-enough-1234';
const MINUTE = 60_000;

/** A mail server's answers, as nodemailer reports them, for the judge to read. */
const answers = {
  noSuchMailbox: Object.assign(new Error("Can't send mail - all recipients were rejected: 550 5.1.1 No such user"), {
    responseCode: 550,
    command: 'RCPT TO',
    code: 'EENVELOPE',
    response: '550 5.1.1 No such user',
  }),
  badPassword: Object.assign(new Error('Invalid login: 535 5.7.8 Authentication credentials invalid'), {
    responseCode: 535,
    code: 'EAUTH',
    command: 'AUTH PLAIN',
    response: '535 5.7.8 Authentication credentials invalid',
  }),
  /** The person's own server's policy (a group that takes mail from its members only). */
  membersOnly: Object.assign(
    new Error("Can't send mail - all recipients were rejected: 550 5.7.1 not authorized to send to this recipient"),
    {
      responseCode: 550,
      command: 'RCPT TO',
      code: 'EENVELOPE',
      response: '550 5.7.1 not authorized to send to this recipient',
    },
  ),
  busy: Object.assign(new Error('421 4.3.2 Try again later'), {
    responseCode: 421,
    command: 'RCPT TO',
    code: 'EENVELOPE',
    response: '421 4.3.2 Try again later',
  }),
};
const refused = (error: Error): SendOutcome => ({
  result: 'refused',
  verdict: classifySmtpError(error),
  answer: error.message,
});

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(suiteName('the one outbox and its sender', engine), () => {
    async function open() {
      let now = T0;
      const clock = { now: () => now, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
      const database = await engine.database();
      const store = await openDatabase(database, { now: clock.now });
      onTestFinished(() => store.close());
      return { store, clock, subscriptions: new Subscriptions(store, createAddressHasher(KEY)) };
    }

    async function people(store: Db, count: number): Promise<string[]> {
      const ids: string[] = [];
      for (let n = 0; n < count; n += 1) {
        await store.signups.add({
          name: `Person ${n}`,
          email: `p${n}@example.com`,
          phone: `+1555010${String(n).padStart(4, '0')}`,
          betaTesting: false,
        });
        ids.push((await store.subscribers.subscriberByEmailKey(`p${n}@example.com`))!.id);
      }
      return ids;
    }

    const states = async (store: Db, kind: QueuedKind) =>
      (await store.messageQueue.rows(kind)).map(({ signupId, state, attempts }) => ({ signupId, state, attempts }));

    it('queues each person once while their message is live, claims it once per lease, and ends it', async () => {
      const { store, clock } = await open();
      const ids = await people(store, 2);
      const [a, b] = ids as [string, string];
      const queue = store.messageQueue;
      expect(await queue.add('joining_text', 'sms', ids)).toBe(2);
      // Live already: nobody twice, whoever asks again; another kind is its own.
      expect(await queue.add('joining_text', 'sms', ids)).toBe(0);
      expect(await queue.add('reminder', 'email', ids)).toBe(2);

      const outbox = store.outbox;
      const texts = { kind: 'joining_text', leaseMs: 5 * MINUTE } as const;
      const claimed = await outbox.claim(texts, 'first', 10);
      expect(claimed.map(({ signupId, attempts }) => ({ signupId, attempts }))).toEqual([
        { signupId: a, attempts: 1 },
        { signupId: b, attempts: 1 },
      ]);
      // Held by its sender until the lease runs out; then another takes it (the first died).
      expect(await outbox.claim(texts, 'second', 10)).toEqual([]);
      clock.advance(5 * MINUTE + 1);
      const again = await outbox.claim(texts, 'second', 1);
      expect(again.map(({ signupId, attempts }) => ({ signupId, attempts }))).toEqual([{ signupId: a, attempts: 2 }]);

      await outbox.record('second', [{ id: again[0]!.id, result: 'sent' }]);
      // Not ours to end any more: the dead sender's late word changes nothing.
      await outbox.record('first', [{ id: claimed[0]!.id, result: 'permanent', error: 'late', kind: 'recipient' }]);
      // Nor may another sender end a row it does not hold.
      const inAMinute = new Date(clock.now().getTime() + MINUTE);
      await outbox.record('second', [{ id: claimed[1]!.id, result: 'skipped', error: 'not mine' }]);
      await outbox.record('first', [
        { id: claimed[1]!.id, result: 'temporary', retryAt: inAMinute, error: '421 busy', kind: 'message' },
      ]);
      expect(await states(store, 'joining_text')).toEqual([
        { signupId: a, state: 'sent', attempts: 2 },
        { signupId: b, state: 'failed_temporary', attempts: 1 },
      ]);
      // Sent is not live: the person may be queued for it again (a new number); b is still live.
      expect(await queue.add('joining_text', 'sms', ids)).toBe(1);
      // Due again only at its time.
      expect((await outbox.claim(texts, 'third', 10)).map((row) => row.signupId)).toEqual([a]);
      clock.advance(MINUTE);
      const retried = await outbox.claim(texts, 'third', 10);
      expect(retried.map(({ signupId, attempts }) => ({ signupId, attempts }))).toEqual([{ signupId: b, attempts: 2 }]);
      // An attempt given back (the fault was ours): the person's back-off does not grow.
      await outbox.record('third', [
        { id: retried[0]!.id, result: 'requeue', at: clock.now(), error: 'waiting', kind: null },
      ]);
      const [bAgain] = (await outbox.claim(texts, 'third', 10)).filter((row) => row.signupId === b);
      await outbox.record('third', [{ id: bAgain!.id, result: 'skipped', error: 'left' }]);
      expect((await states(store, 'joining_text')).filter((row) => row.signupId === b)).toEqual([
        { signupId: b, state: 'skipped', attempts: 2 },
      ]);
      // A broadcast's claim never sees these rows, nor these claims a broadcast's.
      const broadcast = (await store.broadcasts.create({
        name: 'launch',
        template: 'launch',
        segment: 'all',
        channels: ['email'],
        confirmation: 'everyone',
        content: { subject: 'Live', text: 'Hello', html: '<p>Hello</p>', sms: 'Hello' },
      }))!;
      await store.outbox.enqueue(broadcast.id, [{ signupId: a, channel: 'email' }]);
      expect(
        (await store.outbox.claim({ broadcastId: broadcast.id, channel: 'email' }, 'sender-1', 10)).map(
          (row) => row.signupId,
        ),
      ).toEqual([a]);
      const reminders = { kind: 'reminder', leaseMs: 5 * MINUTE } as const;
      expect((await outbox.claim(reminders, 'fourth', 10)).map((row) => row.signupId)).toEqual([a, b]);
    });

    it('a message that went while a yes or a "no" withdrew it is recorded as gone, with the person’s fact', async () => {
      const { store } = await open();
      const [person] = await people(store, 1);
      await store.messageQueue.add('confirmation', 'email', [person!]);
      const [row] = await store.outbox.claim({ kind: 'confirmation', leaseMs: 5 * MINUTE }, 'a sender', 10);
      // She confirms (from an earlier email) while this one is on its way: it is withdrawn, and it goes.
      expect(await store.subscribers.confirm(person!)).toBe('confirmed');
      expect((await store.messageQueue.rows('confirmation')).map((each) => each.state)).toEqual(['skipped']);
      await store.outbox.record('a sender', [{ id: row!.id, result: 'sent' }]);
      expect((await store.messageQueue.rows('confirmation')).map((each) => each.state)).toEqual(['sent']);
      expect((await store.subscribers.subscriber(person!))?.confirmationSentAt).not.toBeNull();
    });

    it('a message sent while the person waits holds up the next to them only while it is being sent', async () => {
      const { store, clock } = await open();
      const [person] = await people(store, 1);
      expect(await store.outbox.begin('button', 'email', person!)).toBeDefined();
      // One at a time: a second press meanwhile is told to ask again.
      expect(await store.outbox.begin('button', 'email', person!)).toBeUndefined();
      // Its server stopped mid-send (nobody comes back for it): after the lease it holds nobody up.
      clock.advance(5 * MINUTE + 1);
      expect(await store.outbox.begin('button', 'email', person!)).toBeDefined();
      expect((await store.messageQueue.rows('button')).map((row) => row.state)).toEqual(['skipped', 'sending']);
    });

    it('judges each answer once for every kind: the person’s refusal fails them, ours makes the batch wait, counted against nobody', async () => {
      const { store, clock, subscriptions } = await open();
      const ids = await people(store, 4);
      const { lines, logger } = capturedLog();
      const answerFor = new Map<string, SendOutcome>();
      const markedUndeliverable: string[] = [];
      const handler: QueuedKindHandler = {
        kind: 'reminder',
        what: 'reminder emails',
        channel: 'email',
        whenNo: 'skipped',
        send: async (message: ClaimedMessage) => answerFor.get(message.signupId) ?? { result: 'sent' },
        refusedForGood: async (message) => {
          markedUndeliverable.push(message.signupId);
        },
      };
      await store.messageQueue.add('reminder', 'email', ids);
      const sender = new OutboxSender(handler, {
        queue: store.outbox,
        people: subscriptions,
        logger,
        now: clock.now,
        random: () => 0.5,
        retryBaseMs: MINUTE,
      });
      // The first has no such mailbox; the second meets our wrong password: it and the rest wait.
      answerFor.set(ids[0]!, refused(answers.noSuchMailbox));
      answerFor.set(ids[1]!, refused(answers.badPassword));
      expect(await sender.run()).toBe('0 sent, 3 later, 1 failed, 0 skipped');
      expect(markedUndeliverable).toEqual([ids[0]]);
      expect(await states(store, 'reminder')).toEqual([
        { signupId: ids[0], state: 'failed_permanent', attempts: 1 },
        // Ours, and never tried: back in the queue as they were, counted against nobody.
        { signupId: ids[1], state: 'queued', attempts: 0 },
        { signupId: ids[2], state: 'queued', attempts: 0 },
        { signupId: ids[3], state: 'queued', attempts: 0 },
      ]);
      const told = lines.filter((line) => line.level === ERROR).map((line) => line.msg);
      expect(told).toEqual([
        expect.stringMatching(
          /^reminder emails cannot be sent just now, and will be retried: The mail server refused our sign-in/,
        ),
      ]);
      // Until its own back-off has passed, the sender claims nothing (nobody's attempts grow).
      expect(await sender.run()).toBeUndefined();
      // Put right: everyone waiting goes, the owner is told so, and nobody failed went again.
      answerFor.clear();
      clock.advance(2 * MINUTE);
      expect(await sender.run()).toBe('3 sent, 0 later, 0 failed, 0 skipped');
      expect(lines.at(-1)!.msg).toBe('reminder emails are going out again');
      expect((await states(store, 'reminder')).map((row) => row.state)).toEqual([
        'failed_permanent',
        'sent',
        'sent',
        'sent',
      ]);
      expect(markedUndeliverable).toEqual([ids[0]]);
    });

    it('a refusal by the person’s own server’s policy is skipped with the reason, as a broadcast skips it: never retried, never their “no”', async () => {
      const { store, clock, subscriptions } = await open();
      const ids = await people(store, 3);
      const { lines, logger } = capturedLog();
      const markedUndeliverable: string[] = [];
      const handler: QueuedKindHandler = {
        kind: 'confirmation',
        what: 'confirmation emails',
        channel: 'email',
        whenNo: 'skipped',
        send: async (message) => (message.signupId === ids[0] ? refused(answers.membersOnly) : { result: 'sent' }),
        refusedForGood: async (message) => {
          markedUndeliverable.push(message.signupId);
        },
      };
      await store.messageQueue.add('confirmation', 'email', ids);
      const sender = new OutboxSender(handler, {
        queue: store.outbox,
        people: subscriptions,
        logger,
        now: clock.now,
      });
      expect(await sender.run()).toBe('2 sent, 0 later, 0 failed, 1 skipped');
      expect((await states(store, 'confirmation')).map((row) => row.state)).toEqual(['skipped', 'sent', 'sent']);
      expect(markedUndeliverable).toEqual([]);
      expect(lines.map((line) => line.msg)).toContainEqual(
        expect.stringMatching(
          /^confirmation emails: one skipped: This person's own mail server refuses our email by its policy/,
        ),
      );
      // Nothing is left to try, however long one waits.
      clock.advance(24 * 60 * MINUTE);
      expect(await sender.run()).toBeUndefined();
    });

    it('holds every kind while a restore’s later “no”s are unknown: nothing is claimed, and the run says why', async () => {
      const { store, clock, subscriptions } = await open();
      const ids = await people(store, 2);
      const sentTo: string[] = [];
      const handler: QueuedKindHandler = {
        kind: 'reminder',
        what: 'confirmation reminders',
        channel: 'email',
        whenNo: 'skipped',
        queueDue: () => store.messageQueue.add('reminder', 'email', ids),
        send: async (message) => {
          sentTo.push(message.signupId);
          return { result: 'sent' };
        },
        refusedForGood: async () => undefined,
      };
      const held = async () => (await store.restoreMarks.unsettled()) !== undefined;
      const sender = new OutboxSender(handler, {
        queue: store.outbox,
        people: subscriptions,
        logger: capturedLog().logger,
        now: clock.now,
        held,
      });
      await store.restoreMarks.mark('lost.sqlite');
      expect(await sender.run()).toBe(RESTORE_HOLDS_MESSAGES);
      expect(await sender.sendDue()).toEqual({ sent: 0, later: 0, failed: 0, skipped: 0 });
      expect(sentTo).toEqual([]);
      expect(await store.messageQueue.rows('reminder')).toEqual([]);
    });

    it('the one gate stops every kind at the person’s “no” before its handler runs: gone, no longer due, email off, texts off', async () => {
      const { store, clock, subscriptions } = await open();
      const [gone, confirmed, emailOff, textsOff, willing] = (await people(store, 5)) as [
        string,
        string,
        string,
        string,
        string,
      ];
      await subscriptions.remove(gone, 'owner');
      await store.subscribers.confirm(confirmed);
      await subscriptions.updatePreferences(emailOff, { email: false }, 'preferences_page');
      await subscriptions.updatePreferences(textsOff, { sms: false }, 'preferences_page');
      const handed: string[] = [];
      const afterNo: string[] = [];
      const kind = (overrides: Pick<QueuedKindHandler, 'kind' | 'channel' | 'whenNo'>): QueuedKindHandler => ({
        what: 'messages',
        ...overrides,
        // A kind that would send to anyone: only the gate stands between it and a "no".
        send: async (_message, person) => {
          handed.push(`${overrides.kind}:${person.id}`);
          return { result: 'sent' };
        },
        stillDue: async (person) => (person.confirmedAt !== null ? 'confirmed' : undefined),
        afterNo: async (person) => {
          afterNo.push(person.id);
        },
        refusedForGood: async () => undefined,
      });
      const send = (handler: QueuedKindHandler) =>
        new OutboxSender(handler, {
          queue: store.outbox,
          people: subscriptions,
          logger: capturedLog().logger,
          now: clock.now,
        }).run();
      const everyone = [gone, confirmed, emailOff, textsOff, willing];

      await store.messageQueue.add('reminder', 'email', everyone);
      expect(await send(kind({ kind: 'reminder', channel: 'email', whenNo: 'skipped' }))).toBe(
        '2 sent, 0 later, 0 failed, 3 skipped',
      );
      const reminders = await store.messageQueue.rows('reminder');
      expect(reminders.map(({ signupId, state, error }) => ({ signupId, state, error }))).toEqual(
        expect.arrayContaining([
          { signupId: confirmed, state: 'skipped', error: 'confirmed' },
          { signupId: emailOff, state: 'skipped', error: NO_WORDS.email },
          { signupId: textsOff, state: 'sent', error: null },
          { signupId: willing, state: 'sent', error: null },
        ]),
      );
      expect(handed).toEqual([`reminder:${textsOff}`, `reminder:${willing}`]);
      expect(afterNo).toEqual([emailOff]);

      // Texts off waits (turned on again, the number still gets its one text), counted against nobody.
      handed.length = 0;
      await store.messageQueue.add('joining_text', 'sms', [textsOff, willing]);
      expect(await send(kind({ kind: 'joining_text', channel: 'sms', whenNo: { laterMs: MINUTE } }))).toBe(
        '1 sent, 1 later, 0 failed, 0 skipped',
      );
      expect(handed).toEqual([`joining_text:${willing}`]);
      expect((await states(store, 'joining_text')).find((row) => row.signupId === textsOff)).toEqual({
        signupId: textsOff,
        state: 'queued',
        attempts: 0,
      });
    });

    it('judges by the rule a broadcast uses, but gives nobody up: a "not now" is tried again however often, while others get through', async () => {
      const { store, clock, subscriptions } = await open();
      const [a, b] = (await people(store, 2)) as [string, string];
      const { logger } = capturedLog();
      let busy = true;
      const handler: QueuedKindHandler = {
        kind: 'confirmation',
        what: 'confirmation emails',
        channel: 'email',
        whenNo: 'the kind asks',
        send: async (message) => (message.signupId === b && busy ? refused(answers.busy) : { result: 'sent' }),
        refusedForGood: async () => undefined,
      };
      await store.messageQueue.add('confirmation', 'email', [a, b]);
      const sender = new OutboxSender(handler, {
        queue: store.outbox,
        people: subscriptions,
        logger,
        now: clock.now,
        random: () => 0.5,
        retryBaseMs: MINUTE,
      });
      expect(await sender.run()).toBe('1 sent, 1 later, 0 failed, 0 skipped');
      // The channel gets through (a's went) while b's server says "not now", more times than a
      // broadcast tries before giving a message up (BROADCAST_MAX_ATTEMPTS): b's is never given up,
      // since no owner's retry would bring it back.
      for (let run = 0; run < 11; run += 1) {
        clock.advance(2 * 60 * MINUTE);
        expect(await sender.run()).toBe('0 sent, 1 later, 0 failed, 0 skipped');
      }
      const [waiting] = (await store.messageQueue.rows('confirmation')).filter((row) => row.signupId === b);
      expect(waiting).toMatchObject({ state: 'failed_temporary', attempts: 12, error: answers.busy.message });
      expect(waiting?.nextAttemptAt).not.toBeNull();
      busy = false;
      clock.advance(2 * 60 * MINUTE);
      expect(await sender.run()).toBe('1 sent, 0 later, 0 failed, 0 skipped');
    });

    it('a busy answer is tried again with its own back-off; a handler that throws loses nothing', async () => {
      const { store, clock, subscriptions } = await open();
      const ids = await people(store, 2);
      const [a, b] = ids as [string, string];
      const { logger } = capturedLog();
      let busy = true;
      let broken = true;
      const handler: QueuedKindHandler = {
        kind: 'phone_change',
        what: 'phone change emails',
        channel: 'email',
        whenNo: 'skipped',
        send: async (message) => {
          if (message.signupId === a && busy) return refused(answers.busy);
          if (message.signupId === b && broken) throw new Error('database is gone for a moment');
          return { result: 'sent' };
        },
        refusedForGood: async () => undefined,
      };
      await store.messageQueue.add('phone_change', 'email', ids);
      const sender = new OutboxSender(handler, {
        queue: store.outbox,
        people: subscriptions,
        logger,
        now: clock.now,
        random: () => 0.5,
        retryBaseMs: MINUTE,
        concurrency: 2,
      });
      expect(await sender.run()).toBe('0 sent, 2 later, 0 failed, 0 skipped');
      expect(await states(store, 'phone_change')).toEqual([
        { signupId: a, state: 'failed_temporary', attempts: 1 },
        { signupId: b, state: 'failed_temporary', attempts: 0 },
      ]);
      busy = false;
      broken = false;
      clock.advance(MINUTE);
      expect(await sender.run()).toBe('2 sent, 0 later, 0 failed, 0 skipped');
    });
  });
}
