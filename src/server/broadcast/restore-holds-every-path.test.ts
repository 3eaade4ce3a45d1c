// Issue 54, path 6: after a restore that could not read what it replaced, any "no" since the backup is
// unknown, so no message goes on any path until the owner settles it: not the texts that waited for
// daytime (the job that sends them by itself), not a sender started without the command's checks,
// not the queue jobs (joining texts, confirmation emails). On both engines.
import { describe, expect, it } from 'vitest';
import { setup } from '../test/broadcast-setup.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { RESTORE_HOLDS_MESSAGES } from '../compose-messaging.js';

async function addTexter(world: Awaited<ReturnType<typeof setup>>, name: string, phone: string) {
  const { store } = world;
  await store.signups.add({
    name,
    phone,
    email: `${name}@example.com`,
    betaTesting: false,
    consentVersion: '2026-11-23',
  });
  const person = await store.subscribers.subscriberByEmailKey(`${name}@example.com`);
  await store.subscribers.confirm(person!.id);
  await store.optOuts.confirmTexts([person!.phone], 'sms_reply');
}

for (const engine of storeEngines)
  describe.skipIf(!engine.available)(suiteName('a restore with unknown "no"s holds every message', engine), () => {
    // California's morning comes 30 s after the rules' clock is set, on the real clock: the send before
    // it must only start within that (it takes a second or two; 30 s leaves room for a loaded machine),
    // and the test then waits for the morning.
    it(
      'the texts that waited for daytime do not go by themselves until the owner settles it',
      { timeout: 120_000 },
      async () => {
        // 11:59:30 a.m. in New York, 8:59:30 a.m. in California: California's hours open 30 seconds on.
        const world = await setup(engine.name, { texts: true, env: { TEST_TEXT_CLOCK: '2026-06-10T15:59:30Z' } });
        await addTexter(world, 'york', '+12125550142');
        await addTexter(world, 'cali', '+14155550142');
        const { broadcast } = await world.broadcasts.create({ name: 'launch', template: 'launch', channels: ['sms'] });
        expect((await world.send(broadcast)).ended).toBe('texts-wait');
        const cali = () => world.twilio!.sent().filter((text) => text.to === '+14155550142');
        // Then the database is restored from a backup, and what it replaced could not be read.
        await world.store.restoreMarks.mark('lost.sqlite');
        await expect
          .poll(async () => (await world.store.outbox.waitingTexts(broadcast.id)).due, {
            timeout: 60_000,
            interval: 500,
          })
          .toBe(1);
        expect(await world.control.sendWaitingTexts()).toEqual([]);
        expect(cali()).toHaveLength(0);
        // A sender started on any other path pauses the broadcast before it takes anything.
        const report = await world.send(broadcast);
        expect(report.ended).toBe('paused');
        expect(report.sent).toBe(0);
        expect(cali()).toHaveLength(0);
        expect(await world.store.broadcasts.state(broadcast.id)).toBe('paused');
        // Settled (the owner imported the providers' lists, or said so knowingly): the resume goes on.
        await world.store.restoreMarks.settle('acknowledged');
        await world.control.startFromCommand('launch', {
          workers: 1,
          resume: true,
          resendUnknown: false,
          notReady: true,
        });
        await world.send(await world.broadcasts.get('launch'));
        expect(cali()).toHaveLength(1);
      },
    );

    it('the queue jobs send nothing while it is unsettled, and say why', async () => {
      const world = await setup(engine.name, { texts: true });
      await world.store.restoreMarks.mark('lost.sqlite');
      const jobs = world.product.messaging.queueJobs(
        { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
        () => undefined,
      );
      expect(jobs.map((job) => job.name)).toContain('joining-texts');
      await world.store.signups.add({
        name: 'Ann Lee',
        phone: '+12125550143',
        email: 'ann@example.com',
        betaTesting: false,
        consentVersion: '2026-11-23',
      });
      for (const job of jobs) expect(await job.run(new AbortController().signal)).toBe(RESTORE_HOLDS_MESSAGES);
      expect(world.twilio!.sent()).toEqual([]);
    });
  });
