// Launch day recovers, on every engine, through a real SMTP server on loopback and the Twilio
// stand-in: a wrong password or credentials pause the channel and fail nobody; one dead address
// fails only its person; an outage longer than BROADCAST_GIVE_UP_AFTER_SECONDS pauses instead of
// abandoning; flaky answers still reach everyone once; `retry` brings back what an older release
// failed for a fault of ours. After each, resume reaches every person exactly once.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../db/sqlite-shared.js';
import { createReleaseSqlite } from '../db/test-fixtures/release-database.js';
import { addPeople, countsFor, setup } from '../test/broadcast-setup.js';
import { startCountingSmtpSink } from '../test/smtp-sink.js';
import { storeEngines } from '../test/store-engines.js';
import { tempDatabaseFile } from '../test/temp-database.js';
import type { PauseCause } from '../db/broadcast-pauses.table.js';
import type { Channel } from '../db/message-channels.js';
import type { BroadcastControl } from './broadcast-control.js';
import { createBroadcastControl } from '../compose.js';
import type { SenderReport } from './broadcast-sender-options.js';
import { machineClock } from '../test/clock.js';

const AUTH = { user: 'launch', pass: 'right-password' };

/** The owner's resume, as `sudo scamsavvy broadcast resume` does it: checks, lifts the pauses, sends here. */
async function resume(control: BroadcastControl, name: string) {
  const start = await control.startFromCommand(name, { workers: 1, resume: true, resendUnknown: false });
  return { start, report: await control.startSender(start.broadcast, { rates: { email: 2_000, sms: 2_000 } }).done };
}

/** The sender ended because one channel paused: for this cause, with a reason that names the fix. */
function expectPaused(report: SenderReport, channel: Channel, cause: PauseCause, reason: RegExp): void {
  expect(report.ended).toBe('paused');
  expect(report.pauses).toEqual([expect.objectContaining({ channel, cause, reason: expect.stringMatching(reason) })]);
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`launch day recovers on ${engine.name}`, () => {
    it(
      '535 for every message while a password is rotated, then 250: email pauses with the reason, nobody fails; resumed, everyone gets one',
      { timeout: 30_000 },
      async () => {
        const sink = await startCountingSmtpSink({ auth: AUTH });
        const { store, broadcasts, send, config } = await setup(engine.name, { smtp: sink });
        const people = await addPeople(store, 20);
        const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
        const control = createBroadcastControl(config, store);

        // The mail server refuses every sign-in (a password being rotated) until the new one is in place.
        sink.refuseAuth(true);
        // The check before starting says why, and starts nothing.
        await expect(
          control.startFromCommand('launch', { workers: 1, resume: false, resendUnknown: false }),
        ).rejects.toThrow(/^Not started: The mail server refused our sign-in/);
        expect((await store.broadcasts.get('launch'))?.state).toBe('ready');

        // A password revoked mid-send (the sender here starts without the check): it pauses at once.
        const first = await send(broadcast);
        expectPaused(first, 'email', 'sender', /sign-in.*SMTP_URL/);
        expect(first.pauses[0]?.answer).toMatch(/535/);
        expect(first.failedPermanent + first.failedTemporary + first.sent).toBe(0);
        const paused = await store.outbox.counts(broadcast.id);
        expect(paused).toMatchObject({ queued: 20, failed_permanent: 0, failed_temporary: 0, sending: 0, sent: 0 });
        expect((await store.broadcasts.get('launch'))?.state).toBe('paused');
        expect(sink.received()).toHaveLength(0);
        // Nobody's address was marked: they are all still reachable.
        for (const person of people)
          expect(
            await broadcasts.subscriptions.mayContact((await store.subscribers.subscriber(person.id))!, 'email'),
          ).toBe(true);
        // While paused, send refuses and names the reason.
        await expect(
          control.startFromCommand('launch', { workers: 1, resume: false, resendUnknown: false }),
        ).rejects.toThrow(/is paused: The mail server refused our sign-in/);

        // Resuming while it still refuses: the check says so again, and nothing is sent.
        await expect(
          control.startFromCommand('launch', { workers: 1, resume: true, resendUnknown: false }),
        ).rejects.toThrow(/^Not started: The mail server refused our sign-in/);
        expect(sink.received()).toHaveLength(0);
        // The new password is in place: the mail server takes the sign-in again.
        sink.refuseAuth(false);
        const { start, report } = await resume(control, 'launch');
        expect(start.resumed?.map((pause) => pause.channel)).toEqual(['email']);
        expect(report.ended).toBe('finished');
        expect(countsFor(sink, people)).toEqual(people.map(() => 1));
        expect(await store.broadcastPauses.channelPauses(broadcast.id)).toEqual([]);
        expect(await store.outbox.counts(broadcast.id)).toMatchObject({ sent: 20, failed_permanent: 0 });
      },
    );

    it('550 5.1.1 for one address: only that person fails, their address is marked undeliverable, everyone else gets theirs', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 10);
      const dead = people[3]!;
      sink.answerFor((to, stage) =>
        to === dead.email && stage === 'rcpt'
          ? { code: 550, message: '5.1.1 The email account does not exist' }
          : undefined,
      );
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const result = await send(broadcast);
      expect(result).toMatchObject({ ended: 'finished', sent: 9, failedPermanent: 1, failedTemporary: 0 });
      expect(countsFor(sink, people)).toEqual(people.map((person) => (person === dead ? 0 : 1)));
      expect(await store.outbox.counts(broadcast.id)).toMatchObject({ sent: 9, failed_permanent: 1 });
      const history = await store.consentEvents.history(dead.id);
      expect(history.map((event) => [event.kind, event.source])).toContainEqual([
        'email_undeliverable',
        'provider_answer',
      ]);
      const subscriber = (await store.subscribers.subscriber(dead.id))!;
      expect(await broadcasts.subscriptions.mayContact(subscriber, 'email')).toBe(false);
      // No later message tries it: the next broadcast leaves it out, and says why.
      const { report } = await broadcasts.create({ name: 'again', template: 'launch' });
      expect(report.channels.email).toMatchObject({
        recipients: 9,
        excluded: expect.objectContaining({ undeliverable: 1 }),
      });
    });

    it(
      'an outage longer than BROADCAST_GIVE_UP_AFTER_SECONDS pauses email and abandons nobody; restored and resumed, everyone gets one',
      { timeout: 120_000 },
      async () => {
        const { store, broadcasts, send, sink, config } = await setup(engine.name, {
          env: { BROADCAST_GIVE_UP_AFTER_SECONDS: '600' },
        });
        expect(config.broadcast.giveUpAfterSeconds).toBe(600);
        const people = await addPeople(store, 8);
        const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
        await sink.stop();
        // The port stays ours while the server is down (every connection turned away with 421, as a
        // mail server going down for maintenance does), so no other test's server can take it.
        let tries = 0;
        const down = createServer((socket) => {
          tries += 1;
          socket.on('error', () => undefined);
          socket.end('421 4.3.2 Service not available, closing transmission channel\r\n');
        });
        await new Promise<void>((resolve) => down.listen(sink.port, '127.0.0.1', resolve));
        // The outage is measured on a clock the test moves on: the machine's plus what the test adds.
        // Past the first failures the channel is still sending; only the clock moved past
        // BROADCAST_GIVE_UP_AFTER_SECONDS (600 s here, far beyond what the test takes) pauses it.
        let movedOn = 0;
        const clock = () => machineClock.ms() + movedOn;
        const running = send(broadcast, { retryBaseMs: 200, maxRetryMs: 2_000, maxAttempts: 3, now: clock });
        const channelPaused = async () => (await store.broadcastPauses.channelPauses(broadcast.id)).length > 0;
        // A message has failed "for now": the outage began then.
        await expect
          .poll(async () => (await store.outbox.counts(broadcast.id)).failed_temporary, { timeout: 60_000 })
          .toBeGreaterThan(0);
        const triedMore = (count: number) => {
          const from = tries;
          return expect.poll(() => tries - from, { timeout: 60_000 }).toBeGreaterThanOrEqual(count);
        };
        await triedMore(3);
        expect(await channelPaused()).toBe(false);
        movedOn = 500_000;
        await triedMore(3);
        expect(await channelPaused()).toBe(false);
        movedOn = 700_000;
        const outage = await running;
        await new Promise((resolve) => down.close(resolve));
        expectPaused(
          outage,
          'email',
          'outage',
          /^The mail server has not accepted an email since \d\d:\d\d UTC .*Nobody was given up/,
        );
        // Many more tries than maxAttempts, and still nobody given up or failed.
        const counts = await store.outbox.counts(broadcast.id);
        expect(counts.failed_permanent).toBe(0);
        expect(counts.failed_temporary).toBe(counts.retrying);
        expect(counts.queued + counts.failed_temporary).toBe(8);

        await sink.restart();
        const { report } = await resume(createBroadcastControl(config, store), 'launch');
        expect(report.ended).toBe('finished');
        expect(countsFor(sink, people)).toEqual(people.map(() => 1));
      },
    );

    it("two people refused by their own server's policy are skipped with the reason; the send finishes for everyone else", async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 10);
      const guarded = [people[2]!, people[6]!];
      sink.answerFor((to, stage) =>
        stage === 'rcpt' && guarded.some((person) => person.email === to)
          ? {
              code: 550,
              message: '5.7.133 RESOLVER.RST.SenderNotAuthenticatedForGroup; not authorized to send to this recipient',
            }
          : undefined,
      );
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const result = await send(broadcast);
      expect(result).toMatchObject({ ended: 'finished', sent: 8, skipped: 2, failedPermanent: 0, pauses: [] });
      expect(countsFor(sink, people)).toEqual(people.map((person) => (guarded.includes(person) ? 0 : 1)));
      for (const person of guarded) {
        const subscriber = (await store.subscribers.subscriber(person.id))!;
        expect(await broadcasts.subscriptions.mayContact(subscriber, 'email')).toBe(true);
      }
    });

    it('a DMARC refusal of a quarter of the list pauses the channel and suppresses nobody; after the fix each gets exactly one', async () => {
      const { store, broadcasts, send, sink, control } = await setup(engine.name);
      const people = await addPeople(store, 12);
      const strict = people.filter((_, index) => index % 4 === 1);
      let fixed = false;
      sink.answerFor((to, stage) =>
        !fixed && stage === 'rcpt' && strict.some((person) => person.email === to)
          ? {
              code: 550,
              message:
                "5.7.26 Unauthenticated email from scamsavvy.example is not accepted due to domain's DMARC policy",
            }
          : undefined,
      );
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const first = await send(broadcast);
      expect(first.ended).toBe('paused');
      expect(first.pauses[0]?.reason).toMatch(/authentication failed.*SPF, DKIM and DMARC/);
      for (const person of people) {
        const subscriber = (await store.subscribers.subscriber(person.id))!;
        expect(await broadcasts.subscriptions.mayContact(subscriber, 'email')).toBe(true);
      }
      fixed = true;
      const { report: second } = await resume(control, 'launch');
      expect(second).toMatchObject({ ended: 'finished' });
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
    });

    it('one person whose answer pauses the channel twice is held; the send goes on; retry --held reaches them once', async () => {
      const { store, broadcasts, send, sink, control } = await setup(engine.name);
      const people = await addPeople(store, 10);
      const odd = people[3]!;
      let fixed = false;
      sink.answerFor((to, stage) =>
        !fixed && stage === 'rcpt' && to === odd.email
          ? { code: 554, message: '5.7.1 Relay access denied' }
          : undefined,
      );
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const first = await send(broadcast);
      expectPaused(first, 'email', 'sender', /refused to send email for us/);
      // Resumed without a fix: the same message is tried first, would pause again, and is held.
      const { report: second } = await resume(control, 'launch');
      expect(second).toMatchObject({ ended: 'finished', pauses: [] });
      expect(countsFor(sink, people)).toEqual(people.map((person) => (person === odd ? 0 : 1)));
      const held = await control.failed.held(broadcast);
      expect(held).toEqual([
        {
          channel: 'email',
          person: expect.stringMatching(/^.{0,2}•••@example\.com$/),
          answer: expect.stringContaining('Relay access denied'),
        },
      ]);
      expect(JSON.stringify(held)).not.toContain(odd.email);
      const subscriber = (await store.subscribers.subscriber(odd.id))!;
      expect(await broadcasts.subscriptions.mayContact(subscriber, 'email')).toBe(true);
      // A plain retry leaves the held one; --held queues it, and it goes once.
      expect(await control.failed.retry(broadcast, { includeUndeliverable: false })).toMatchObject({
        retryable: 0,
        held: 1,
      });
      expect(await control.failed.held(broadcast)).toHaveLength(1);
      fixed = true;
      expect(await control.failed.retry(broadcast, { includeUndeliverable: false, held: true })).toMatchObject({
        held: 1,
      });
      expect(await send(broadcast)).toMatchObject({ ended: 'finished', sent: 1 });
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
    });

    it('a block list refusing some is tried again, suppresses nobody, and is counted by receiving domain; five different ones refused in a row pause the channel', async () => {
      const { store, broadcasts, send, sink, control } = await setup(engine.name);
      const people = await addPeople(store, 9);
      const listed = [people[1]!, people[4]!, people[7]!];
      const SPAMHAUS = '5.7.1 Service unavailable; Client host [203.0.113.5] blocked using zen.spamhaus.org';
      sink.answerFor((to, stage) =>
        stage === 'rcpt' && listed.some((person) => person.email === to) ? { code: 554, message: SPAMHAUS } : undefined,
      );
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const result = await send(broadcast, { maxAttempts: 2 });
      expect(result).toMatchObject({ ended: 'finished', sent: 6, failedPermanent: 0, pauses: [] });
      expect(await control.refusedForOurSending(broadcast)).toEqual([{ domain: 'example.com', count: 3 }]);
      for (const person of listed) {
        const subscriber = (await store.subscribers.subscriber(person.id))!;
        expect(await broadcasts.subscriptions.mayContact(subscriber, 'email')).toBe(true);
      }

      // Everyone refused: the fifth different message refused with none getting through between pauses the channel.
      // (Above, the three refused were tried again after the rest went: the same three count once each.)
      sink.answerFor((_to, stage) => (stage === 'rcpt' ? { code: 554, message: SPAMHAUS } : undefined));
      await addPeople(store, 6, { prefix: 'more' });
      await broadcasts.topUp('launch');
      const again = await send((await store.broadcasts.get('launch'))!);
      expectPaused(again, 'email', 'sender', /refused our email for our sending, not for this person/);
    });

    it('the message log failing (a database blip) never stops a message nor sends one twice', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 6);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      let failures = 0;
      const fail = () => {
        failures += 1;
        return Promise.reject(new Error('Connection terminated unexpectedly'));
      };
      // The log is written once per batch before its messages leave; after, with the outcomes.
      store.sentMessages.sending = fail;
      const result = await send(broadcast);
      expect(failures).toBeGreaterThanOrEqual(1);
      expect(result).toMatchObject({ ended: 'finished', sent: 6, failedTemporary: 0 });
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
    });

    it('421 on every other message: everyone is reached once', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 12);
      sink.answerFor((_to, stage, count) =>
        stage === 'data' && count % 2 === 1
          ? { code: 421, message: '4.7.0 Try again later, closing connection' }
          : undefined,
      );
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const result = await send(broadcast, { rates: { email: 50 } });
      expect(result.ended).toBe('finished');
      expect(result.failedTemporary).toBeGreaterThan(0);
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
      expect(await store.outbox.counts(broadcast.id)).toMatchObject({
        sent: 12,
        failed_temporary: 0,
        failed_permanent: 0,
      });
    });

    it('Twilio 401 pauses texts (email goes on) and fails nobody; credentials fixed and resumed, everyone gets one text', async () => {
      const { store, broadcasts, send, sink, twilio, config } = await setup(engine.name, { texts: true });
      const people = await addPeople(store, 6);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch', channels: ['email', 'sms'] });
      twilio!.refuseAuth(true);
      const first = await send(broadcast);
      expectPaused(first, 'sms', 'sender', /TWILIO_AUTH_TOKEN/);
      // Email was not held up by the texts' pause.
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
      expect(await store.outbox.counts(broadcast.id, 'sms')).toMatchObject({ queued: 6, failed_permanent: 0 });
      expect(twilio!.sent()).toHaveLength(0);

      twilio!.refuseAuth(false);
      const { report } = await resume(createBroadcastControl(config, store), 'launch');
      expect(report.ended).toBe('finished');
      const texted = twilio!.sent().map((text) => text.to);
      expect(texted.sort()).toEqual(people.map((person) => person.phone).sort());
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
    });

    it(
      'texts paused by an outage while email still sends: resumed then, they go on at once and are not paused again',
      { timeout: 20_000 },
      async () => {
        const { store, broadcasts, send, sink, twilio } = await setup(engine.name, { texts: true });
        const people = await addPeople(store, 30);
        const { broadcast } = await broadcasts.create({
          name: 'launch',
          template: 'launch',
          channels: ['email', 'sms'],
        });
        twilio!.failNext(503, 20500, 'Service unavailable', 100_000);
        const running = send(broadcast, {
          rates: { email: 6, sms: 100 },
          giveUpMs: 1_000,
          retryBaseMs: 100,
          maxRetryMs: 200,
        });
        // Texts pause (nothing got through for a second) while the email is still going out.
        const deadline = performance.now() + 10_000; // a hang guard, on the monotonic clock
        while (!(await store.broadcastPauses.channelPauses(broadcast.id)).some((pause) => pause.cause === 'outage')) {
          if (performance.now() > deadline) throw new Error('the texts did not pause');
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(sink.received().length).toBeLessThan(people.length); // email is still going
        twilio!.stopFailing();
        await store.broadcastPauses.clearPauses(broadcast.id); // the owner resumes (the dashboard, or resume)
        const report = await running;
        expect(report.ended).toBe('finished');
        expect(report.pauses).toEqual([]);
        expect(
          twilio!
            .sent()
            .map((text) => text.to)
            .sort(),
        ).toEqual(people.map((person) => person.phone).sort());
        expect(countsFor(sink, people)).toEqual(people.map(() => 1));
      },
    );

    it('Twilio 21610 for one number: that person becomes a STOP, and no later message texts them', async () => {
      const { store, broadcasts, send, twilio } = await setup(engine.name, { texts: true });
      const people = await addPeople(store, 4);
      const stopper = people[1]!;
      twilio!.failFor(stopper.phone, 400, 21610, 'Attempt to send to unsubscribed recipient');
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch', channels: ['sms'] });
      const result = await send(broadcast);
      expect(result).toMatchObject({ ended: 'finished', sent: 3, failedPermanent: 1 });
      const subscriber = (await store.subscribers.subscriber(stopper.id))!;
      expect(subscriber.smsOptOutAt).not.toBeNull();
      expect((await store.consentEvents.history(stopper.id)).map((event) => [event.kind, event.source])).toContainEqual(
        ['sms_off', 'provider_answer'],
      );
      expect(await broadcasts.subscriptions.mayContact(subscriber, 'sms')).toBe(false);
      const { report } = await broadcasts.create({ name: 'again', template: 'launch', channels: ['sms'] });
      expect(report.channels.sms).toMatchObject({ recipients: 3 });
      expect(report.channels.sms?.excluded.stopped ?? report.channels.sms?.excluded.opted_out).toBe(1);
    });

    it('retry queues what gave up and what failed for a fault of ours, never what was sent, skipped or unknown', async () => {
      const { store, broadcasts, send, sink, config } = await setup(engine.name);
      const people = await addPeople(store, 6);
      const dead = people[0]!;
      sink.answerFor((to, stage) =>
        to === dead.email && stage === 'rcpt' ? { code: 550, message: '5.1.1 No such user' } : undefined,
      );
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      // One person's server keeps saying "later" while the others get through: that one gives up.
      const slow = people[1]!;
      sink.answerFor((to, stage) =>
        to === dead.email && stage === 'rcpt'
          ? { code: 550, message: '5.1.1 No such user' }
          : to === slow.email && stage === 'rcpt'
            ? { code: 452, message: '4.2.2 Mailbox full' }
            : undefined,
      );
      const first = await send(broadcast, { maxAttempts: 2, retryBaseMs: 5, maxRetryMs: 10 });
      expect(first.ended).toBe('finished');
      expect(await store.outbox.counts(broadcast.id)).toMatchObject({
        sent: 4,
        failed_permanent: 1,
        failed_temporary: 1,
      });

      const control = createBroadcastControl(config, store);
      const plan = await control.failed.plan(broadcast);
      expect(plan).toMatchObject({ retryable: 1, undeliverable: 1 });
      sink.answerFor(undefined);
      const done = await control.failed.retry(broadcast, { includeUndeliverable: false });
      expect(done.retryable).toBe(1);
      expect(await store.outbox.counts(broadcast.id)).toMatchObject({ queued: 1, sent: 4, failed_permanent: 1 });
      expect((await store.broadcasts.get('launch'))?.state).toBe('ready');
      await send((await store.broadcasts.get('launch'))!);
      expect(countsFor(sink, people)).toEqual(people.map((person) => (person === dead ? 0 : 1)));

      // The owner believes the "no such user" was wrong: asked for, it goes again, and the mark is lifted.
      await control.failed.retry(broadcast, { includeUndeliverable: true });
      expect(await broadcasts.subscriptions.mayContact((await store.subscribers.subscriber(dead.id))!, 'email')).toBe(
        true,
      );
      await send((await store.broadcasts.get('launch'))!);
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
      expect((await store.consentEvents.history(dead.id)).map((event) => event.kind)).toContain(
        'email_undeliverable_cleared',
      );
    });
  });
}

describe('a database from the release before, with a send failed by its old rule', () => {
  it('rows failed for good by a 535 (our password, not the person) are queued again by retry and sent once', async () => {
    const file = tempDatabaseFile();
    createReleaseSqlite(file);
    const sink = await startCountingSmtpSink();
    const { store, broadcasts, send, config } = await setup('sqlite', { smtp: sink, file });
    const people = await addPeople(store, 5);
    const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
    // What the release left after a send with a wrong password: every row failed "for good" with
    // the 535 answer, and no kind recorded (migration 7 adds the column empty).
    const raw = openSqlite(file);
    raw
      .prepare(
        "UPDATE outbox SET state = 'failed_permanent', attempts = 1, next_attempt_at = NULL, error = ? WHERE broadcast_id = ?",
      )
      .run('Invalid login: 535 5.7.8 Authentication credentials invalid', broadcast.id);
    raw.prepare("UPDATE broadcasts SET state = 'finished' WHERE id = ?").run(broadcast.id);
    // Ours (the five and Rosa, who was on the release's list), and the release's own three rows.
    const ours = (await store.outbox.counts(broadcast.id)).total;
    expect(ours).toBe(6);
    expect(raw.prepare('SELECT count(*) AS n FROM outbox WHERE failure_kind IS NULL').get()).toEqual({
      n: ours + 3,
    });
    raw.close();

    const control = createBroadcastControl(config, store);
    const plan = await control.failed.plan(broadcast);
    expect(plan).toMatchObject({ retryable: ours, undeliverable: 0 });
    expect(plan.groups).toEqual([
      expect.objectContaining({ channel: 'email', count: ours, reason: expect.stringMatching(/sign-in/) }),
    ]);
    await control.failed.retry(broadcast, { includeUndeliverable: false });
    const report = await send((await store.broadcasts.get('launch'))!);
    expect(report.ended).toBe('finished');
    expect(countsFor(sink, people)).toEqual(people.map(() => 1));
    // Rosa had the launch email already, from the release's own launch broadcast: each kind of message
    // goes to each person once, ever (issue 54).
    expect(sink.received()).toHaveLength(ours - 1);
  });
});

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`a broadcast's health on ${engine.name}`, () => {
    it(
      'the SMTP server refuses 3% of 2,000: the broadcast pauses itself after 1,000 with the bounce rate, and goes on only despite its health',
      // 2,000 real SMTP sends: about 30 s on 2 busy cores; the limit is a hang guard, not a speed check.
      { timeout: 120_000 },
      async () => {
        const { store, broadcasts, send, sink, config } = await setup(engine.name);
        const people = await addPeople(store, 2_000);
        const refused = new Set(people.filter((_, index) => index % 33 === 5).map((person) => person.email));
        sink.answerFor((to, stage) =>
          stage === 'rcpt' && refused.has(to)
            ? { code: 550, message: '5.1.1 The email account does not exist' }
            : undefined,
        );
        const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
        const first = await send(broadcast, { rates: { email: 400 } });
        expectPaused(
          first,
          'email',
          'health',
          /^Paused to protect the domain: [\d.]+% of its emails bounced \(the limit is 2%\)/,
        );
        // The rate it names is the one it read: past the limit, near the 3% refused.
        const named = Number(/domain: ([\d.]+)%/.exec(first.pauses[0]?.reason ?? '')?.[1]);
        expect(named).toBeGreaterThan(2);
        expect(named).toBeLessThan(4);
        const health = await store.messageHealth.health(
          broadcast.id,
          'email',
          (await store.broadcasts.get('launch'))!.startedAt,
        );
        expect(health.messages).toBeGreaterThanOrEqual(1_000);
        expect(health.messages).toBeLessThan(2_000);
        expect(health.bounceRate).toBeGreaterThan(0.02);

        const control = createBroadcastControl(config, store);
        await expect(
          control.startFromCommand('launch', { workers: 1, resume: true, resendUnknown: false }),
        ).rejects.toThrow(
          /paused itself: Paused to protect the domain.*\nTo go on anyway: sudo scamsavvy broadcast resume launch --despite-health/s,
        );
        const start = await control.startFromCommand('launch', {
          workers: 1,
          resume: true,
          resendUnknown: false,
          despiteHealth: true,
        });
        const report = await control.startSender(start.broadcast, { rates: { email: 2_000 } }).done;
        expect(report.ended).toBe('finished');
        expect(countsFor(sink, people)).toEqual(people.map((person) => (refused.has(person.email) ? 0 : 1)));
      },
    );
  });
}
