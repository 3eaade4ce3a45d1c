// A person's page shows every message to them, of every kind, from the one outbox (issue 54): what
// went, what waits, and why one did not go; on every engine.
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../test/build-test-app.js';
import { SITE } from '../test/site.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { storeEngines } from '../test/store-engines.js';
import { SENT_AT_ONCE } from '../db/outbox-claims.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.each(storeEngines)('a person’s messages on $name', (engine) => {
  it.skipIf(!engine.available)(
    'lists each of their messages, newest first: sent when, waiting until when, and why one did not go',
    async () => {
      let store;
      ({ app, db: store } = await buildTestApp({ engine, config: { siteUrl: SITE }, keepOpen: true }));
      await store.signups.add({
        name: 'Rosa Díaz',
        phone: '+15551234567',
        email: 'rosa@example.com',
        betaTesting: false,
      });
      await store.signups.add({ name: 'Ann Lee', phone: '+15559876543', email: 'ann@example.com', betaTesting: false });
      const rosa = (await store.subscribers.subscriberByEmailKey('rosa@example.com'))!;
      const ann = (await store.subscribers.subscriberByEmailKey('ann@example.com'))!;
      const cookie = { cookie: await signInAsOwner(app, store) };
      const page = async (id: string) => (await app!.inject({ url: `/owner/people/${id}`, headers: cookie })).body;
      expect(await page(rosa.id)).toContain('No message has been sent to them, and none waits.');

      // A broadcast's email waiting; an emailed button sent; a joining text not sent, with the reason.
      const broadcast = await store.broadcasts.create({
        name: 'launch',
        template: 'launch',
        segment: 'all',
        channels: ['email'],
        confirmation: 'everyone',
        content: { subject: 'It is here', text: 'Text', html: '<p>HTML</p>', sms: 'SMS' },
      });
      await store.outbox.enqueue(broadcast!.id, [
        { signupId: rosa.id, channel: 'email' },
        { signupId: ann.id, channel: 'email' },
      ]);
      const button = await store.outbox.begin('button', 'email', rosa.id);
      await store.outbox.record(SENT_AT_ONCE, [{ id: button!, result: 'sent' }]);
      await store.messageQueue.add('joining_text', 'sms', [rosa.id, ann.id]);
      const [text] = (await store.outbox.claim({ kind: 'joining_text', leaseMs: 60_000 }, 'a test', 10)).filter(
        (message) => message.signupId === rosa.id,
      );
      await store.outbox.record('a test', [
        { id: text!.id, result: 'skipped', error: 'not sent: the number is in GB, which SMS_COUNTRIES does not name' },
      ]);

      const shown = await page(rosa.id);
      const section = shown.slice(shown.indexOf('Messages to them'), shown.indexOf('Correct their name'));
      const rows = [...section.matchAll(/<tr>(.*?)<\/tr>/gs)]
        .slice(1)
        .map(([row]) =>
          [...row!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map(([, cell]) => cell!.replace(/&quot;|&#x27;/g, '"')),
        );
      expect(rows.map((row) => [row[0], row[1], row[2]?.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/, 'TIME'), row[3]])).toEqual(
        [
          [
            'Joining text (reply YES)',
            'Text',
            'Not sent',
            'not sent: the number is in GB, which SMS_COUNTRIES does not name',
          ],
          ['Emailed button they asked for', 'Email', 'Sent TIME', ''],
          ['Broadcast “launch”', 'Email', 'Waiting to go', ''],
        ],
      );
      // Only their own: Ann's rows are not on Rosa's page.
      expect(rows).toHaveLength(3);
    },
  );
});
