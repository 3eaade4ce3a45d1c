// The message log, the reports and the health figures on every engine: the rates are over the
// messages a provider took, and the soft-bounce window counts by when we received each report.
import { setTimeout as pause } from 'node:timers/promises';
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

    it("a batch of reports' writes are one transaction: all kept, or none when the batch throws", async () => {
      const { store } = await open();
      await store.sentMessages.sending([
        { token: token(1), channel: 'email', purpose: 'confirmation', signupId: null, addressHash: 'h1' },
      ]);
      const use = (name: string) => ({
        source: 'mailgun',
        token: name,
        bodyHash: 'body',
        expiresAt: new Date('2026-11-23T10:15:00.000Z'),
      });
      const report = (eventId: string) => ({
        source: 'mailgun',
        eventId,
        kind: 'delivered',
        token: token(1),
        occurredAt: '2026-11-23T10:00:00.000Z',
        acted: true,
      });
      await expect(
        store.reportsTransaction(async (stores) => {
          await stores.webhookSignatures.useMany([use('lost')]);
          await stores.sentMessages.advanceMany([token(1)], 'delivered');
          await stores.feedbackEvents.storeMany([report('lost')]);
          throw new Error('the batch failed after its writes');
        }),
      ).rejects.toThrow('the batch failed after its writes');
      // Nothing of it was kept: the signature is new again, the message unmoved, the report not stored.
      expect(await store.webhookSignatures.useMany([use('lost')])).toEqual(['first']);
      expect((await store.sentMessages.find({ token: token(1) }))?.state).toBe('sending');
      expect(await store.feedbackEvents.storeMany([report('lost')])).toEqual([true]);

      // A sign-up arriving meanwhile waits for the transaction and is kept too; on SQLite the
      // transaction holds the write lock from its start, so a read before its first write is never
      // refused because the sign-up writer committed in between.
      const person = (email: string) => ({
        name: 'Rosa Díaz',
        phone: '+15551234567',
        email,
        betaTesting: false,
        consentVersion: '2026-11-22',
      });
      await store.signups.add(person('first@example.com')); // the writer thread started, and ready
      let signUp: Promise<unknown> | undefined;
      const kept = await store.reportsTransaction(async (stores) => {
        const found = await stores.sentMessages.findByTokens([token(1)]);
        signUp = store.signups.add(person('rosa@example.com'));
        await pause(50);
        await stores.sentMessages.advanceMany([token(1)], 'delivered');
        return [found.size, await stores.feedbackEvents.storeMany([report('kept')])];
      });
      await signUp;
      expect(kept).toEqual([1, [true]]);
      expect((await store.sentMessages.find({ token: token(1) }))?.state).toBe('delivered');
      expect(await store.signups.count()).toBe(2);
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
