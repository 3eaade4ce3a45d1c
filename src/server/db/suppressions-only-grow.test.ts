// Issue 54: the suppression list only grows. A person's undoing of a "no" (texts on again, START,
// coming back) appends a 'lifted' row naming the row it lifts; the "no" itself stays, the rule reads
// it as lifted, and a "no" given again holds again. On both engines.
import { describe, expect, it, onTestFinished } from 'vitest';
import { Subscriptions } from '../consent/subscriptions.js';
import { createAddressHasher } from '../messaging/link-tokens.js';
import { rosa } from '../test/people.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { openDatabase } from './open-database.js';
import { rawSql } from '../test/raw-sql.js';

const KEY = 'k'.repeat(40);

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(suiteName('the suppression list only grows', engine), () => {
    async function world() {
      const database = await engine.database();
      const store = await openDatabase(database);
      onTestFinished(() => store.close());
      const subscriptions = new Subscriptions(store, createAddressHasher(KEY));
      await store.signups.add({ ...rosa, consentVersion: 'v1' });
      const person = async () => (await store.subscribers.subscriberByEmailKey(rosa.email))!;
      /** What the list holds on Rosa's number, as the contact rule reads it. */
      const numberRows = async () => {
        const hash = subscriptions.phoneHash(rosa.phone)!;
        return (await store.suppressions.entries('phone', [hash])).get(hash);
      };
      /** Every row the table holds, lifted or not, in the order written: reason, and what a lifting lifts. */
      const everyRow = async () =>
        (await rawSql(database, 'SELECT reason, lifts_reason FROM suppressions ORDER BY id')).map(
          (row) => `${String(row.reason)}${row.lifts_reason ? ` ${String(row.lifts_reason)}` : ''}`,
        );
      return { store, subscriptions, person, numberRows, everyRow };
    }

    it('STOP, START, STOP: each "no" and its undoing are rows; the latest holds', async () => {
      const { store, subscriptions, person, numberRows, everyRow } = await world();
      expect(await subscriptions.stopTexts(rosa.phone)).toBe(1);
      expect((await numberRows())?.stop).toBe(true);
      expect(await store.suppressions.count()).toBe(1);

      await subscriptions.startTexts(rosa.phone);
      expect((await numberRows())?.stop ?? false).toBe(false);
      expect(await subscriptions.blockedBy(await person(), 'sms')).toBeUndefined();
      // Nothing went: the STOP is still there, and beside it the START that lifted it.
      expect(await store.suppressions.count()).toBe(0);
      expect(await store.suppressions.rows()).toEqual([]);
      expect(await everyRow()).toEqual(['sms_stop', 'lifted sms_stop']);

      expect(await subscriptions.stopTexts(rosa.phone)).toBe(1);
      expect((await numberRows())?.stop).toBe(true);
      expect(await subscriptions.blockedBy(await person(), 'sms')).toBe('sms_stop');
      expect(await store.suppressions.count()).toBe(1);
      expect(await everyRow()).toEqual(['sms_stop', 'lifted sms_stop', 'sms_stop']);
    });

    it('texts off on the person page, then on again: the "off" stays, lifted; off again holds', async () => {
      const { subscriptions, person, everyRow } = await world();
      const { id } = await person();
      await subscriptions.updatePreferences(id, { sms: false }, 'preferences_page');
      // A stranger's record with the number is kept from texts by the "off" kept on its hash.
      const off = await subscriptions.suppressionsFor([await person()], ['sms']);
      expect(off.get(id)?.phone?.offAt).not.toBe('');

      await subscriptions.updatePreferences(id, { sms: true }, 'emailed_button');
      const on = await subscriptions.suppressionsFor([await person()], ['sms']);
      expect(on.get(id)?.phone?.offAt ?? '').toBe('');

      await subscriptions.updatePreferences(id, { sms: false }, 'preferences_page');
      const again = await subscriptions.suppressionsFor([await person()], ['sms']);
      expect(again.get(id)?.phone?.offAt).not.toBe('');
      expect(await everyRow()).toEqual(['sms_off', 'lifted sms_off', 'sms_off']);
    });

    it("the owner's way back lifts a provider's answer by appending, and the list's figures leave it out", async () => {
      const { store, subscriptions, person } = await world();
      const rosaNow = await person();
      await subscriptions.markUndeliverable(rosaNow, 'email');
      const [row] = await store.suppressions.rows({ reasons: ['undeliverable'] });
      expect(row).toBeDefined();
      expect(await store.optOuts.liftRows([{ id: row!.id, kind: 'email', signupId: rosaNow.id }])).toBe(1);
      expect(await store.suppressions.rows({ reasons: ['undeliverable'] })).toEqual([]);
      expect(await subscriptions.blockedBy(await person(), 'email')).toBeUndefined();
      // Lifting what is lifted already lifts nothing more.
      expect(await store.optOuts.liftRows([{ id: row!.id, kind: 'email', signupId: rosaNow.id }])).toBe(0);
    });
  });
}
