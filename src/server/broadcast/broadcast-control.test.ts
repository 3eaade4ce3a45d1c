// The one preflight: the dashboard's Send and the command's send and resume check the same things,
// in the same order, and refuse in the same words; a refused start changes nothing.
import { describe, expect, it } from 'vitest';
import { addPeople, configFor, setup } from '../test/broadcast-setup.js';
import { storeEngines } from '../test/store-engines.js';
import { createBroadcastControl } from '../compose.js';
import { notSetUp } from './channel-setup.js';

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`starting a broadcast on ${engine.name}`, () => {
    it('a channel that is not set up here: the dashboard and the command refuse in the same words, before asking any provider', async () => {
      const { store, broadcasts, sink } = await setup(engine.name, { texts: true });
      await addPeople(store, 2);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      expect(broadcast.channels).toEqual(['email', 'sms']);
      // The same database, seen from a server whose Twilio settings are gone.
      const control = createBroadcastControl(configFor(sink.url), store);
      const expected = notSetUp(['sms']);
      expect(expected).toBe(
        'Texts are not set up here: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM (or, to rehearse with no account, SMS_TRANSPORT=folder:PATH). See docs/messaging.md.',
      );
      // The mail server is down too: asked first, it would be the reason given.
      await sink.stop();
      await expect(control.send(broadcast)).rejects.toThrow(expected);
      for (const resume of [false, true])
        await expect(control.startFromCommand('launch', { workers: 1, resume, resendUnknown: false })).rejects.toThrow(
          expected,
        );
      expect((await store.broadcasts.get('launch'))?.state).toBe('ready');
    });

    it('one start of a send reads the broadcast once and changes its state in one update', async () => {
      const { store, broadcasts, sink } = await setup(engine.name);
      await addPeople(store, 2);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      await store.broadcasts.setState(broadcast.id, 'paused', ['ready']);
      const counted = { reads: 0, updates: 0 };
      const repository = store.broadcasts;
      const { get, setState, moveState } = repository;
      repository.get = (...args) => ((counted.reads += 1), get.apply(repository, args));
      repository.setState = (...args) => ((counted.updates += 1), setState.apply(repository, args));
      repository.moveState = (...args) => ((counted.updates += 1), moveState.apply(repository, args));
      const control = createBroadcastControl(configFor(sink.url), store);
      const start = await control.startFromCommand('launch', { workers: 1, resume: true, resendUnknown: true });
      expect(start.broadcast).toMatchObject({ state: 'sending', startedAt: expect.any(String) });
      expect(counted).toEqual({ reads: 1, updates: 1 });
      expect((await get.call(repository, 'launch'))?.state).toBe('sending');
    });

    it('a paused broadcast: the command goes on only by resume, the dashboard’s one button resumes', async () => {
      const { store, broadcasts, control } = await setup(engine.name);
      await addPeople(store, 2);
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      await store.broadcastPauses.pauseChannel(broadcast.id, 'email', {
        cause: 'sender',
        reason: 'The mail server refused our sign-in: check SMTP_URL, then resume.',
        answer: '535 5.7.8 Authentication failed',
      });
      await expect(
        control.startFromCommand('launch', { workers: 1, resume: false, resendUnknown: false }),
      ).rejects.toThrow(
        /^"launch" is paused: The mail server refused our sign-in.*\nGo on with: sudo scamsavvy broadcast resume launch$/s,
      );
      expect(await store.broadcastPauses.channelPauses(broadcast.id)).toHaveLength(1);
      await control.send(broadcast);
      expect(await store.broadcastPauses.channelPauses(broadcast.id)).toEqual([]);
      await control.stop();
    });
  });
}
