// Issue 54, path 1 and "every number is one number", for the numbers stored before the form and the
// pages kept E.164 (or brought back by a restore): the job rewrites each in E.164, and the "no"s kept
// by the old form's hash go with it, so a STOP from the phone and a stranger typing the number find
// them. On both engines.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAddressHasher } from '../messaging/link-tokens.js';
import { openDatabase } from '../db/open-database.js';
import { ann, rosa } from '../test/people.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { rawSql } from '../test/raw-sql.js';
import { numbersInOneForm } from './numbers-in-one-form.js';
import { Subscriptions } from './subscriptions.js';

const KEY = 'k'.repeat(40);

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(suiteName('every stored number in one form', engine), () => {
    async function world() {
      const database = await engine.database();
      const store = await openDatabase(database);
      onTestFinished(() => store.close());
      // A list in France: a number typed without its country code is a French one.
      const subscriptions = new Subscriptions(store, createAddressHasher(KEY), 'reply', 'FR');
      /** A record whose number was stored as typed, as an earlier release (or a page before this one) kept it. */
      const storedAs = async (who: { name: string; email: string }, phone: string) => {
        await store.signups.add({ ...who, phone: '+33612345000', betaTesting: false, consentVersion: 'v1' });
        const found = (await store.subscribers.subscriberByEmailKey(who.email))!;
        await rawSql(database, 'UPDATE signups SET phone = $1 WHERE id = $2', [phone, found.id]);
        return found.id;
      };
      const phoneOf = async (email: string) => (await store.subscribers.subscriberByEmailKey(email))!.phone;
      return { store, subscriptions, storedAs, phoneOf };
    }

    it('rewrites every uneven number in E.164, keeps the unreadable as "+" and digits, and is done after one run', async () => {
      const { store, subscriptions, storedAs, phoneOf } = await world();
      await storedAs(rosa, '06 12 34 56 78');
      await storedAs(ann, '0612345679');
      await storedAs({ name: 'Cy Park', email: 'cy@example.com' }, '12345');
      await store.signups.add({ name: 'Di Ng', email: 'di@example.com', phone: '+33612345670', betaTesting: false });

      expect(await numbersInOneForm(store.numbers, subscriptions)).toBe(
        '2 numbers rewritten in E.164, 1 number no phone can have (never texted)',
      );
      expect(await phoneOf(rosa.email)).toBe('+33612345678');
      expect(await phoneOf(ann.email)).toBe('+33612345679');
      expect(await phoneOf('cy@example.com')).toBe('+12345');
      expect(await phoneOf('di@example.com')).toBe('+33612345670');
      expect(await numbersInOneForm(store.numbers, subscriptions)).toBe('every number is in one form');
    });

    it('a STOP from the phone finds a number stored as typed once the job has run', async () => {
      const { store, subscriptions, storedAs } = await world();
      await storedAs(rosa, '06 12 34 56 78');
      expect(await subscriptions.stopTexts('+33612345678')).toBe(0); // the path the issue found
      await numbersInOneForm(store.numbers, subscriptions);
      expect(await subscriptions.stopTexts('+33612345678')).toBe(1);
    });

    it('a leaving kept by the old form of the number holds for a stranger typing it afterwards', async () => {
      const { store, subscriptions, storedAs } = await world();
      const id = await storedAs(rosa, '06 12 34 56 78');
      expect(await subscriptions.leave(id, 'preferences_page')).toBe(true);
      await numbersInOneForm(store.numbers, subscriptions);
      // A stranger's record with the same number, written as the form writes it now.
      await store.signups.add({ ...ann, phone: '+33612345678', consentVersion: 'v1' });
      const stranger = (await store.subscribers.subscriberByEmailKey(ann.email))!;
      expect(await subscriptions.blockedBy(stranger, 'sms')).toBe('left');
      // The rows on the old form's hash stay: nothing deletes a "no".
      const oldForm = await store.suppressions.entries('phone', subscriptions.phoneHashes('06 12 34 56 78'));
      expect([...oldForm.values()].map((entry) => entry.latestReason)).toEqual(['left']);
    });
  });
}
