// Issue 54: the export, and the owner's page for a person, say whether the launch message reaches
// them by email and by text, by the one rule the senders use: a "no" kept only by the address (after
// a record was deleted, a stranger's new one) and a STOP from the number included, which the record's
// own columns do not show. Through the owner's download and pages, on both engines.
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { SITE } from '../test/site.js';
import { ownerWords } from './owner-words.js';
import { EXCLUSION_WORDS } from '../consent/contact-rule.js';

type Row = { email: string; emailOptOutAt: string | null; launchEmail: string; launchText: string };

for (const engine of storeEngines)
  describe.skipIf(!engine.available)(suiteName('the export says where each person stands', engine), () => {
    it('beside each record: "yes", or why the launch will not reach them, per channel', async () => {
      const { app, db, product } = await buildTestApp({
        engine,
        database: { confirmSignups: true },
        config: {
          siteUrl: SITE,
          messaging: {
            secretKey: 'export-standing-test-key-that-is-long-enough',
            emailConfirmation: false,
            unconfirmedRetentionDays: 30,
            confirmationReminderDays: 7,
          },
        },
      });
      const { subscriptions } = product.messaging;
      // Each confirmed by their mailbox, as if they had pressed the button.
      const add = async (name: string, email: string, phone: string) => {
        await db.signups.add({ name, phone, email, betaTesting: false });
        await db.subscribers.confirm((await db.subscribers.subscriberByEmailKey(email))!.id);
      };
      // Bo turned email off, then that record was deleted; a stranger typed Bo's address again: the new
      // record holds no "no" of its own, the address does.
      await add('Bo', 'bo@example.com', '+15559870001');
      const bo = (await db.subscribers.subscriberByEmailKey('bo@example.com'))!;
      await subscriptions.updatePreferences(bo.id, { email: false, sms: true, beta: false }, 'preferences_page');
      await subscriptions.remove(bo.id, 'owner');
      await add('Bo', 'bo@example.com', '+15559870001');
      // Ann: on the list, her number said YES.
      await add('Ann', 'ann@example.com', '+15559870000');
      await db.optOuts.confirmTexts(['+15559870000'], 'sms_reply');
      // Cy's number replied STOP.
      await add('Cy', 'cy@example.com', '+15559870002');
      await subscriptions.stopTexts('+15559870002');

      const cookie = await signInAsOwner(app, db);
      const rows = JSON.parse((await app.inject({ url: '/owner/export.json', headers: { cookie } })).body) as Row[];
      const row = (email: string) => rows.find((each) => each.email === email)!;
      expect(row('ann@example.com')).toMatchObject({ launchEmail: 'yes', launchText: 'yes' });
      expect(row('bo@example.com')).toMatchObject({ emailOptOutAt: null, launchEmail: 'opted_out' });
      expect(row('cy@example.com')).toMatchObject({ launchEmail: 'yes', launchText: 'stopped' });
      const csv = (await app.inject({ url: '/owner/export.csv', headers: { cookie } })).body;
      const [header, ...lines] = csv.split('\r\n');
      expect(header).toMatch(/,launchEmail,launchText$/);
      expect(lines.find((line) => line.includes('cy@example.com'))).toMatch(/,yes,stopped$/);
      // Cy's own page says the same, where the record's columns alone say texts are on.
      const cy = (await db.subscribers.subscriberByEmailKey('cy@example.com'))!;
      const page = (await app.inject({ url: `/owner/people/${cy.id}`, headers: { cookie } })).body;
      expect(page).toContain(
        `<th scope="row">${ownerWords.person.launchEmail}</th><td>${ownerWords.person.willGo}</td>`,
      );
      expect(page).toContain(
        `<th scope="row">${ownerWords.person.launchText}</th><td>${ownerWords.person.wontGo(EXCLUSION_WORDS.stopped)}</td>`,
      );
    });
  });
