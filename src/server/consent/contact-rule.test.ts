// The suppression list's one rule, in TypeScript only: blockingReason over the folded entries says
// what a plain reading of the rows says (the newest of: any leaving, deletion, STOP or complaint,
// whenever it came, for only the person lifts those; a bounce or "cannot be reached" after the
// person's latest sign-up), for every list of entries fast-check makes up. The folding is the same code whatever
// the engine, and the repository contract tests read the same entries from SQLite and PostgreSQL.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entriesFrom } from '../db/suppression-fold.js';
import type { SuppressionReason } from '../db/suppressions.table.js';
import { blockingReason, confirmationAsk } from './contact-rule.js';

const REASONS: SuppressionReason[] = ['left', 'deleted', 'sms_stop', 'undeliverable', 'bounced', 'complained'];
const time = (second: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, second)).toISOString();

/** The rows read plainly: the newest that holds (decision 041: no sign-up lifts a "no"). */
const PERSONS_OWN: SuppressionReason[] = ['left', 'deleted', 'sms_stop', 'complained'];
function asTheRowsSay(rows: { reason: SuppressionReason; at: string }[], consentedAt: string) {
  return rows
    .filter((row) => row.at > consentedAt || PERSONS_OWN.includes(row.reason))
    .sort((a, b) => b.at.localeCompare(a.at))[0]?.reason;
}

describe('blockingReason: the rule the pages read', () => {
  it('says what the rows say, for any rows and any sign-up time', () => {
    fc.assert(
      fc.property(
        // Distinct times: the query's order among rows of one second was never defined.
        fc
          .uniqueArray(fc.integer({ min: 0, max: 50 }), { maxLength: 8 })
          .chain((seconds) =>
            fc.tuple(
              fc.tuple(
                ...seconds.map((second) => fc.constantFrom(...REASONS).map((reason) => ({ reason, at: time(second) }))),
              ),
              fc.integer({ min: 0, max: 50 }),
            ),
          ),
        ([rows, signedUp]) => {
          const consentedAt = time(signedUp);
          const entry = entriesFrom(rows.map((row) => ({ hash: 'h', ...row }))).get('h');
          expect(blockingReason(entry, consentedAt)).toBe(asTheRowsSay(rows, consentedAt));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('holds a leaving, a deletion, a STOP and a complaint over a later sign-up; a later sign-up lifts a bounce', () => {
    const rows = [
      { hash: 'h', reason: 'left' as const, at: time(10) },
      { hash: 'h', reason: 'sms_stop' as const, at: time(5) },
    ];
    expect(blockingReason(entriesFrom(rows).get('h'), time(20))).toBe('left');
    expect(blockingReason(entriesFrom(rows.slice(1)).get('h'), time(20))).toBe('sms_stop');
    expect(blockingReason(entriesFrom([{ hash: 'h', reason: 'deleted', at: time(1) }]).get('h'), time(20))).toBe(
      'deleted',
    );
    const bounced = [
      { hash: 'h', reason: 'complained' as const, at: time(1) },
      { hash: 'h', reason: 'bounced' as const, at: time(3) },
    ];
    expect(blockingReason(entriesFrom(bounced).get('h'), time(2))).toBe('bounced');
    expect(blockingReason(entriesFrom(bounced).get('h'), time(20))).toBe('complained');
    expect(blockingReason(entriesFrom(bounced.slice(1)).get('h'), time(20))).toBeUndefined();
    expect(blockingReason(undefined, time(0))).toBeUndefined();
  });
});

describe('confirmationAsk: which email a waiting request sends', () => {
  const person = {
    lastSeenAt: time(5),
    confirmedAt: null,
    askedToConfirm: true,
    betaTesting: false,
    emailOptOutAt: null,
    smsOptOutAt: null,
    leftAt: null,
    confirmationSentAt: null,
    confirmationWaiting: true,
  };

  it('asks someone unconfirmed to confirm, and sends nothing to someone confirmed', () => {
    expect(confirmationAsk(person, undefined, true)).toEqual({ kind: 'confirm' });
    expect(confirmationAsk({ ...person, confirmedAt: time(6) }, undefined, true).kind).toBe('none');
  });

  it('sends someone who said no, and was signed up again since, one "come back?" and never a second', () => {
    const left = { ...person, leftAt: time(10), emailOptOutAt: time(10), lastSeenAt: time(20) };
    expect(confirmationAsk(left, undefined, true)).toEqual({ kind: 'come_back', because: 'left' });
    expect(confirmationAsk({ ...left, emailOptOutAt: time(3), leftAt: null }, undefined, true)).toEqual({
      kind: 'come_back',
      because: 'email_off',
    });
    expect(confirmationAsk({ ...left, confirmationSentAt: time(15) }, undefined, true).kind).toBe('none');
    // One sent before the "no" does not count: the "no" came after it.
    expect(confirmationAsk({ ...left, confirmationSentAt: time(8) }, undefined, true).kind).toBe('come_back');
  });

  it('sends nothing for a request the person\'s "no" withdrew, whoever they are now', () => {
    for (const facts of [
      { ...person, confirmationWaiting: false },
      { ...person, confirmationWaiting: false, leftAt: time(10), emailOptOutAt: time(10) },
      { ...person, confirmationWaiting: false, emailOptOutAt: time(10) },
    ])
      expect(confirmationAsk(facts, undefined, true)).toMatchObject({
        kind: 'none',
        reason: expect.stringMatching(/withdrew/),
      });
  });

  it('sends nothing without the key, or to an address that complained', () => {
    expect(confirmationAsk(person, undefined, false).kind).toBe('none');
    const complained = entriesFrom([{ hash: 'h', reason: 'complained', at: time(1) }]).get('h');
    expect(confirmationAsk(person, complained, true).kind).toBe('none');
  });
});
