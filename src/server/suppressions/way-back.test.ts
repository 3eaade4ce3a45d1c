// A way back: a suppression that was our fault (a DMARC bounce an older release read as the
// person's) is listed with its code, lifted once with a record, and `retry` then reaches the person;
// a complaint is never lifted this way.
import { describe, expect, it } from 'vitest';
import { addPeople, countsFor, setup } from '../test/broadcast-setup.js';
import { storeEngines } from '../test/store-engines.js';
import { NotLiftable, WayBack } from './way-back.js';
import { machineClock } from '../test/clock.js';

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`a way back on ${engine.name}`, () => {
    it('lists a DMARC bounce read as hard by its code, lifts it once with a record, and retry reaches the person', async () => {
      const { store, control, broadcasts, send, sink, product } = await setup(engine.name);
      const people = await addPeople(store, 6);
      const [, refused, , misread, , complainer] = people as [
        never,
        (typeof people)[0],
        never,
        (typeof people)[0],
        never,
        (typeof people)[0],
      ];
      sink.answerFor((to, stage) =>
        stage === 'rcpt' && to === refused.email
          ? { code: 550, message: '5.1.1 The email account does not exist' }
          : undefined,
      );
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      expect(await send(broadcast)).toMatchObject({ ended: 'finished', sent: 5, failedPermanent: 1 });

      // Reports after the send: a bounce an older release took as hard although it said 5.7.26, and a complaint.
      // What comes back after the send, acted on as the server acts on it.
      const { feedback } = product.feedback!;
      const tokenOf = async (id: string) => (await store.sentMessages.messagesTo(id))[0]!.token;
      const at = machineClock.now().toISOString();
      await feedback.receive([
        {
          source: 'imap',
          eventId: 'old-release-1',
          kind: 'hard_bounce',
          message: { token: await tokenOf(misread.id) },
          occurredAt: at,
          code: '5.7.26',
          detail: "550 5.7.26 Unauthenticated email is not accepted due to domain's DMARC policy",
        },
        {
          source: 'imap',
          eventId: 'fbl-1',
          kind: 'complaint',
          message: { token: await tokenOf(complainer.id) },
          occurredAt: at,
        },
      ]);

      const wayBack = new WayBack(store, broadcasts.subscriptions, store.outboxRefusals);
      const all = await wayBack.list();
      expect(all.map((entry) => [entry.reason, entry.liftable])).toEqual(
        expect.arrayContaining([
          ['bounced', true],
          ['complained', false],
          ['undeliverable', true],
        ]),
      );
      const dmarc = await wayBack.list({ code: '5.7.26' });
      expect(dmarc).toEqual([
        expect.objectContaining({
          reason: 'bounced',
          channel: 'email',
          who: expect.stringMatching(/^.{0,2}•••@example\.com$/),
        }),
      ]);
      expect(JSON.stringify(all)).not.toContain(misread.email);
      await expect(wayBack.lift({ reason: 'complained' }, { ownerEmail: 'owner@example.com' })).rejects.toThrow(
        NotLiftable,
      );

      expect(await wayBack.lift({ code: '5.7.26' }, { ownerEmail: 'owner@example.com' })).toHaveLength(1);
      expect(await wayBack.list({ code: '5.7.26' })).toEqual([]);
      expect((await store.owners.auditLog(5))[0]).toMatchObject({
        action: 'lifted_suppressions',
        ownerEmail: 'owner@example.com',
        subject: '1 address',
      });
      const history = await store.consentEvents.history(misread.id);
      expect(history.map((event) => [event.kind, event.source])).toContainEqual([
        'email_undeliverable_cleared',
        'owner',
      ]);

      // retry reaches the lifted person (their email never arrived), and nobody else.
      const retried = await control.failed.retry(broadcast, { includeUndeliverable: false });
      expect(retried.lifted).toBe(1);
      expect(await send(broadcast)).toMatchObject({ ended: 'finished', sent: 1 });
      expect(countsFor(sink, people)).toEqual(
        people.map((person) => (person === refused ? 0 : person === misread ? 2 : 1)),
      );
    });
  });
}
