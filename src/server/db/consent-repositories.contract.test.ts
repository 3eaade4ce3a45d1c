// One suite, every engine: the people, their opt-outs, the confirmation and phone-change queues and the suppression list, from the sign-up path through the repositories.
import { DELETED_PERSON } from './opt-outs-repository.js';
import { randomUUID } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { emailKey, type SignupInput, type SignupRecord } from '../../shared/signup-schema.js';
import type { DatabaseConfig } from '../config.js';
import { storedForms, toE164 } from '../messaging/phone.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import type { Subscriber } from './subscribers-repository.js';
import type { Suppression } from './suppressions-repository.js';
import { openDatabase, type Db } from './open-database.js';
import { isSuppressed } from '../test/suppressed.js';
import { machineClock } from '../test/clock.js';

const rosa: SignupInput = {
  name: 'Rosa Díaz',
  phone: '+15551234567',
  email: 'rosa@example.com',
  betaTesting: false,
  consentVersion: '2026-11-22',
};

const LEASE_MS = 60_000;
const HOUR_MS = 60 * 60 * 1000;

/**
 * The store's clock: the machine's (PostgreSQL stamps a sign-up with its own now()), which a test can
 * move forward.
 */
function movableClock() {
  let offset = 0;
  return {
    now: () => new Date(machineClock.ms() + offset),
    advance: (ms: number) => {
      offset += ms;
    },
  };
}
type Clock = ReturnType<typeof movableClock>;

/** The hashes a Subscriptions would add for this person (any distinct strings do for the store). */
function suppressionsOf(email: string, phone: string, reason: Suppression['reason']): Suppression[] {
  return [
    { kind: 'email', hash: `email-hash:${emailKey(email)}`, reason, source: 'preferences_page' },
    { kind: 'phone', hash: `phone-hash:${toE164(phone)}`, reason, source: 'preferences_page' },
  ];
}

async function all(store: Db): Promise<SignupRecord[]> {
  const records = [];
  for await (const record of store.signups.list()) records.push(record);
  return records;
}

/** Runs SQL past the port, on PostgreSQL (the sign-up's own times there are the database's clock). */
async function postgresQuery(database: DatabaseConfig, sql: string, values: unknown[] = []): Promise<void> {
  if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    await client.query(sql, values);
  } finally {
    await client.end();
  }
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(suiteName('the consent repositories', engine), () => {
    interface Opened {
      store: Db;
      database: DatabaseConfig;
      clock: Clock;
    }

    async function open({
      confirmSignups = true,
      database,
      clock = movableClock(),
    }: { confirmSignups?: boolean; database?: DatabaseConfig; clock?: Clock } = {}): Promise<Opened> {
      const config = database ?? (await engine.database());
      const store = await openDatabase(config, { confirmSignups, now: clock.now });
      onTestFinished(() => store.close());
      return { store, database: config, clock };
    }

    /**
     * Signs up and waits a moment: on PostgreSQL the sign-up is stamped by the database in
     * microseconds and the store's clock counts milliseconds, so "right after" must be a later millisecond.
     */
    async function signUp(store: Db, input: Partial<SignupInput> = {}): Promise<Subscriber> {
      const signup = { ...rosa, ...input };
      await store.signups.add(signup);
      await pause(3);
      const subscriber = await store.subscribers.subscriberByEmailKey(emailKey(signup.email));
      if (!subscriber) throw new Error(`${signup.email} was not stored`);
      return subscriber;
    }

    /**
     * Makes the last confirmation email `ms` older, for the once-a-day rule: on SQLite by moving the
     * store's clock on; on PostgreSQL, whose sign-ups are timed by the database, by moving the stored time back.
     */
    async function ageConfirmationSent({ database, clock }: Opened, ms: number): Promise<void> {
      if (database.kind === 'sqlite') clock.advance(ms);
      else
        await postgresQuery(
          database,
          `UPDATE signups SET confirm_sent_at = confirm_sent_at - $1 * interval '1 millisecond'`,
          [ms],
        );
    }

    /** The outbox row of each person's latest claimed confirmation email. */
    const claimedRow = new Map<string, number>();
    /** Claims the due confirmation emails, as the one sender does (decision 052). */
    const claim = async (store: Db): Promise<{ id: string; attempts: number }[]> => {
      const rows = await store.outbox.claim({ kind: 'confirmation', leaseMs: LEASE_MS }, 'a test', 10);
      for (const row of rows) claimedRow.set(row.signupId, row.id);
      return rows.map((row) => ({ id: row.signupId, attempts: row.attempts }));
    };
    /** The claimed email went out, as the sender records it. */
    const sent = async (store: Db, id: string): Promise<void> => {
      await store.outbox.record('a test', [{ id: claimedRow.get(id)!, result: 'sent' }]);
    };
    /** The claimed email failed: tried again at `retryAt`, or (without one) failed for good. */
    const failed = async (
      store: Db,
      id: string,
      error: string,
      retryAt?: Date,
      options?: { countAttempt?: boolean },
    ): Promise<void> => {
      const row = claimedRow.get(id)!;
      await store.outbox.record('a test', [
        retryAt
          ? { id: row, result: 'temporary', retryAt, error, kind: 'message', ours: options?.countAttempt === false }
          : { id: row, result: 'permanent', error, kind: 'recipient' },
      ]);
    };

    it('records each sign-up in the consent history with the consent text it agreed to', async () => {
      const { store } = await open();
      const first = await signUp(store);
      const again = await signUp(store, { email: 'ROSA@example.com', consentVersion: '2026-12-01' });
      expect(again.id).toBe(first.id);
      expect(await store.consentEvents.history(first.id)).toEqual([
        { kind: 'signed_up', source: 'signup_form', consentVersion: '2026-11-22', at: first.createdAt, evidence: null },
        {
          kind: 'signed_up',
          source: 'signup_form',
          consentVersion: '2026-12-01',
          at: again.lastSeenAt,
          evidence: null,
        },
      ]);
    });

    it('asks a new sign-up to confirm: one claim takes it, the lease hides it, and it is due again when the lease runs out', async () => {
      const { store, clock } = await open();
      const rosaNow = await signUp(store);
      expect(await claim(store)).toEqual([{ id: rosaNow.id, attempts: 1 }]);
      expect(await claim(store)).toEqual([]);
      // A repeat sign-up while the email is claimed neither shortens the lease nor asks twice.
      await signUp(store);
      expect(await claim(store)).toEqual([]);
      clock.advance(LEASE_MS - 1000);
      expect(await claim(store)).toEqual([]);
      clock.advance(2000);
      expect(await claim(store)).toEqual([{ id: rosaNow.id, attempts: 2 }]);
      expect(await claim(store)).toEqual([]);
    });

    it('stops asking once the confirmation is sent, and asks again on a repeat sign-up only after a day', async () => {
      const opened = await open();
      const { store } = opened;
      const { id } = await signUp(store);
      expect(await claim(store)).toHaveLength(1);
      await sent(store, id);
      expect((await store.subscribers.subscriber(id))?.confirmationSentAt).not.toBeNull();
      expect(await claim(store)).toEqual([]);

      await signUp(store); // the same minute
      expect(await claim(store)).toEqual([]);
      await ageConfirmationSent(opened, 23 * HOUR_MS);
      await signUp(store);
      expect(await claim(store)).toEqual([]);
      await ageConfirmationSent(opened, 2 * HOUR_MS); // 25 hours after the email went out
      await signUp(store);
      expect(await claim(store)).toEqual([{ id, attempts: 1 }]);
    });

    it('retries a failed confirmation at its time, counting the attempt unless told the failure was not the person’s', async () => {
      const { store, clock } = await open();
      const { id } = await signUp(store);
      const [first] = await claim(store);
      expect(first?.attempts).toBe(1);
      const retryAt = new Date(clock.now().getTime() + 1000);
      await failed(store, id, 'waiting for the mail server', retryAt, { countAttempt: false });
      expect(await claim(store)).toEqual([]);
      clock.advance(1500);
      // Given back: this claim is the first attempt again.
      expect(await claim(store)).toEqual([{ id, attempts: 1 }]);
      await failed(store, id, '421 try later', new Date(clock.now().getTime() + 1000));
      clock.advance(1500);
      expect(await claim(store)).toEqual([{ id, attempts: 2 }]);
      // No retry time: not tried again.
      await failed(store, id, '550 5.1.1 no such user');
      clock.advance(LEASE_MS * 2);
      expect(await claim(store)).toEqual([]);
    });

    it('a "no" withdraws a waiting confirmation: leaving or email off mid-send, and no retry brings it back', async () => {
      const { store, clock } = await open();
      const { id } = await signUp(store);
      expect(await claim(store)).toHaveLength(1); // being sent when the person leaves
      expect((await store.subscribers.subscriber(id))?.confirmationWaiting).toBe(true);
      await store.optOuts.leave(id, 'preferences_page', suppressionsOf(rosa.email, rosa.phone, 'left'));
      expect((await store.subscribers.subscriber(id))?.confirmationWaiting).toBe(false);
      // The send that was under way fails and asks for a retry: the leaving holds.
      await failed(store, id, '421 try later', new Date(clock.now().getTime() + 1000));
      clock.advance(LEASE_MS * 2);
      expect(await claim(store)).toEqual([]);
      expect((await store.subscribers.subscriber(id))?.confirmationWaiting).toBe(false);

      const ben = await signUp(store, { email: 'ben@example.com' });
      expect((await store.subscribers.subscriber(ben.id))?.confirmationWaiting).toBe(true);
      await store.subscribers.updatePreferences(ben.id, { email: false }, 'preferences_page');
      expect((await store.subscribers.subscriber(ben.id))?.confirmationWaiting).toBe(false);
      expect(await claim(store)).toEqual([]);
    });

    it('asks nobody to confirm when the store is opened without confirmSignups', async () => {
      const { store } = await open({ confirmSignups: false });
      await signUp(store);
      await signUp(store);
      await signUp(store, { email: 'ben@example.com' });
      expect(await claim(store)).toEqual([]);
    });

    it('confirms once: "confirmed", then "already"; "missing" for an unknown id or one that is not a UUID', async () => {
      const { store } = await open();
      const { id } = await signUp(store);
      expect(await store.subscribers.confirm(id)).toBe('confirmed');
      const confirmed = await store.subscribers.subscriber(id);
      expect(confirmed?.confirmedAt).not.toBeNull();
      expect((await store.consentEvents.history(id)).map(({ kind, source }) => [kind, source])).toEqual([
        ['signed_up', 'signup_form'],
        ['confirmed', 'confirm_page'],
      ]);
      expect(await claim(store)).toEqual([]); // the email asking for it is no longer needed
      expect(await store.subscribers.confirm(id)).toBe('already');
      expect((await store.subscribers.subscriber(id))?.confirmedAt).toBe(confirmed?.confirmedAt);
      expect(await store.consentEvents.history(id)).toHaveLength(2);
      expect(await store.subscribers.confirm(randomUUID())).toBe('missing');
      expect(await store.subscribers.confirm('not-a-uuid')).toBe('missing');
      expect(await store.subscribers.confirm(`${id}' OR '1'='1`)).toBe('missing');
    });

    it('does not ask a confirmed person to confirm again when they sign up again', async () => {
      const opened = await open();
      const { store } = opened;
      const { id } = await signUp(store);
      await claim(store);
      await sent(store, id);
      await store.subscribers.confirm(id);
      const confirmedAt = (await store.subscribers.subscriber(id))?.confirmedAt;
      await ageConfirmationSent(opened, 3 * 24 * HOUR_MS);
      await signUp(store);
      expect(await claim(store)).toEqual([]);
      expect((await store.subscribers.subscriber(id))?.confirmedAt).toBe(confirmedAt);
    });

    it('changes only the preferences that differ, recording exactly those changes', async () => {
      const { store } = await open();
      const { id } = await signUp(store);
      const updated = await store.subscribers.updatePreferences(
        id,
        { email: true, sms: false, beta: true },
        'preferences_page',
      );
      expect(updated).toMatchObject({ emailOptOutAt: null, betaTesting: true, leftAt: null });
      expect(updated?.smsOptOutAt).not.toBeNull();
      const kinds = async () => (await store.consentEvents.history(id)).map(({ kind, source }) => `${kind}/${source}`);
      expect(await kinds()).toEqual(['signed_up/signup_form', 'sms_off/preferences_page', 'beta_on/preferences_page']);

      await store.subscribers.updatePreferences(id, { email: true, sms: false, beta: true }, 'preferences_page');
      expect(await kinds()).toHaveLength(3); // nothing changed, nothing recorded

      const later = await store.subscribers.updatePreferences(id, { email: false, sms: true }, 'one_click_unsubscribe');
      expect(later).toMatchObject({ smsOptOutAt: null, betaTesting: true });
      expect(later?.emailOptOutAt).not.toBeNull();
      expect((await kinds()).slice(3)).toEqual(['email_off/one_click_unsubscribe', 'sms_on/one_click_unsubscribe']);

      expect(await store.subscribers.updatePreferences(randomUUID(), { email: false }, 'preferences_page')).toBe(
        undefined,
      );
    });

    it('leaving turns both channels off, is recorded, suppresses both addresses and cancels the confirmation', async () => {
      const { store, clock } = await open();
      const { id, lastSeenAt } = await signUp(store);
      const suppressions = suppressionsOf(rosa.email, rosa.phone, 'left');
      expect(await store.optOuts.leave(id, 'preferences_page', suppressions)).toBe(true);
      const left = await store.subscribers.subscriber(id);
      expect(left?.leftAt).not.toBeNull();
      expect(left).toMatchObject({ emailOptOutAt: left?.leftAt, smsOptOutAt: left?.leftAt });
      expect((await store.consentEvents.history(id)).at(-1)).toMatchObject({
        kind: 'left',
        source: 'preferences_page',
      });
      expect(await store.suppressions.count()).toBe(2);
      for (const { kind, hash } of suppressions) expect(await isSuppressed(store, kind, hash, lastSeenAt)).toBe(true);
      clock.advance(LEASE_MS * 2);
      expect(await claim(store)).toEqual([]);

      expect(await store.optOuts.leave(id, 'preferences_page', suppressions)).toBe(true); // already off
      expect(await store.suppressions.count()).toBe(2);
      expect(await store.consentEvents.history(id)).toHaveLength(2);
      expect(await store.optOuts.leave(randomUUID(), 'preferences_page', suppressions)).toBe(false);
    });

    it('a repeat sign-up after leaving changes nothing but asks once to come back, never twice', async () => {
      const { store } = await open();
      const { id } = await signUp(store);
      await claim(store);
      await sent(store, id);
      await store.subscribers.confirm(id);
      await store.subscribers.updatePreferences(id, { email: false }, 'one_click_unsubscribe');
      await store.optOuts.leave(id, 'preferences_page', suppressionsOf(rosa.email, rosa.phone, 'left'));
      const before = await store.subscribers.subscriber(id);

      const again = await signUp(store, { betaTesting: true, phone: '+15550001111' });
      expect(again).toMatchObject({
        id,
        leftAt: before?.leftAt,
        emailOptOutAt: before?.emailOptOutAt,
        smsOptOutAt: before?.smsOptOutAt,
        confirmedAt: before?.confirmedAt,
        betaTesting: false,
        phone: rosa.phone,
        phoneChange: null,
      });
      // The one "come back?" email: their last confirmation went out before their "no".
      expect(await claim(store)).toEqual([{ id, attempts: 1 }]);
      await sent(store, id);
      await signUp(store);
      expect(await claim(store)).toEqual([]);
    });

    it('deleting removes the sign-up and its consent history and keeps only the suppression hashes', async () => {
      const { store } = await open();
      const { id, lastSeenAt } = await signUp(store);
      await signUp(store, { email: 'ben@example.com', phone: '+15559876543' });
      await store.subscribers.confirm(id);
      const suppressions = suppressionsOf(rosa.email, rosa.phone, 'deleted');
      expect(await store.optOuts.remove(id, suppressions)).toBe(true);
      expect(await store.subscribers.subscriber(id)).toBeUndefined();
      expect(await store.consentEvents.history(id)).toEqual([]);
      expect((await all(store)).map((record) => record.email)).toEqual(['ben@example.com']);
      expect(await store.suppressions.count()).toBe(2);
      for (const { kind, hash } of suppressions) expect(await isSuppressed(store, kind, hash, lastSeenAt)).toBe(true);
      expect(await store.optOuts.remove(id, suppressions)).toBe(false);
      expect(await store.suppressions.count()).toBe(2); // nothing added for a sign-up that was not there
      expect(await store.optOuts.remove('not-a-uuid', suppressions)).toBe(false);
    });

    it('deleting someone whose made-up number is "+2026" blanks only lines about them, matched literally', async () => {
      const { store } = await open();
      const { id } = await signUp(store, { email: 'odd_one@example.com', phone: '+2026' });
      await store.owners.audit({
        ownerEmail: 'owner@example.com',
        action: 'signed_in',
        detail: 'Signed in on 2026-11-26',
      });
      await store.owners.audit({ ownerEmail: 'owner@example.com', action: 'signed_in', detail: 'oddXone@example.com' });
      await store.owners.audit({ ownerEmail: 'owner@example.com', action: 'searched', subject: id, detail: 'found' });
      expect(await store.optOuts.remove(id, [])).toBe(true);
      const details = (await store.owners.auditLog(10)).map((entry) => entry.detail).sort();
      expect(details).toEqual([DELETED_PERSON, 'Signed in on 2026-11-26', 'oddXone@example.com'].sort());
    });

    it('deleting a person unties whoever joined through their link, and their code attributes to nobody after', async () => {
      const { store } = await open();
      const { referralCode } = await store.signups.add(rosa);
      const through = (email: string) =>
        store.signups.add({ ...rosa, email, attribution: { referredBy: referralCode ?? undefined } });
      await through('sam@example.com');
      const id = (await all(store)).find((record) => record.email === rosa.email)?.id ?? '';
      expect(await store.optOuts.remove(id, suppressionsOf(rosa.email, rosa.phone, 'deleted'))).toBe(true);
      await through('lee@example.com');
      const records = await all(store);
      expect(records.map((record) => [record.email, record.referredBy])).toEqual([
        ['sam@example.com', null],
        ['lee@example.com', null],
      ]);
      // Their code appears nowhere in what the owner can export.
      expect(JSON.stringify(records)).not.toContain(referralCode);
    });

    it('holds a leaving over a later sign-up with the address: only the person lifts it', async () => {
      const { store } = await open();
      const before = await signUp(store);
      const [email, phone] = suppressionsOf(rosa.email, rosa.phone, 'left');
      if (!email || !phone) throw new Error('two suppressions expected');
      expect(await isSuppressed(store, 'email', email.hash, before.lastSeenAt)).toBe(false);
      await store.optOuts.leave(before.id, 'preferences_page', [email, phone]);
      await pause(3);
      expect(await isSuppressed(store, 'email', email.hash, before.lastSeenAt)).toBe(true);
      expect(await isSuppressed(store, 'phone', phone.hash, before.lastSeenAt)).toBe(true);
      expect(await isSuppressed(store, 'phone', email.hash, before.lastSeenAt)).toBe(false); // kinds apart
      expect(await isSuppressed(store, 'email', 'another-hash', before.lastSeenAt)).toBe(false);

      const after = await signUp(store);
      expect(after.lastSeenAt > before.lastSeenAt).toBe(true);
      expect(await isSuppressed(store, 'email', email.hash, after.lastSeenAt)).toBe(true);
      expect(await isSuppressed(store, 'phone', phone.hash, after.lastSeenAt)).toBe(true);
      // Another person's leaving on the same number is not theirs to lift: it stays until START.
      await store.optOuts.leave((await signUp(store, { email: 'ben@example.com' })).id, 'preferences_page', [
        { ...phone, source: 'preferences_page' },
      ]);
      // The "come back?" button from their mailbox lifts it on the email, and on the number only the
      // mark their own leaving made.
      expect(await store.optOuts.comeBack(after.id, { email: [email.hash], phone: [phone.hash] }, 'confirm_page')).toBe(
        true,
      );
      expect(await isSuppressed(store, 'email', email.hash, after.lastSeenAt)).toBe(false);
      expect(await isSuppressed(store, 'phone', phone.hash, after.lastSeenAt)).toBe(true);
      expect((await store.suppressions.entries('phone', [phone.hash])).get(phone.hash)?.latestReason).toBe('left');
      expect(await store.subscribers.subscriber(after.id)).toMatchObject({ leftAt: null, emailOptOutAt: null });
      expect((await store.subscribers.subscriber(after.id))?.smsOptOutAt).not.toBeNull();
      expect(await store.optOuts.comeBack(after.id, {}, 'confirm_page')).toBe(false); // nothing left to undo
    });

    it('STOP and START reach everyone who typed the number, in any of its stored forms, and record it', async () => {
      const { store } = await open();
      const typed = ['+15551234567', '15551234567', '5551234567'];
      const people = [];
      for (const [index, phone] of typed.entries())
        people.push(await signUp(store, { email: `p${index}@example.com`, phone }));
      const other = await signUp(store, { email: 'other@example.com', phone: '+15559876543' });
      const forms = storedForms(toE164('+1 555 123 4567'));
      const hash = 'phone-hash:+15551234567';
      const stop: Suppression = { kind: 'phone', hash, reason: 'sms_stop', source: 'sms_reply' };

      expect(await store.optOuts.stopTexts(forms, stop)).toBe(3);
      for (const person of people) {
        expect((await store.subscribers.subscriber(person.id))?.smsOptOutAt).not.toBeNull();
        expect((await store.consentEvents.history(person.id)).at(-1)).toMatchObject({
          kind: 'sms_off',
          source: 'sms_reply',
        });
      }
      expect((await store.subscribers.subscriber(other.id))?.smsOptOutAt).toBeNull();
      expect(await store.consentEvents.history(other.id)).toHaveLength(1);
      expect(await isSuppressed(store, 'phone', hash, other.lastSeenAt)).toBe(true);
      expect(await store.optOuts.stopTexts(forms, stop)).toBe(0); // already off: nothing more to record
      expect(await store.consentEvents.history(people[0]?.id ?? '')).toHaveLength(2);

      // Someone who left stays off when the number texts START.
      const [stays, ...back] = people;
      if (!stays) throw new Error('three people expected');
      await store.optOuts.leave(stays.id, 'preferences_page', []);
      expect(await store.optOuts.startTexts(forms, hash, 'sms_reply')).toBe(2);
      for (const person of back) {
        expect((await store.subscribers.subscriber(person.id))?.smsOptOutAt).toBeNull();
        // START is also a yes to texts (decision 041).
        expect((await store.consentEvents.history(person.id)).slice(-2)).toMatchObject([
          { kind: 'sms_on', source: 'sms_reply' },
          { kind: 'sms_confirmed', source: 'sms_reply' },
        ]);
        expect((await store.subscribers.subscriber(person.id))?.smsConfirmedAt).not.toBeNull();
      }
      expect((await store.subscribers.subscriber(stays.id))?.smsOptOutAt).not.toBeNull();
      expect((await store.subscribers.subscriber(stays.id))?.smsConfirmedAt).toBeNull();
      expect(await isSuppressed(store, 'phone', hash, other.lastSeenAt)).toBe(false);
    });

    it('records one sms_off per person when the same STOP arrives several times at once', async () => {
      const { store } = await open();
      const people = [
        await signUp(store, { email: 'a@example.com', phone: '+15551234567' }),
        await signUp(store, { email: 'b@example.com', phone: '5551234567' }),
      ];
      const stop: Suppression = { kind: 'phone', hash: 'h', reason: 'sms_stop', source: 'sms_reply' };
      const forms = storedForms('+15551234567');
      const counts = await Promise.all(Array.from({ length: 6 }, () => store.optOuts.stopTexts(forms, stop)));
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(2);
      for (const person of people)
        expect((await store.consentEvents.history(person.id)).filter(({ kind }) => kind === 'sms_off')).toHaveLength(1);
    });

    it('deletes only sign-ups whose confirmation email went out and who did not confirm, before the cutoff', async () => {
      const database = await engine.database();
      // Signed up before confirmation was switched on: never asked, so never deleted by this rule.
      const earlier = await open({ database, confirmSignups: false });
      const old = await signUp(earlier.store, { email: 'old@example.com' });
      await earlier.store.close();

      const { store, clock } = await open({ database });
      const waiting = await signUp(store, { email: 'waiting@example.com' });
      const wentOut = await signUp(store, { email: 'sent@example.com' });
      const confirmed = await signUp(store, { email: 'confirmed@example.com' });
      await claim(store);
      await sent(store, wentOut.id);
      await store.subscribers.confirm(confirmed.id);
      // A later millisecond than the email's, however fast the machine: the cutoff is strictly after it.
      await pause(3);
      const cutoff = clock.now();
      await pause(3);
      const recent = await signUp(store, { email: 'recent@example.com' });

      // What names them elsewhere goes as a deletion's does: the message log's link, the owner's log.
      const token = 'a'.repeat(32);
      await store.sentMessages.sending([
        {
          token,
          channel: 'email',
          purpose: 'confirmation',
          signupId: wentOut.id,
          addressHash: 'hash-of-sent',
          messageId: '<m@x>',
        },
      ]);
      await store.owners.audit({
        ownerEmail: 'owner@example.com',
        action: 'searched',
        subject: wentOut.id,
        detail: 'se•••@example.com',
      });

      // Only the one whose confirmation email went out before the cutoff: one still waiting for its
      // email to go (queued, retrying) has not been asked yet, and is kept.
      expect(await store.confirmations.deleteUnconfirmed(cutoff)).toBe(1);
      expect(await store.sentMessages.find({ token })).toMatchObject({ signupId: null });
      expect(JSON.stringify(await store.owners.auditLog(10))).not.toContain(wentOut.id);
      expect((await store.owners.auditLog(10)).map((entry) => entry.detail)).toContain(DELETED_PERSON);
      expect((await all(store)).map((record) => record.email).sort()).toEqual([
        'confirmed@example.com',
        'old@example.com',
        'recent@example.com',
        'waiting@example.com',
      ]);
      expect(await store.consentEvents.history(wentOut.id)).toEqual([]);
      for (const kept of [old, confirmed, recent, waiting])
        expect(await store.consentEvents.history(kept.id)).not.toEqual([]);
      expect(await store.confirmations.deleteUnconfirmed(cutoff)).toBe(0);
    });

    /** The confirmation email sent, the person confirmed, then their email turned off: their record after. */
    async function confirmedThenEmailOff(store: Db, person: Subscriber): Promise<Subscriber | undefined> {
      for (const job of await claim(store)) await sent(store, job.id);
      await store.subscribers.confirm(person.id);
      await store.subscribers.updatePreferences(person.id, { email: false }, 'one_click_unsubscribe');
      return store.subscribers.subscriber(person.id);
    }

    it('a confirmation email stamped the same instant as the "no" went before it: the come-back is still asked', async () => {
      // The store's clock stands still (an hour ahead, later than anything the database stamps itself).
      const frozen = new Date(machineClock.ms() + HOUR_MS);
      const { store } = await open({ clock: { now: () => frozen, advance: () => undefined } });
      const person = await signUp(store, { email: 'same-instant@example.com' });
      const off = await confirmedThenEmailOff(store, person);
      expect(off?.emailOptOutAt).toBe(frozen.toISOString());
      await signUp(store, { email: 'same-instant@example.com' });
      expect((await claim(store)).map((job) => job.id)).toEqual([person.id]);
    });

    it('a repeat sign-up after turning email off keeps it off, and asks the address once to come back', async () => {
      const { store } = await open();
      const person = await signUp(store, { email: 'off@example.com' });
      const off = await confirmedThenEmailOff(store, person);
      await signUp(store, { email: 'off@example.com' });
      const after = await store.subscribers.subscriber(person.id);
      expect(after).toMatchObject({ emailOptOutAt: off?.emailOptOutAt, confirmedAt: off?.confirmedAt });
      expect(after?.emailOptOutAt).not.toBeNull();
      expect((await claim(store)).map((job) => job.id)).toEqual([person.id]);
    });

    it('a STOP holds over a later sign-up with the number; only START lifts it', async () => {
      const { store } = await open();
      const hash = 'phone-hash:+15557654321';
      await store.optOuts.stopTexts(['+15557654321'], {
        kind: 'phone',
        hash,
        reason: 'sms_stop',
        source: 'sms_reply',
      });
      const later = await signUp(store, { email: 'someone-else@example.com', phone: '+15557654321' });
      expect(await isSuppressed(store, 'phone', hash, later.lastSeenAt)).toBe(true);
      await store.optOuts.startTexts(['+15557654321'], hash, 'sms_reply');
      expect(await isSuppressed(store, 'phone', hash, later.lastSeenAt)).toBe(false);
      // A leaving on the number holds over any later sign-up with it too, until START from it.
      await store.optOuts.leave(later.id, 'preferences_page', [
        { kind: 'phone', hash, reason: 'left', source: 'preferences_page' },
      ]);
      const back = await signUp(store, { email: 'a-third@example.com', phone: '+15557654321' });
      expect(await isSuppressed(store, 'phone', hash, back.lastSeenAt)).toBe(true);
      await store.optOuts.startTexts(['+15557654321'], hash, 'sms_reply');
      expect(await isSuppressed(store, 'phone', hash, back.lastSeenAt)).toBe(false);
    });

    it('exports confirmedAt, emailOptOutAt, smsOptOutAt and leftAt', async () => {
      const { store } = await open();
      const fresh = await signUp(store, { email: 'fresh@example.com' });
      const kept = await signUp(store, { email: 'kept@example.com' });
      const gone = await signUp(store, { email: 'gone@example.com' });
      await store.subscribers.confirm(kept.id);
      await store.subscribers.updatePreferences(kept.id, { sms: false }, 'preferences_page');
      await store.optOuts.leave(gone.id, 'preferences_page', []);
      const byEmail = new Map((await all(store)).map((record) => [record.email, record]));
      const stored = async (id: string) => {
        const subscriber = await store.subscribers.subscriber(id);
        if (!subscriber) throw new Error('missing');
        const { confirmedAt, emailOptOutAt, smsOptOutAt, leftAt } = subscriber;
        return { confirmedAt, emailOptOutAt, smsOptOutAt, leftAt };
      };
      expect(byEmail.get('fresh@example.com')).toMatchObject({
        confirmedAt: null,
        emailOptOutAt: null,
        smsOptOutAt: null,
        leftAt: null,
      });
      expect(await stored(fresh.id)).toEqual({
        confirmedAt: null,
        emailOptOutAt: null,
        smsOptOutAt: null,
        leftAt: null,
      });
      const keptNow = await stored(kept.id);
      expect(keptNow.confirmedAt).not.toBeNull();
      expect(keptNow.smsOptOutAt).not.toBeNull();
      expect(byEmail.get('kept@example.com')).toMatchObject(keptNow);
      const goneNow = await stored(gone.id);
      expect(goneNow.leftAt).not.toBeNull();
      expect(byEmail.get('gone@example.com')).toMatchObject(goneNow);
    });
  });
}

const postgres = storeEngines.find((engine) => engine.name === 'postgres');

describe.skipIf(!postgres?.available)(
  postgres?.available
    ? 'the consent repositories on postgres, several instances'
    : 'the consent repositories on postgres, several instances (skipped: set TEST_DATABASE_URL to run it)',
  () => {
    it('never gives two instances the same confirmation to send', async () => {
      if (!postgres) throw new Error('no PostgreSQL engine');
      const database = await postgres.database();
      const stores = await Promise.all([1, 2].map(() => openDatabase(database, { confirmSignups: true })));
      onTestFinished(() => Promise.all(stores.map((store) => store.close())).then(() => undefined));
      const [first] = stores;
      if (!first) throw new Error('two stores expected');
      await Promise.all(
        Array.from({ length: 50 }, (_, index) => first.signups.add({ ...rosa, email: `p${index}@example.com` })),
      );
      await pause(3);

      // Each instance runs two senders, each claiming batches of 10 until nothing is due.
      const sender = async (store: Db) => {
        const taken: string[] = [];
        for (;;) {
          const jobs = await store.outbox.claim({ kind: 'confirmation', leaseMs: LEASE_MS }, 'a sender', 10);
          if (jobs.length === 0) return taken;
          taken.push(...jobs.map((job) => job.signupId));
        }
      };
      const claimed = (await Promise.all(stores.flatMap((store) => [sender(store), sender(store)]))).flat();
      expect(claimed).toHaveLength(50);
      expect(new Set(claimed).size).toBe(50);
      const ids = (await all(first)).map((record) => record.id);
      expect(new Set(claimed)).toEqual(new Set(ids));
    });
  },
);
