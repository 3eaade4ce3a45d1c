// /owner/suppressions in-process: the list masked with its answers, the one question before a lift,
// the lift itself (POST, same origin, audit-logged), and a complaint that is never lifted.
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { SITE } from '../test/site.js';
import { storeEngines } from '../test/store-engines.js';

const KEY = 'a test secret that is at least 32 characters long';

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`/owner/suppressions on ${engine.name}`, () => {
    it('lists masked, asks once, lifts only what may have been our fault, and writes it in the audit log', async () => {
      const { app, db, product } = await buildTestApp({
        engine,
        config: {
          siteUrl: SITE,
          messaging: {
            secretKey: KEY,
            emailConfirmation: false,
            unconfirmedRetentionDays: 30,
            confirmationReminderDays: 7,
          },
        },
      });
      const { subscriptions } = product.messaging;
      for (const email of ['rosa@example.com', 'ann@example.com'])
        await db.signups.add({ name: 'Someone', email, phone: '', betaTesting: false });
      const rosa = (await db.subscribers.subscriberByEmailKey('rosa@example.com'))!;
      const ann = (await db.subscribers.subscriberByEmailKey('ann@example.com'))!;
      const suppress = (id: string, email: string, reason: 'bounced' | 'complained') =>
        db.optOuts.suppressByReport(
          id,
          { kind: 'email', hash: subscriptions.emailHash(email)!, reason, source: 'provider_report' },
          reason === 'bounced' ? 'email_bounced' : 'email_complained',
        );
      await suppress(rosa.id, rosa.email, 'bounced');
      await suppress(ann.id, ann.email, 'complained');
      const cookie = await signInAsOwner(app, db);
      const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });

      expect((await app.inject({ method: 'GET', url: '/owner/suppressions' })).statusCode).toBe(303);
      const list = await get('/owner/suppressions');
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain('ro•••@example.com');
      expect(list.body).toContain('an•••@example.com');
      expect(list.body).not.toContain('rosa@example.com');
      expect(list.body).toContain('Lift 1 suppression that may have been our fault');

      const question = await get('/owner/suppressions/lift');
      expect(question.body).toContain('Lift 1 suppression, so that this person can be sent to again?');
      expect((await get('/owner/suppressions/lift?reason=complained')).statusCode).toBe(409);
      expect(await subscriptions.mayContact(rosa, 'email')).toBe(false);

      const lift = (payload: string, origin = SITE) =>
        app.inject({
          method: 'POST',
          url: '/owner/suppressions/lift',
          headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
          payload,
        });
      expect((await lift('reason=&since=&code=', 'https://elsewhere.example')).statusCode).toBe(403);
      expect(await subscriptions.mayContact(rosa, 'email')).toBe(false);
      expect((await lift('reason=complained&since=&code=')).statusCode).toBe(409);
      const done = await lift('reason=&since=&code=');
      expect(done.statusCode).toBe(303);
      expect(done.headers.location).toBe('/owner/suppressions?lifted=1');
      expect(await subscriptions.mayContact(rosa, 'email')).toBe(true);
      expect(await subscriptions.mayContact(ann, 'email')).toBe(false);
      expect((await get('/owner/suppressions?lifted=1')).body).toContain('Lifted 1 suppression.');
      expect((await db.owners.auditLog(5)).map((entry) => entry.action)).toContain('lifted_suppressions');
    });

    it('says plainly when the list cannot be read (no SECRET_KEY), and offers nothing to lift', async () => {
      const { app, db } = await buildTestApp({ engine });
      const cookie = await signInAsOwner(app, db);
      const page = await app.inject({ method: 'GET', url: '/owner/suppressions', headers: { cookie } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('SECRET_KEY is not set on this server');
      expect(page.body).not.toContain('Lift ');
    });
  });
}
