// Texts wait for daytime where their people are (issue 44): a launch text goes only inside the hours
// that hold at the recipient's location in every zone their number may be in; the rest wait in the
// queue, the sender ends saying so, and the waiting-texts job sends each when its hours come, never
// before. A state's cap of 3 texts in 24 hours holds them too, and a number that cannot take texts is
// never tried. The rules' clock is moved with TEST_TEXT_CLOCK (tests only); the rest runs on the real one.
import { describe, expect, it } from 'vitest';
import { waitingTextsLine } from './broadcast-progress.js';
import { setup } from '../test/broadcast-setup.js';
import type { Db } from '../db/open-database.js';
import { storeEngines } from '../test/store-engines.js';
import { machineClock } from '../test/clock.js';

/** People who said YES to texts, with these numbers; email confirmed. */
async function addTexters(store: Db, phones: Record<string, string>): Promise<void> {
  for (const [name, phone] of Object.entries(phones)) {
    await store.signups.add({
      name,
      phone,
      email: `${name}@example.com`,
      betaTesting: true,
      consentVersion: '2026-11-23',
    });
    const person = await store.subscribers.subscriberByEmailKey(`${name}@example.com`);
    await store.subscribers.confirm(person!.id);
    await store.optOuts.confirmTexts([person!.phone], 'sms_reply');
  }
}

describe.each(storeEngines.filter((engine) => engine.available).map((engine) => engine.name))(
  'texts wait for daytime where their people are (%s)',
  (engine) => {
    it('go only inside the hours at their location: New York now, California when its morning comes, Hawaii later; a toll-free number never', async () => {
      // 11:59:56 a.m. in New York, 8:59:56 a.m. in California, 5:59:56 a.m. in Honolulu: California's
      // hours (SMS_SEND_HOURS, 9 a.m.) open four seconds after the rules' clock is set.
      const clock = Date.parse('2026-06-10T15:59:56Z');
      // TEST_TEXT_CLOCK sets the rules' clock that far from the machine's, which the sender still runs on.
      const startedAt = machineClock.ms();
      const californiaOpens = startedAt + (Date.parse('2026-06-10T16:00:00Z') - clock);
      const world = await setup(engine, { texts: true, env: { TEST_TEXT_CLOCK: new Date(clock).toISOString() } });
      await addTexters(world.store, {
        york: '(212) 555-0142',
        cali: '415-555-0142',
        hawaii: '+1 808 555 0142',
        tollfree: '1-800-555-0142',
      });
      const { broadcast } = await world.broadcasts.create({ name: 'launch', template: 'launch', channels: ['sms'] });
      const report = await world.send(broadcast);
      const twilio = world.twilio!;
      const to = (number: string) => twilio.sent().filter((text) => text.to === number);
      expect(to('+12125550142')).toHaveLength(1);
      expect(to('+18085550142')).toHaveLength(0);
      expect(to('+18005550142')).toHaveLength(0);
      // Everything else done; the rest wait, and the owner is told so.
      expect(report.ended).toBe('texts-wait');
      expect(report.waitingTexts.count).toBeGreaterThanOrEqual(1);
      expect((await world.control.activity(broadcast)).waitingTexts).toMatch(/texts? waits? for daytime where/);
      const counts = await world.control.counts(broadcast, 'sms');
      expect(counts.skipped).toBe(1);
      // The job takes the broadcast up once a held text may go: California goes, never before 9 a.m. there.
      await expect
        .poll(
          async () => {
            await world.control.sendWaitingTexts();
            return to('+14155550142').length;
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBe(1);
      expect(to('+14155550142')[0]!.at).toBeGreaterThanOrEqual(californiaOpens);
      // Hawaii still waits, for 9 a.m. in Honolulu; nobody got two.
      await expect.poll(() => world.control.counts(broadcast, 'sms').then((sms) => sms.sending)).toBe(0);
      const waits = await world.store.outbox.waitingTexts(broadcast.id);
      expect(waits.count).toBe(1);
      // Its time, on the real clock: 9 a.m. in Honolulu by the rules' clock, whenever the config was read.
      const hawaiiOpens = Date.parse('2026-06-10T19:00:00Z') - clock;
      expect(Date.parse(waits.next!)).toBeGreaterThanOrEqual(startedAt + hawaiiOpens - 1);
      expect(Date.parse(waits.next!)).toBeLessThanOrEqual(machineClock.ms() + hawaiiOpens);
      expect(waitingTextsLine(waits)).toMatch(/^1 text waits for daytime where its person is/);
      expect(to('+12125550142')).toHaveLength(1);
      expect(await world.control.sendWaitingTexts()).toEqual([]);
    });

    it('hold a Florida number at 3 texts in 24 hours: the fourth waits until the first is a day old', async () => {
      const world = await setup(engine, { texts: true, env: { TEST_TEXT_CLOCK: '2026-06-10T16:00:00Z' } });
      await addTexters(world.store, { florida: '3055550142', york: '+12125550142' });
      // Each kind of text goes to a number once, ever (issue 54), so four texts in a day come only from
      // before that: two joining texts to the Florida number through two more sign-ups that gave it, as
      // an earlier release sent them.
      const before = machineClock.ms();
      for (const name of ['florida-2', 'florida-3']) {
        await addTexters(world.store, { [name]: '3055550142' });
        const person = await world.store.subscribers.subscriberByEmailKey(`${name}@example.com`);
        await world.store.joiningTexts.texted(person!.id, person!.phone);
      }
      const after = machineClock.ms();
      const { broadcast: launch } = await world.broadcasts.create({
        name: 'launch',
        template: 'launch',
        channels: ['sms'],
      });
      expect((await world.send(launch)).ended).toBe('finished');
      const florida = () => world.twilio!.sent().filter((text) => text.to === '+13055550142');
      expect(florida()).toHaveLength(1);
      const { broadcast } = await world.broadcasts.create({ name: 'beta', template: 'beta', channels: ['sms'] });
      const report = await world.send(broadcast);
      expect(report.ended).toBe('texts-wait');
      expect(florida()).toHaveLength(1);
      // New York has no cap: its beta text went.
      expect(world.twilio!.sent().filter((text) => text.to === '+12125550142')).toHaveLength(2);
      // The three sign-ups that gave the number wait (when the cap lets one go, the others are skipped
      // as the same number).
      const waits = await world.store.outbox.waitingTexts(broadcast.id);
      expect(waits.count).toBe(3);
      // The first of the three (the first joining text) a day on, as the database stamped it.
      const day = 24 * 60 * 60 * 1000;
      expect(Date.parse(waits.next!)).toBeGreaterThanOrEqual(before + day);
      expect(Date.parse(waits.next!)).toBeLessThanOrEqual(after + day);
    });
  },
);
