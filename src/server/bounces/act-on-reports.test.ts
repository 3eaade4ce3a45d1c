// What comes back after a send, on every engine: each report is matched to one message by our
// token (or the provider's id we recorded), stored once, and acted on by the rules; a forged token
// or a message we never sent changes nothing.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createMessagingCore } from '../compose-messaging.js';
import { MessageLog } from '../messaging/message-log.js';
import { createMessageTokens } from '../messaging/message-tokens.js';
import { openDatabase, type Db } from '../db/open-database.js';
import { ann, rosa } from '../test/people.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import type { FeedbackEvent } from './report-event.js';
import { Feedback } from './act-on-reports.js';

const SECRET = 'k'.repeat(40);
import { SITE } from '../test/site.js';
import { feedbackStores } from './feedback-options.js';
import { machineClock } from '../test/clock.js';

async function world(engine: (typeof storeEngines)[number]) {
  const store: Db = await openDatabase(await engine.database());
  onTestFinished(() => store.close());
  const { subscriptions } = createMessagingCore({ secretKey: SECRET }, store);
  const tokens = createMessageTokens(SECRET);
  const log = new MessageLog({ store, tokens, siteUrl: SITE });
  const feedback = new Feedback({
    ...feedbackStores(store),
    subscriptions,
    pauses: store.broadcastPauses,
    tokens,
  });
  const person = async (who: typeof rosa | typeof ann) => {
    await store.signups.add({ ...who, consentVersion: 'v1' });
    return (await store.subscribers.subscriberByEmailKey(who.email))!;
  };
  /** One message to this person, as a sender records it; its token. */
  const sendTo = async (
    subscriber: { id: string; email: string; phone: string },
    channel: 'email' | 'sms' = 'email',
    broadcastId: number | null = null,
  ) => {
    const outgoing = await log.begin({
      channel,
      purpose: broadcastId === null ? 'confirmation' : 'broadcast',
      signupId: subscriber.id,
      broadcastId,
      addressHash:
        (channel === 'email' ? subscriptions.emailHash(subscriber.email) : subscriptions.phoneHash(subscriber.phone)) ??
        null,
      feedbackId: 'launch:launch:scamsavvy',
    });
    await log.sent(outgoing.token, {
      providerId: `provider-${outgoing.token.slice(0, 8)}`,
      messageId: `${outgoing.token}@scamsavvy.example`,
    });
    return outgoing.token;
  };
  let count = 0;
  const report = (
    kind: FeedbackEvent['kind'],
    message: FeedbackEvent['message'],
    extra: Partial<FeedbackEvent> = {},
  ): FeedbackEvent => {
    count += 1;
    return {
      source: 'postmark',
      eventId: `event-${count}`,
      kind,
      message,
      // A second apart, in the order made: the soft-bounce rule reads them in time order.
      occurredAt: new Date(machineClock.ms() - 3_600_000 + count * 1000).toISOString(),
      ...extra,
    };
  };
  /** A Feedback like the server's whose first suppression fails (a dropped connection, SQLITE_BUSY). */
  const failingOnce = () => {
    let failed = false;
    return new Feedback({
      sentMessages: store.sentMessages,
      feedbackEvents: store.feedbackEvents,
      subscribers: store.subscribers,
      optOuts: {
        suppressByReport: (...args: Parameters<typeof store.optOuts.suppressByReport>) => {
          if (failed) return store.optOuts.suppressByReport(...args);
          failed = true;
          return Promise.reject(new Error('Connection terminated unexpectedly'));
        },
      },
      subscriptions,
      pauses: store.broadcastPauses,
      tokens,
    });
  };
  return { store, subscriptions, tokens, feedback, failingOnce, person, sendTo, report };
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(suiteName('What comes back after a send', engine), () => {
    it("a report whose action fails is stored, and acted on at the provider's retry (or by the sweep when none comes)", async () => {
      const { store, subscriptions, failingOnce, person, sendTo, report } = await world(engine);
      const mayEmail = async (id: string) =>
        subscriptions.mayContact((await store.subscribers.subscriber(id))!, 'email');
      const rosaNow = await person(rosa);
      const complaint = report('complaint', { token: await sendTo(rosaNow) }, { eventId: 'complaint-1' });
      const feedback = failingOnce();
      await expect(feedback.receive([complaint])).rejects.toThrow('Connection terminated unexpectedly');
      expect(await mayEmail(rosaNow.id)).toBe(true);
      // The provider's retry of the same report: not a duplicate to drop, but the action to finish.
      expect(await feedback.receive([complaint])).toEqual({ stored: 1, duplicates: 0, unmatched: 0 });
      expect(await mayEmail(rosaNow.id)).toBe(false);
      expect(await feedback.receive([complaint])).toEqual({ stored: 0, duplicates: 1, unmatched: 0 });

      // No retry comes (a Twilio callback is sent once): the sweep acts on it.
      const annNow = await person(ann);
      const bounce = report('hard_bounce', { token: await sendTo(annNow) }, { code: '5.1.1', eventId: 'bounce-1' });
      const another = failingOnce();
      await expect(another.receive([bounce])).rejects.toThrow();
      expect(await another.actOnWaiting(60_000)).toBe(0); // not yet: a retry may still come
      expect(await another.actOnWaiting(-1_000)).toBe(1);
      expect(await mayEmail(annNow.id)).toBe(false);
      expect(await another.actOnWaiting(-1_000)).toBe(0);
    });

    it('a hard bounce suppresses that email once, records it on the person, and a redelivery changes nothing', async () => {
      const { store, subscriptions, feedback, person, sendTo, report } = await world(engine);
      const subscriber = await person(rosa);
      const token = await sendTo(subscriber);
      const bounce = report('hard_bounce', { token }, { code: '5.1.1', detail: 'User unknown' });
      expect(await feedback.receive([bounce])).toEqual({ stored: 1, duplicates: 0, unmatched: 0 });
      expect(await feedback.receive([bounce])).toEqual({ stored: 0, duplicates: 1, unmatched: 0 });
      expect(await subscriptions.mayContact((await store.subscribers.subscriber(subscriber.id))!, 'email')).toBe(false);
      // Texts still reach her: a dead email address says nothing about her phone.
      expect(await subscriptions.mayContact((await store.subscribers.subscriber(subscriber.id))!, 'sms')).toBe(true);
      const history = (await store.consentEvents.history(subscriber.id)).filter(
        (event) => event.kind === 'email_bounced',
      );
      expect(history).toEqual([expect.objectContaining({ source: 'provider_report' })]);
      expect((await store.sentMessages.find({ token }))?.state).toBe('bounced');
    });

    it('a complaint stops all email to the person after one', async () => {
      const { store, subscriptions, feedback, person, sendTo, report } = await world(engine);
      const subscriber = await person(ann);
      const token = await sendTo(subscriber);
      await feedback.receive([report('complaint', { token })]);
      expect(await subscriptions.mayContact((await store.subscribers.subscriber(subscriber.id))!, 'email')).toBe(false);
      expect((await store.consentEvents.history(subscriber.id)).map((event) => event.kind)).toContain(
        'email_complained',
      );
    });

    it('an opt-out through the mail provider turns email off as our unsubscribe link does: texts stay, and the "no" is kept by the address until the person turns email on', async () => {
      const { store, subscriptions, feedback, person, sendTo, report } = await world(engine);
      const subscriber = await person(ann);
      const token = await sendTo(subscriber);
      const suppressions = await store.suppressions.count();
      await feedback.receive([report('unsubscribe', { token })]);
      const now = (await store.subscribers.subscriber(subscriber.id))!;
      expect(now.emailOptOutAt).not.toBeNull();
      expect(now.smsOptOutAt).toBeNull();
      expect(await subscriptions.mayContact(now, 'email')).toBe(false);
      expect(await store.suppressions.count()).toBe(suppressions + 1);
      expect(
        (await store.consentEvents.history(subscriber.id)).map((event) => `${event.kind}:${event.source}`),
      ).toContain('email_off:provider_report');
      // Theirs to undo: email on again from their own page lifts it.
      await subscriptions.updatePreferences(subscriber.id, { email: true }, 'preferences_page');
      expect(await store.suppressions.count()).toBe(suppressions);
      expect(await subscriptions.mayContact((await store.subscribers.subscriber(subscriber.id))!, 'email')).toBe(true);
    });

    it('an authentication failure report (our DMARC failed) is counted for the owner by check and domain, and touches nobody', async () => {
      const { store, subscriptions, feedback, person, sendTo, report } = await world(engine);
      const subscriber = await person(ann);
      const token = await sendTo(subscriber);
      const suppressions = await store.suppressions.count();
      const since = new Date(machineClock.ms() - 86_400_000).toISOString();
      expect((await store.messageHealth.listHealth(since)).authFailures).toEqual([]);
      for (const _ of [1, 2])
        await feedback.receive([report('auth_failure', { token }, { code: 'dmarc', detail: 'scamsavvy.example' })]);
      expect((await store.messageHealth.listHealth(since)).authFailures).toEqual([
        { mechanism: 'dmarc', domain: 'scamsavvy.example', reports: 2 },
      ]);
      expect(await subscriptions.mayContact((await store.subscribers.subscriber(subscriber.id))!, 'email')).toBe(true);
      expect(await store.suppressions.count()).toBe(suppressions);
      expect((await store.consentEvents.history(subscriber.id)).map((event) => event.kind)).toEqual(['signed_up']);
    });

    it('reports arriving together are written together, each caller getting its own counts; copies in one batch count once', async () => {
      const { store, feedback, person, sendTo, report } = await world(engine);
      const rosaToken = await sendTo(await person(rosa));
      const annToken = await sendTo(await person(ann));
      const delivered = report('delivered', { token: rosaToken });
      const bounce = report('hard_bounce', { token: annToken });
      const forged = report('hard_bounce', { token: 'a'.repeat(32) });
      // Three requests at once: one batch. The same report twice within it is stored once.
      const outcomes = await Promise.all([
        feedback.receive([delivered, delivered]),
        feedback.receive([bounce, forged]),
        feedback.receive([delivered]),
      ]);
      expect(outcomes).toEqual([
        { stored: 1, duplicates: 1, unmatched: 0 },
        { stored: 1, duplicates: 0, unmatched: 1 },
        { stored: 0, duplicates: 1, unmatched: 0 },
      ]);
      expect((await store.sentMessages.find({ token: rosaToken }))?.state).toBe('delivered');
      expect((await store.sentMessages.find({ token: annToken }))?.state).toBe('bounced');
      // And in a later batch: still once.
      expect(await feedback.receive([delivered, bounce])).toEqual({ stored: 0, duplicates: 2, unmatched: 0 });
    });

    it('a batch that cannot be written fails its callers (the provider sends again), and the next one goes on', async () => {
      const { store, feedback, person, sendTo, report } = await world(engine);
      const token = await sendTo(await person(rosa));
      const storeMany = store.feedbackEvents.storeMany.bind(store.feedbackEvents);
      let away = true;
      store.feedbackEvents.storeMany = async (reports) => {
        if (away) throw new Error('the database is away');
        return storeMany(reports);
      };
      const first = report('delivered', { token });
      const results = await Promise.allSettled([feedback.receive([first]), feedback.receive([first])]);
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
      away = false;
      expect(await feedback.receive([first])).toEqual({ stored: 1, duplicates: 0, unmatched: 0 });
    });

    it('one caller’s report that cannot be stored fails that caller only: the others in its batch are stored', async () => {
      const { store, feedback, person, sendTo, report } = await world(engine);
      const [rosaToken, annToken] = [await sendTo(await person(rosa)), await sendTo(await person(ann))];
      const storeMany = store.feedbackEvents.storeMany.bind(store.feedbackEvents);
      const bad = report('delivered', { token: rosaToken });
      store.feedbackEvents.storeMany = async (reports) => {
        if (reports.some((each) => each.eventId === bad.eventId)) throw new Error('value out of range');
        return storeMany(reports);
      };
      const results = await Promise.allSettled([
        feedback.receive([bad]),
        feedback.receive([report('hard_bounce', { token: annToken })]),
      ]);
      expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
      expect((await store.sentMessages.find({ token: annToken }))?.state).toBe('bounced');
    });

    it('a provider id two messages share (a server answering every message alike) matches neither', async () => {
      const { store, subscriptions, feedback, person, report } = await world(engine);
      const [first, second] = [await person(rosa), await person(ann)];
      const tokens = createMessageTokens(SECRET);
      for (const subscriber of [first, second]) {
        const token = tokens.issue();
        await store.sentMessages.sending([
          {
            token,
            channel: 'email',
            purpose: 'broadcast',
            signupId: subscriber.id,
            broadcastId: null,
            addressHash: subscriptions.emailHash(subscriber.email) ?? null,
          },
        ]);
        await store.sentMessages.sent(token, { state: 'sent', providerId: 'OK' });
      }
      expect(await feedback.receive([report('hard_bounce', { providerId: 'OK' })])).toMatchObject({ unmatched: 1 });
      for (const subscriber of [first, second])
        expect(await subscriptions.mayContact((await store.subscribers.subscriber(subscriber.id))!, 'email')).toBe(
          true,
        );
    });

    it('three soft bounces on different sends suppress; a delivery between resets the count', async () => {
      const { store, subscriptions, feedback, person, sendTo, report } = await world(engine);
      const subscriber = await person(rosa);
      const may = async () => subscriptions.mayContact((await store.subscribers.subscriber(subscriber.id))!, 'email');
      const [first, second, third, fourth, fifth] = [
        await sendTo(subscriber),
        await sendTo(subscriber),
        await sendTo(subscriber),
        await sendTo(subscriber),
        await sendTo(subscriber),
      ];
      await feedback.receive([report('soft_bounce', { token: first! }), report('soft_bounce', { token: first! })]);
      await feedback.receive([report('soft_bounce', { token: second! })]);
      await feedback.receive([report('delivered', { token: third! })]);
      await feedback.receive([report('soft_bounce', { token: fourth! })]);
      // Two before the delivery, one after: still writable.
      expect(await may()).toBe(true);
      await feedback.receive([report('soft_bounce', { token: fifth! }), report('soft_bounce', { token: third! })]);
      // fourth, fifth and third (soft-bounced after its delivery report, a later send's count): three.
      expect(await may()).toBe(false);
    });

    it('texts: a STOP (21610) is their STOP, a landline (30006) marks the number, carriers filtering (30007) pause the broadcast’s texts', async () => {
      const { store, subscriptions, feedback, person, sendTo, report } = await world(engine);
      const stopper = await person(rosa);
      const landline = await person(ann);
      const broadcast = await store.broadcasts.create({
        name: 'launch',
        template: 'launch',
        segment: 'all',
        channels: ['sms'],
        confirmation: 'everyone',
        content: { subject: 's', text: 't', html: 'h', sms: 'x' },
      });
      await feedback.receive([
        report('stop', { token: await sendTo(stopper, 'sms') }, { source: 'twilio', code: '21610' }),
      ]);
      expect((await store.subscribers.subscriber(stopper.id))?.smsOptOutAt).not.toBeNull();
      await feedback.receive([
        report('undeliverable', { token: await sendTo(landline, 'sms') }, { source: 'twilio', code: '30006' }),
      ]);
      expect(await subscriptions.mayContact((await store.subscribers.subscriber(landline.id))!, 'sms')).toBe(false);
      expect(await subscriptions.mayContact((await store.subscribers.subscriber(landline.id))!, 'email')).toBe(true);
      const filtered = await sendTo(landline, 'sms', broadcast!.id);
      await feedback.receive([report('filtered', { token: filtered }, { source: 'twilio', code: '30007' })]);
      expect(await store.broadcastPauses.channelPauses(broadcast!.id)).toEqual([
        expect.objectContaining({ channel: 'sms', cause: 'sender', reason: expect.stringMatching(/30007/) }),
      ]);
    });

    it('matches by the provider’s id when a report carries no token, and never by a forged token or an id we never sent', async () => {
      const { store, subscriptions, tokens, feedback, person, sendTo, report } = await world(engine);
      const subscriber = await person(rosa);
      const token = await sendTo(subscriber);
      const forged = `${token.slice(0, 16)}${'a'.repeat(16)}`;
      expect(tokens.verify(forged)).toBe(false);
      // A forged token naming nothing, and a forged token beside a real provider id: both do nothing.
      expect(await feedback.receive([report('complaint', { token: forged })])).toMatchObject({ unmatched: 1 });
      expect(
        await feedback.receive([report('complaint', { token: forged, providerId: `provider-${token.slice(0, 8)}` })]),
      ).toMatchObject({ unmatched: 1 });
      expect(await feedback.receive([report('hard_bounce', { providerId: 'never-sent' })])).toMatchObject({
        unmatched: 1,
      });
      expect(await subscriptions.mayContact((await store.subscribers.subscriber(subscriber.id))!, 'email')).toBe(true);
      // The provider's id alone (as Twilio's and most webhooks' reports carry): matched.
      await feedback.receive([report('delivered', { providerId: `provider-${token.slice(0, 8)}` })]);
      expect((await store.sentMessages.find({ token }))?.state).toBe('delivered');
      // Reports out of order: a later "sent" never moves it back.
      await feedback.receive([report('sent', { token })]);
      expect((await store.sentMessages.find({ token }))?.state).toBe('delivered');
    });
  });
}
