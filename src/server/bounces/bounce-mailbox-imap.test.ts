// The bounce mailbox end to end, on every engine: a broadcast sent with BOUNCE_ADDRESS, a real
// report about one of its messages delivered to a real IMAP server (Dovecot), read by the server's
// own composition (createFeedbackParts): that person's email is suppressed, nobody else's.
import pino from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { addPeople, setup } from '../test/broadcast-setup.js';
import { dovecotAvailable, startDovecot } from '../test/dovecot.js';
import { storeEngines } from '../test/store-engines.js';
import { createFeedbackParts } from '../compose-reports.js';
import { loadConfig } from '../config.js';
import { buildTestApp } from '../test/build-test-app.js';
import { report, REPORT_BOUNCE_ADDRESS } from './test-fixtures/reports.js';

for (const engine of storeEngines) {
  describe.skipIf(!engine.available || !dovecotAvailable)(`the bounce mailbox end to end on ${engine.name}`, () => {
    // Dovecot started, a broadcast sent, its mailbox read: room for a busy machine (a hang guard).
    it(
      'a DSN about one message of a broadcast suppresses that address, once, and nobody else',
      { timeout: 90_000 },
      async () => {
        const dovecot = await startDovecot();
        onTestFinished(() => dovecot.stop());
        const { store, broadcasts, send, config } = await setup(engine.name, {
          env: { BOUNCE_ADDRESS: REPORT_BOUNCE_ADDRESS, BOUNCE_IMAP_URL: dovecot.url() },
        });
        const people = await addPeople(store, 2);
        const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
        expect((await send(broadcast)).sent).toBe(2);
        const [message] = await store.sentMessages.messagesTo(people[0]!.id);
        await dovecot.deliver(report('gmail-no-such-user', { token: message!.token }));

        const parts = createFeedbackParts(config.messaging, store, broadcasts.subscriptions, {
          pauses: store.broadcastPauses,
        });
        const mailbox = parts?.bounceMailbox?.(pino({ level: 'silent' }));
        expect(mailbox).toBeDefined();
        onTestFinished(() => mailbox?.stop());
        expect(await mailbox!.checkNow()).toEqual({ matched: 1, unmatched: 0 });
        expect(await mailbox!.checkNow()).toEqual({ matched: 0, unmatched: 0 });
        const may = async (index: number) =>
          broadcasts.subscriptions.mayContact((await store.subscribers.subscriber(people[index]!.id))!, 'email');
        expect(await may(0)).toBe(false);
        expect(await may(1)).toBe(true);
        expect((await store.sentMessages.find({ token: message!.token }))?.state).toBe('bounced');
      },
    );
  });
}

describe.skipIf(!dovecotAvailable)('the bounce mailbox in the server', () => {
  it('is read by the job "bounce-mailbox" once the server is ready, and its run is on record', async () => {
    const dovecot = await startDovecot();
    onTestFinished(() => dovecot.stop());
    // A report about no message of ours: read, moved to Unmatched, nobody touched.
    await dovecot.deliver(report('gmail-no-such-user', {}));
    const config = loadConfig({
      BOUNCE_ADDRESS: REPORT_BOUNCE_ADDRESS,
      BOUNCE_IMAP_URL: dovecot.url(),
      SECRET_KEY: 'a-test-secret-that-is-long-enough-for-the-check',
    });
    const { app, db } = await buildTestApp({ config: { messaging: config.messaging } });
    await app.ready();
    const deadline = performance.now() + 20_000; // a hang guard, on the monotonic clock
    let record;
    while (!(record = (await db.backgroundJobs.list()).find((job) => job.name === 'bounce-mailbox'))?.lastFinishedAt) {
      if (performance.now() > deadline) throw new Error('the job never ran');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(record).toMatchObject({ lastOutcome: 'ok', lastSummary: '0 reports of ours, 1 unmatched, 0 set aside' });
    expect(await dovecot.list('INBOX')).toEqual([]);
  });
});
