// Broadcasts on every engine, through a real SMTP server on loopback and a stand-in for Twilio's API:
// who is chosen, exactly once, opt-outs mid-broadcast, failures, pause and resume, top-up, unknowns.
import { spawn } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/open-database.js';
import { SenderBusyError } from '../db/broadcast-senders-repository.js';
import { addPeople, configFor, countsFor, setup } from '../test/broadcast-setup.js';
import { waitForMatch } from '../test/poll.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { storeEngines } from '../test/store-engines.js';
import { transportsFrom } from './broadcasts.js';
import { createBroadcastControl } from '../compose.js';

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`broadcasts on ${engine.name}`, () => {
    it('takes people who may be written to (those who signed up before confirmation was on too), says why the others are out, and sends each one email', async () => {
      const { store, broadcasts, send, sink, database } = await setup(engine.name);
      const people = await addPeople(store, 12, { confirmed: (index) => index !== 0 });
      // person0 signed up before confirmation was switched on: never asked, so not left out.
      const beforeConfirmation = people.find((p) => p.email === 'person0@example.com');
      // One who signed up while confirmation was on, was asked, and has not pressed the button.
      const asking = await openDatabase(database, { confirmSignups: true });
      await asking.signups.add({
        name: 'Asked',
        phone: '+15559990000',
        email: 'asked@example.com',
        betaTesting: false,
        consentVersion: '2026-11-23',
      });
      await asking.close();
      const [leaver, emailOff, deleted] = people.filter((p) => p !== beforeConfirmation).slice(5, 8);
      await broadcasts.subscriptions.leave(leaver!.id, 'preferences_page');
      await broadcasts.subscriptions.updatePreferences(emailOff!.id, { email: false }, 'preferences_page');
      await broadcasts.subscriptions.remove(deleted!.id, 'preferences_page');

      const { broadcast, report } = await broadcasts.create({ name: 'launch', template: 'launch' });
      expect(broadcast.channels).toEqual(['email']);
      expect(broadcast.confirmation).toBe('asked');
      expect(report.people).toBe(12); // the deleted person is gone
      expect(report.channels.email?.recipients).toBe(9);
      expect(report.channels.email?.beforeConfirmation).toBe(1);
      expect(report.channels.email?.excluded).toMatchObject({ left: 1, opted_out: 1, not_confirmed: 1 });

      // --confirmed-only leaves out the one who was never asked as well.
      const strict = await broadcasts.create({ name: 'strict', template: 'launch', confirmation: 'confirmed_only' });
      expect(strict.report.channels.email).toMatchObject({ recipients: 8, beforeConfirmation: 0 });
      expect(strict.report.channels.email?.excluded).toMatchObject({ not_confirmed: 2 });

      const result = await send(broadcast);
      expect(result.ended).toBe('finished');
      expect(result.sent).toBe(9);
      const expected = people.filter((person) => ![leaver, emailOff, deleted].includes(person));
      expect(countsFor(sink, expected)).toEqual(expected.map(() => 1));
      expect(sink.countsByAddress().get('asked@example.com')).toBeUndefined();
      expect(sink.received()).toHaveLength(9);
      const counts = await store.outbox.counts(broadcast.id);
      expect(counts).toMatchObject({ sent: 9, queued: 0, sending: 0, total: 9 });
      expect((await store.broadcasts.get('launch'))?.state).toBe('finished');

      // Sending again sends nobody anything.
      const again = await send((await store.broadcasts.get('launch'))!);
      expect(again.sent).toBe(0);
      expect(sink.received()).toHaveLength(9);
    });

    it('refuses a launch or beta broadcast without MAIL_POSTAL_ADDRESS, naming it', async () => {
      const engineSetup = storeEngines.find((each) => each.name === engine.name)!;
      const store = await openDatabase(await engineSetup.database());
      onTestFinished(() => store.close());
      const config = configFor('smtp://127.0.0.1:9', undefined, { MAIL_POSTAL_ADDRESS: '' });
      const broadcasts = createBroadcastControl(config, store).broadcasts;
      await addPeople(store, 1);
      for (const template of ['launch', 'beta'])
        await expect(broadcasts.create({ name: template, template })).rejects.toThrow(/MAIL_POSTAL_ADDRESS/);
      expect(await store.broadcasts.get('launch')).toBeUndefined();
    });

    it('writes a whole email: both parts, the person’s own unsubscribe link, list headers, a Message-ID per outbox row', async () => {
      const full = await startSmtpSink();
      onTestFinished(() => full.stop());
      const engineSetup = storeEngines.find((each) => each.name === engine.name)!;
      const store = await openDatabase(await engineSetup.database());
      onTestFinished(() => store.close());
      const config = configFor(full.url);
      const broadcasts = createBroadcastControl(config, store).broadcasts;
      const [person] = await addPeople(store, 1);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const transports = transportsFrom(config);
      onTestFinished(() => transports.email?.close());
      await broadcasts.sender(broadcast, transports, { rates: { email: 100 } }).run(broadcast);
      const mail = await full.waitFor((each) => each.envelope.to.includes(person!.email));
      const manage = broadcasts.links.sign('manage', person!.id);
      // The unsubscribe link and header carry a token that only turns email off (issue 54).
      const off = broadcasts.links.sign('off', person!.id);
      expect(mail.parsed.subject).toBe(broadcast.content.subject);
      expect(mail.parsed.from?.text).toContain('news@scamsavvy.example');
      expect(mail.parsed.text).toContain(`https://scamsavvy.example/unsubscribe/${off}`);
      expect(mail.parsed.text).toContain(`https://scamsavvy.example/preferences/${manage}`);
      expect(mail.parsed.html || '').toContain(`https://scamsavvy.example/unsubscribe/${off}`);
      expect(mail.raw).toMatch(new RegExp(`^List-Unsubscribe:\\s+<https://scamsavvy.example/unsubscribe/${off}>`, 'm'));
      expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
      // Who sends, and where (CAN-SPAM): in both parts.
      expect(mail.parsed.text).toContain('ScamSavvy, 100 Example Street, Springfield, IL 62701');
      expect(mail.parsed.html || '').toContain('ScamSavvy, 100 Example Street, Springfield, IL 62701');
      expect(mail.raw).toMatch(/^List-Id: .*<launch\.scamsavvy\.example>/m);
      // The ids can be counted; the tag after them (an HMAC under SECRET_KEY) cannot be made up.
      expect(mail.parsed.messageId).toMatch(
        new RegExp(`^<broadcast-${broadcast.id}\\.message-\\d+\\.[0-9a-f]{20}@scamsavvy\\.example>$`),
      );
      // No link leaves our site (the stores are reached through SITE_URL/app).
      for (const href of (mail.parsed.html || '').matchAll(/href="([^"]+)"/g))
        expect(href[1]).toMatch(/^https:\/\/scamsavvy\.example(\/|$)/);
    });

    it('skips people who unsubscribe or reply STOP while the broadcast is sending', async () => {
      const { store, broadcasts, send, sink, twilio } = await setup(engine.name, { texts: true });
      const people = await addPeople(store, 30);
      const { broadcast, report } = await broadcasts.create({
        name: 'launch',
        template: 'launch',
        channels: ['email', 'sms'],
      });
      expect(report.channels.sms?.recipients).toBe(30);
      const [leaver, stopper] = [people[28]!, people[29]!]; // last in the outbox's order
      // Ten a second: a batch is five, checked just before it goes, so the last ones are checked after the opt-outs.
      const running = send(broadcast, { rates: { email: 10, sms: 10 } });
      await waitForMatch(
        () => sink.received(),
        () => sink.received().length >= 3,
        10_000,
        'three emails',
      );
      await broadcasts.subscriptions.leave(leaver.id, 'one_click_unsubscribe');
      await broadcasts.subscriptions.stopTexts(stopper.phone);
      const result = await running;
      expect(result.ended).toBe('finished');
      expect(countsFor(sink, [leaver])).toEqual([0]);
      expect(countsFor(sink, people.slice(0, 28))).toEqual(people.slice(0, 28).map(() => 1));
      expect(countsFor(sink, [stopper])).toEqual([1]); // STOP stops texts, not email
      const texted = twilio!.sent().map((text) => text.to);
      expect(texted).not.toContain(leaver.phone);
      expect(texted).not.toContain(stopper.phone);
      expect(texted).toHaveLength(28);
      expect(new Set(texted).size).toBe(28);
      expect((await store.outbox.counts(broadcast.id, 'email')).skipped).toBe(1);
      expect((await store.outbox.counts(broadcast.id, 'sms')).skipped).toBe(2);
    });

    it('retries a temporary SMTP failure and never retries a permanent one', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 10);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      sink.rejectNext(451, 'Try again later', 3);
      const first = await send(broadcast, { rates: { email: 5 } }); // one at a time: the first three fail
      expect(first.ended).toBe('finished');
      expect(first.failedTemporary).toBe(3);
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
      const rows = await store.outbox.counts(broadcast.id);
      expect(rows).toMatchObject({ sent: 10, failed_temporary: 0, failed_permanent: 0 });

      const more = await addPeople(store, 3, { prefix: 'refused' });
      await broadcasts.topUp('launch');
      sink.rejectNext(550, '5.1.1 No such user', 1);
      const second = await send((await store.broadcasts.get('launch'))!, { rates: { email: 5 } });
      expect(second.failedPermanent).toBe(1);
      expect(second.sent).toBe(2);
      const refused = more[0]!;
      expect(countsFor(sink, [refused])).toEqual([0]);
      expect(await store.outbox.counts(broadcast.id)).toMatchObject({ sent: 12, failed_permanent: 1, queued: 0 });
    });

    it('records what it sent through a short database outage, so nothing sent is left unknown', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 6);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const record = store.outbox.record.bind(store.outbox);
      let failures = 0;
      store.outbox.record = async (...args) => {
        if (failures < 2) {
          failures += 1;
          throw new Error('Connection terminated unexpectedly');
        }
        return record(...args);
      };
      const result = await send(broadcast);
      expect(failures).toBe(2);
      expect(result).toMatchObject({ ended: 'finished', sent: 6 });
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
      expect(await store.outbox.counts(broadcast.id)).toMatchObject({ sent: 6, sending: 0, unknown: 0 });
    });

    it('marks what it held unknown when the database stays away, ends only once the batch still on the wire has settled, and the next send finishes the rest', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 6);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const record = store.outbox.record.bind(store.outbox);
      const claim = store.outbox.claim.bind(store.outbox);
      let claims = 0;
      store.outbox.claim = async (...args) => {
        claims += 1;
        return claim(...args);
      };
      // The first batch's write fails once the second batch is on the wire; the second's fails later.
      // Whatever the machine's speed, the second batch is still out when the first one fails.
      let writes = 0;
      let ended = false;
      let writesAfterTheEnd = 0;
      let secondSettled: () => void = () => undefined;
      const second = new Promise<void>((resolve) => (secondSettled = resolve));
      store.outbox.record = async () => {
        writes += 1;
        if (ended) writesAfterTheEnd += 1;
        if (writes === 1) while (claims < 2) await new Promise((resolve) => setTimeout(resolve, 5));
        else {
          await new Promise((resolve) => setTimeout(resolve, 50));
          secondSettled();
        }
        throw new Error('Connection terminated unexpectedly');
      };
      await expect(send(broadcast, { rates: { email: 4 }, recordAttempts: 1 })).rejects.toThrow(
        /Connection terminated/,
      );
      ended = true;
      await second; // settled before the sender ended, or (the bug this guards against) after it
      expect(writesAfterTheEnd).toBe(0);
      const held = (await store.outbox.counts(broadcast.id)).unknown;
      expect(held).toBe(4); // both batches of two: sent, perhaps, and not recorded
      expect(await store.outbox.counts(broadcast.id)).toMatchObject({ sending: 0, queued: 6 - held });

      store.outbox.record = record;
      store.outbox.claim = claim;
      const result = await send((await store.broadcasts.get('launch'))!);
      expect(result.ended).toBe('finished');
      expect(await store.outbox.counts(broadcast.id)).toMatchObject({ sent: 6 - held, unknown: held, sending: 0 });
      expect(countsFor(sink, people).every((count) => count <= 1)).toBe(true);
    });

    it('gives up one person’s message after the last attempt while the rest get through, and says so', async () => {
      const { store, broadcasts, config, transports, sink } = await setup(engine.name);
      const people = await addPeople(store, 3);
      const [busy] = people;
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      sink.answerFor((to, stage) =>
        to === busy?.email && stage === 'rcpt'
          ? { code: 451, message: '4.3.0 Mailbox temporarily unavailable' }
          : undefined,
      );
      expect(config.broadcast.maxAttempts).toBe(6);
      const result = await broadcasts
        .sender(broadcast, transports, { rates: { email: 100 }, retryBaseMs: 5, maxRetryMs: 10, maxAttempts: 3 })
        .run(broadcast);
      expect(result.ended).toBe('finished');
      expect(result.failedTemporary).toBe(3);
      const counts = await store.outbox.counts(broadcast.id);
      expect(counts).toMatchObject({ failed_temporary: 1, retrying: 0, sent: 2 });
      expect(countsFor(sink, people)).toEqual([0, 1, 1]);
    });

    it('pauses, and resumes where it stopped', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 40);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      await store.broadcasts.setState(broadcast.id, 'sending', ['ready']);
      const running = send(broadcast, { rates: { email: 20 } });
      await waitForMatch(
        () => sink.received(),
        () => sink.received().length >= 5,
        10_000,
        'five emails',
      );
      expect(await store.broadcasts.setState(broadcast.id, 'paused', ['sending'])).toBe(true);
      const paused = await running;
      expect(paused.ended).toBe('paused');
      const atPause = sink.received().length;
      expect(atPause).toBeLessThan(40);
      const counts = await store.outbox.counts(broadcast.id);
      expect(counts.sending).toBe(0);
      expect(counts.sent).toBe(atPause);

      expect(await store.broadcasts.setState(broadcast.id, 'sending', ['paused'])).toBe(true);
      const resumed = await send(broadcast);
      expect(resumed.ended).toBe('finished');
      expect(resumed.sent).toBe(40 - atPause);
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
    });

    it('tops up with people who signed up after it was created', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      await addPeople(store, 5);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      await send(broadcast);
      const late = await addPeople(store, 4, { prefix: 'late' });
      const { report } = await broadcasts.topUp('launch');
      expect(report.channels.email).toMatchObject({ added: 4, recipients: 9 });
      expect((await store.broadcasts.get('launch'))?.state).toBe('ready');
      expect((await broadcasts.topUp('launch')).report.channels.email?.added).toBe(0);
      const result = await send((await store.broadcasts.get('launch'))!);
      expect(result.sent).toBe(4);
      expect(countsFor(sink, late)).toEqual([1, 1, 1, 1]);
      expect(sink.received()).toHaveLength(9);
    });

    it('sends the beta invitation to beta testers only', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 6, { beta: (index) => index % 2 === 0 });
      await expect(broadcasts.create({ name: 'beta', template: 'beta', segment: 'all' })).rejects.toThrow(
        /beta testers only/,
      );
      const { broadcast, report } = await broadcasts.create({ name: 'beta', template: 'beta' });
      expect(report.channels.email).toMatchObject({ recipients: 3 });
      expect(report.channels.email?.excluded.not_beta).toBe(3);
      await send(broadcast);
      const testers = people.filter((person) => Number(person.email.match(/\d+/)?.[0]) % 2 === 0);
      expect(countsFor(sink, testers)).toEqual([1, 1, 1]);
      expect(sink.received()).toHaveLength(3);
    });

    it('marks the messages of a sender that died mid-send unknown, and sends them again only when asked', async () => {
      const { store, broadcasts, send, sink } = await setup(engine.name);
      const people = await addPeople(store, 10);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      // A sender that claimed three messages and was killed before recording them: its process is gone.
      const dead = spawn(process.execPath, ['-e', '']);
      await new Promise((resolve) => dead.on('exit', resolve));
      await store.broadcastSenders.registerSender(
        { id: 'dead-sender', broadcastId: broadcast.id, host: (await import('node:os')).hostname(), pid: dead.pid! },
        () => false,
      );
      const claimed = await store.outbox.claim({ broadcastId: broadcast.id, channel: 'email' }, 'dead-sender', 3);
      expect(claimed).toHaveLength(3);

      const result = await send(broadcast);
      expect(result.markedUnknown).toBe(3);
      expect(result.sent).toBe(7);
      const counts = await store.outbox.counts(broadcast.id);
      expect(counts).toMatchObject({ unknown: 3, sent: 7, sending: 0 });
      expect((await store.broadcasts.get('launch'))?.state).toBe('finished');
      const inFlight = new Set(claimed.map((message) => message.signupId));
      expect(countsFor(sink, people)).toEqual(people.map((person) => (inFlight.has(person.id) ? 0 : 1)));

      expect(await store.outbox.requeueUnknown(broadcast.id)).toBe(3);
      await store.broadcasts.setState(broadcast.id, 'sending', ['finished']);
      const resent = await send((await store.broadcasts.get('launch'))!);
      expect(resent.sent).toBe(3);
      expect(countsFor(sink, people)).toEqual(people.map(() => 1));
    });

    it(`allows ${engine.name === 'sqlite' ? 'one sender at a time on SQLite' : 'several senders on PostgreSQL'}`, async () => {
      const { store, broadcasts } = await setup(engine.name);
      await addPeople(store, 1);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      const host = (await import('node:os')).hostname();
      const register = (id: string) =>
        store.broadcastSenders.registerSender({ id, broadcastId: broadcast.id, host, pid: process.pid }, () => false);
      await register('first');
      if (engine.name === 'sqlite') await expect(register('second')).rejects.toBeInstanceOf(SenderBusyError);
      else await expect(register('second')).resolves.toEqual({ unknown: 0 });
      expect((await store.broadcastSenders.liveSenders(broadcast.id)).length).toBe(engine.name === 'sqlite' ? 1 : 2);
      await store.broadcastSenders.stopSender('first');
      await expect(register('third')).resolves.toEqual({ unknown: 0 });
    });

    it('refuses what it cannot do, in words', async () => {
      const { broadcasts, store } = await setup(engine.name);
      await expect(broadcasts.create({ name: 'Launch Day', template: 'launch' })).rejects.toThrow(/lower-case/);
      await expect(broadcasts.create({ name: 'launch', template: 'party' })).rejects.toThrow(/launch, beta/);
      await expect(broadcasts.create({ name: 'launch', template: 'launch', channels: ['sms'] })).rejects.toThrow(
        /Texts are not set up/,
      );
      await broadcasts.create({ name: 'launch', template: 'launch' });
      await expect(broadcasts.create({ name: 'launch', template: 'launch' })).rejects.toThrow(/already exists/);
      await expect(broadcasts.get('lunch')).rejects.toThrow(/no broadcast called "lunch".*launch/);
      const bare = createBroadcastControl(
        loadConfig({
          SITE_URL: 'https://scamsavvy.example',
          SECRET_KEY: 'k'.repeat(40),
          SMTP_URL: 'smtp://127.0.0.1:1',
          MAIL_FROM: 'a@scamsavvy.example',
        }),
        store,
      ).broadcasts;
      await expect(bare.create({ name: 'news', template: 'launch' })).rejects.toThrow(
        /APP_STORE_URL and PLAY_STORE_URL/,
      );
    });
  });
}
