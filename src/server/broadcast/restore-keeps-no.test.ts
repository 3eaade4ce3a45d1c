// A restore never rewinds a "no" or a send (decision 041): a backup made, then a leaving, a STOP, a
// deletion and the launch sent; `db:restore --replace` brings the backup back, and nobody who said no
// is back, and nobody gets the launch message twice. Both engines, the real sender and transports.
import { mkdtempSync, rmSync } from 'node:fs';
import pg from 'pg';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { makeBackup } from '../backups/make-backup.js';
import { restoreBackup } from '../backups/restore-backup.js';
import { createMessagingCore } from '../compose-messaging.js';
import { openDatabase } from '../db/open-database.js';
import { addPeople, countsFor, setup } from '../test/broadcast-setup.js';
import { storeEngines } from '../test/store-engines.js';
import { importSuppressions, readSuppressionFile } from '../suppressions/import-list.js';
import type { DatabaseConfig } from '../config.js';
import { createBroadcastControl } from '../compose.js';
import { machineClock } from '../test/clock.js';

/** The disaster: the database is gone (an SQLite file lost with its disk; a PostgreSQL schema dropped). */
async function loseDatabase(database: DatabaseConfig): Promise<void> {
  if (database.kind === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${database.file}${suffix}`, { force: true });
    return;
  }
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string }>('SELECT current_schema() AS schema');
    const schema = rows[0]!.schema;
    await client.query(`DROP SCHEMA ${schema} CASCADE; CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
}

/** `db:restore --replace` of the backup over the database it was made from, the replaced one read first. */
function restoreReplacing(base: Awaited<ReturnType<typeof setup>>, backup: string, dir: string) {
  return restoreBackup(base.database, backup, {
    replace: true,
    safetyCopy: path.join(dir, base.database.kind === 'sqlite' ? 'safety.sqlite' : 'safety.pgdump'),
    secretKey: base.config.messaging.secretKey,
  });
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`a restore keeps every "no" and every send (${engine.name})`, () => {
    it('after a leaving, a STOP, a deletion and the launch, a restore of the backup before them brings none of it back', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-restore-no-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const base = await setup(engine.name, { texts: true });
      const people = await addPeople(base.store, 6);
      const [left, stopped, deleted] = people;
      const backup = path.join(dir, engine.name === 'sqlite' ? 'before.sqlite' : 'before.pgdump');
      await makeBackup(base.database, backup);

      const { subscriptions } = base.broadcasts;
      await subscriptions.leave(left!.id, 'preferences_page');
      await subscriptions.stopTexts(stopped!.phone);
      await subscriptions.remove(deleted!.id, 'preferences_page');
      const { broadcast } = await base.broadcasts.create({ name: 'launch', template: 'launch' });
      await base.send(broadcast);
      const emailed = countsFor(base.sink, people);
      const texted = base.twilio!.sent().length;
      expect(emailed).toEqual([0, 1, 0, 1, 1, 1]);
      await base.store.close();

      const restored = await restoreReplacing(base, backup, dir);
      expect(restored.carried).toMatchObject({ keptOut: 1, optOuts: 1, deletions: 1 });
      expect(restored.carried?.suppressions).toBeGreaterThanOrEqual(3);
      expect(restored.carried?.sends).toBeGreaterThanOrEqual(7);

      const store = await openDatabase(base.database, { migrate: false });
      onTestFinished(() => store.close());
      expect((await store.subscribers.subscriber(left!.id))?.leftAt).not.toBeNull();
      expect(await store.subscribers.subscriber(deleted!.id)).toBeUndefined();
      // Everything after the backup was known and carried: nothing holds the next send.
      expect(await store.restoreMarks.unsettled()).toBeUndefined();
      const again = createBroadcastControl(base.config, store).broadcasts;
      const after = createMessagingCore(base.config.messaging, store).subscriptions;
      const stoppedNow = (await store.subscribers.subscriber(stopped!.id))!;
      expect(await after.exclusions(stoppedNow, ['sms'])).toEqual({ sms: 'stopped' });

      // The launch goes on where it was: nothing left to send, nobody gets it twice.
      const launch = await again.get('launch');
      expect(launch.state).toBe('finished');
      await again
        .sender(launch, base.transports, {
          rates: { email: 2_000, sms: 2_000 },
          heartbeatMs: 50,
          retryBaseMs: 20,
          maxRetryMs: 40,
        })
        .run(launch);
      // A launch made anew takes nobody who said no.
      const { report } = await again.create({ name: 'launch-again', template: 'launch' });
      expect(report.channels.email?.excluded.left).toBe(1);
      expect(report.channels.sms?.excluded.stopped).toBe(1);
      expect(report.people).toBe(5);
      expect(countsFor(base.sink, people)).toEqual(emailed);
      expect(base.twilio!.sent()).toHaveLength(texted);
    });

    // Issue 54, path 5: a restore carries every choice made after its backup, not only the "no"s.
    it('a beta opt-out, a language and a number changed (with its YES) after the backup stay as they are now', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-restore-choices-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const base = await setup(engine.name, { texts: true });
      const [person] = await addPeople(base.store, 2, { beta: () => true });
      const backup = path.join(dir, engine.name === 'sqlite' ? 'before.sqlite' : 'before.pgdump');
      await makeBackup(base.database, backup);

      const { subscriptions } = base.broadcasts;
      await subscriptions.updatePreferences(person!.id, { beta: false }, 'preferences_page');
      await subscriptions.changeLanguage(person!.id, 'es');
      await subscriptions.changeDetails(person!.id, { phone: '+15557770001' }, 'owner');
      await subscriptions.confirmTexts('+15557770001');
      await base.store.close();

      const restored = await restoreReplacing(base, backup, dir);
      expect(restored.carried?.choices).toBe(1);
      const store = await openDatabase(base.database, { migrate: false });
      onTestFinished(() => store.close());
      expect(await store.subscribers.subscriber(person!.id)).toMatchObject({
        betaTesting: false,
        language: 'es',
        phone: '+15557770001',
      });
      expect((await store.subscribers.subscriber(person!.id))?.smsConfirmedAt).not.toBeNull();
      // The beta invitation does not go to them again, and the launch text goes to the new number only.
      const again = createBroadcastControl(base.config, store).broadcasts;
      const { report } = await again.create({ name: 'beta', template: 'beta', segment: 'beta' });
      expect(report.channels.email?.excluded.not_beta).toBe(1);
    });

    // Issue 54, path 6: a restore carries every yes and every message that went, not only the launch's.
    it('a confirmation, a reminder and a YES after the backup stay: nobody is asked twice, nobody who said yes is swept', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-restore-yes-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const base = await setup(engine.name, { texts: true });
      const people = await addPeople(base.store, 3, { confirmed: () => false, textsConfirmed: () => false });
      const [confirmer, reminded, saidYes] = people;
      const ids = people.map((person) => person.id);
      await base.store.messageQueue.add('confirmation', 'email', ids);
      const backup = path.join(dir, engine.name === 'sqlite' ? 'before.sqlite' : 'before.pgdump');
      await makeBackup(base.database, backup);

      // After the backup: the three confirmation emails went, one person pressed its button, another
      // got the one reminder, the third's number replied YES.
      const sendAll = async (kind: 'confirmation' | 'reminder') => {
        const claimed = await base.store.outbox.claim({ kind, leaseMs: 60_000 }, 'a test', 10);
        await base.store.outbox.record(
          'a test',
          claimed.map((message) => ({ id: message.id, result: 'sent' as const })),
        );
        return claimed.length;
      };
      expect(await sendAll('confirmation')).toBe(3);
      const { subscriptions } = base.broadcasts;
      expect(await subscriptions.confirm(confirmer!.id, 'confirm_page')).toBe('confirmed');
      await base.store.messageQueue.add('reminder', 'email', [reminded!.id]);
      expect(await sendAll('reminder')).toBe(1);
      await subscriptions.confirmTexts(saidYes!.phone);
      await base.store.close();

      const restored = await restoreReplacing(base, backup, dir);
      expect(restored.carried?.sends).toBe(4);
      const store = await openDatabase(base.database, { migrate: false });
      onTestFinished(() => store.close());
      // Nothing that went waits to go again, and the reminder is not due a second time.
      const states = async (kind: 'confirmation' | 'reminder') =>
        (await store.messageQueue.rows(kind)).map((row) => row.state);
      expect(await states('confirmation')).toEqual(['sent', 'sent', 'sent']);
      expect(await states('reminder')).toEqual(['sent']);
      expect(await store.confirmations.queueReminders(new Date(machineClock.ms() + 365 * 86_400_000))).toBe(0);
      // The yes holds: the launch takes the confirmed person, and the sweep of the never-confirmed
      // takes only the one who never said yes.
      const after = createMessagingCore(base.config.messaging, store).subscriptions;
      const confirmed = (await store.subscribers.subscriber(confirmer!.id))!;
      expect(confirmed.confirmedAt).not.toBeNull();
      expect(await after.exclusions(confirmed, ['email'], { segment: 'all', confirmation: 'asked' })).toEqual({});
      expect(await store.confirmations.deleteUnconfirmed(new Date(machineClock.ms() + 365 * 86_400_000))).toBe(1);
      expect(await store.subscribers.subscriber(confirmer!.id)).toBeDefined();
      expect(await store.subscribers.subscriber(saidYes!.id)).toBeDefined();
      expect(await store.subscribers.subscriber(reminded!.id)).toBeUndefined();
    });

    it("with the database it replaced gone, nothing is sent until the providers' list is imported or the owner says so", async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-restore-lost-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const base = await setup(engine.name);
      const people = await addPeople(base.store, 3);
      const backup = path.join(dir, engine.name === 'sqlite' ? 'before.sqlite' : 'before.pgdump');
      await makeBackup(base.database, backup);
      // After the backup, the first person unsubscribed at the provider; then the disk was lost.
      await base.store.close();
      await loseDatabase(base.database);

      const restored = await restoreBackup(base.database, backup, {
        replace: false,
        safetyCopy: path.join(dir, 'safety'),
        secretKey: base.config.messaging.secretKey,
      });
      expect(restored.carried).toBeUndefined();
      const store = await openDatabase(base.database, { migrate: false });
      onTestFinished(() => store.close());
      const control = createBroadcastControl(base.config, store);
      const { broadcast } = await control.broadcasts.create({ name: 'launch', template: 'launch' });
      // The launch checks would say no one's domain is not ready: the owner goes on knowingly.
      const start = { workers: 1, resume: false, resendUnknown: false, notReady: true };
      await expect(control.startFromCommand('launch', start)).rejects.toThrow(
        /unknown here[\s\S]*sudo scamsavvy suppressions import FILE[\s\S]*sudo scamsavvy broadcast send launch --after-restore/,
      );
      await expect(control.startFromCommand('launch', { ...start, resume: true })).rejects.toThrow(
        /resume launch --after-restore/,
      );
      // The dashboard's button too.
      await expect(control.send(broadcast)).rejects.toThrow(/unknown here/);
      // A later restore over this one still knows it is unsettled.
      expect((await store.restoreMarks.unsettled())?.backupFile).toBe(backup);

      // The provider's list, imported: the person who said no there is kept out, and sending may go.
      const rows = readSuppressionFile(`email,reason\n${people[0]!.email},unsubscribed\n`, { now: machineClock.now() });
      const { subscriptions } = createMessagingCore(base.config.messaging, store);
      expect(await importSuppressions(rows, store, subscriptions)).toEqual({ added: 1, settledRestores: 1 });
      await control.startFromCommand('launch', start);
      const current = await control.broadcasts.get('launch');
      await control.broadcasts
        .sender(current, base.transports, { rates: { email: 2_000 }, heartbeatMs: 50, retryBaseMs: 20, maxRetryMs: 40 })
        .run(current);
      expect(countsFor(base.sink, people)).toEqual([0, 1, 1]);
    });

    it('after a restore with nothing to read, --after-restore lets the owner go on knowingly, once', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-restore-ack-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const base = await setup(engine.name);
      await addPeople(base.store, 2);
      const backup = path.join(dir, engine.name === 'sqlite' ? 'before.sqlite' : 'before.pgdump');
      await makeBackup(base.database, backup);
      await base.store.close();
      await loseDatabase(base.database);
      await restoreBackup(base.database, backup, { replace: false, safetyCopy: path.join(dir, 'safety') });
      const store = await openDatabase(base.database, { migrate: false });
      onTestFinished(() => store.close());
      const control = createBroadcastControl(base.config, store);
      await control.broadcasts.create({ name: 'launch', template: 'launch' });
      await control.startFromCommand('launch', {
        workers: 1,
        resume: false,
        resendUnknown: false,
        afterRestore: true,
        notReady: true,
      });
      expect(await store.restoreMarks.unsettled()).toBeUndefined();
      // Settled for good: the next start needs no flag.
      await control.broadcasts.create({ name: 'beta', template: 'beta' });
      await expect(
        control.startFromCommand('beta', { workers: 1, resume: false, resendUnknown: false, notReady: true }),
      ).resolves.toBeDefined();
    });
  });
}
