// The message log, the reports and the health figures on every engine: the rates are over the
// messages a provider took, and the soft-bounce window counts by when we received each report.
import { describe, expect, it, onTestFinished } from 'vitest';
import { storeEngines } from '../test/store-engines.js';
import { openDatabase } from './open-database.js';

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`message log and reports on ${engine.name}`, () => {
    async function open() {
      let now = new Date('2026-11-23T10:00:00.000Z');
      const store = await openDatabase(await engine.database(), { now: () => now });
      onTestFinished(() => store.close());
      return { store, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
    }
    const token = (index: number) => `token${String(index).padStart(27, '0')}`;

    it('a signature token is used once: the same request again is "again", another body "reused", in one batch or two', async () => {
      const { store, advance } = await open();
      const expires = new Date('2026-11-23T10:15:00.000Z');
      const use = (source: string, token: string, bodyHash: string, expiresAt = expires) => ({
        source,
        token,
        bodyHash,
        expiresAt,
      });
      const signatures = store.webhookSignatures;
      const first = await signatures.useMany(
        Array.from({ length: 60 }, (_, index) => use('mailgun', `t${index}`, `body${index}`)),
      );
      expect(first).toEqual(Array.from({ length: 60 }, () => 'first'));
      const again = await signatures.useMany([
        use('mailgun', 't1', 'body1'),
        use('mailgun', 't2', 'another body'),
        use('sendgrid', 't3', 'body3'), // another provider's token of the same name
        use('mailgun', 'new', 'one'),
        use('mailgun', 'new', 'two'), // the same new token twice in one batch
        use('mailgun', 'new', 'one'),
      ]);
      expect(again).toEqual(['again', 'reused', 'first', 'first', 'reused', 'again']);
      expect(await signatures.useMany([])).toEqual([]);
      // Kept until it expires, and swept after (a batch deletes expired ones, at most once a minute).
      advance(20 * 60_000);
      expect(await signatures.useMany([use('mailgun', 'later', 'x', new Date('2026-11-23T10:40:00.000Z'))])).toEqual([
        'first',
      ]);
      expect(await signatures.useMany([use('mailgun', 't1', 'another body')])).toEqual(['first']);
    });

    it('a bounce or complaint rate is over the messages a provider took: refusals during an outage do not dilute it', async () => {
      const { store } = await open();
      // 20 emails: 10 refused during the send for a fault of ours (an outage), 8 taken and
      // delivered, 1 bounced, 1 reported as spam.
      for (let index = 0; index < 20; index += 1) {
        await store.sentMessages.sending([
          { token: token(index), channel: 'email', purpose: 'confirmation', signupId: null, addressHash: `h${index}` },
        ]);
        await store.sentMessages.sent(token(index), { state: index < 10 ? 'failed' : 'sent' });
      }
      for (let index = 10; index < 18; index += 1) await store.sentMessages.advance(token(index), 'delivered');
      await store.sentMessages.advance(token(18), 'bounced');
      await store.sentMessages.advance(token(19), 'complained');
      const health = await store.messageHealth.listHealth('2026-11-01T00:00:00.000Z');
      expect(health).toMatchObject({ messages: 10, hardBounced: 1, complained: 1 });
      expect(health.bounceRate).toBeCloseTo(0.1);
      expect(health.complaintRate).toBeCloseTo(0.1);
    });

    it('soft bounces count by when we received them, whatever date the report carries', async () => {
      const { store, advance } = await open();
      for (let index = 0; index < 3; index += 1)
        await store.sentMessages.sending([
          { token: token(index), channel: 'email', purpose: 'broadcast', signupId: null, addressHash: 'rosa' },
        ]);
      // Three soft bounces received today, from a server whose clock says 2001.
      for (let index = 0; index < 3; index += 1) {
        await store.feedbackEvents.store({
          source: 'imap',
          eventId: `bounce-${index}`,
          kind: 'soft_bounce',
          token: token(index),
          occurredAt: '2001-01-01T00:00:00.000Z',
        });
        advance(60_000);
      }
      expect(await store.feedbackEvents.softBounces('rosa', 'email', '2026-11-01T00:00:00.000Z')).toBe(3);
      // A delivery received after them resets the count, whatever its own date says.
      await store.feedbackEvents.store({
        source: 'imap',
        eventId: 'delivered-0',
        kind: 'delivered',
        token: token(0),
        occurredAt: '2000-01-01T00:00:00.000Z',
      });
      expect(await store.feedbackEvents.softBounces('rosa', 'email', '2026-11-01T00:00:00.000Z')).toBe(0);
      // Received before the window: not counted.
      expect(await store.feedbackEvents.softBounces('rosa', 'email', '2026-11-24T00:00:00.000Z')).toBe(0);
    });
  });
}
