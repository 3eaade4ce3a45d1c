// The suppression list's one rule, in TypeScript only: blockingReason over the folded entries says
// what the SQL query it replaced said (the newest entry made after the person's latest sign-up, or
// any STOP), for every list of entries fast-check makes up. The folding is the same code whatever
// the engine, and the repository contract tests read the same entries from SQLite and PostgreSQL.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entriesFrom } from '../db/suppressions-repository.js';
import type { SuppressionReason } from '../db/suppressions.table.js';
import { blockingReason } from './contact-rule.js';

const REASONS: SuppressionReason[] = ['left', 'deleted', 'sms_stop', 'undeliverable', 'bounced', 'complained'];
const time = (second: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, second)).toISOString();

/** What `suppressionReason` asked of the database: the newest row after the sign-up, or any STOP. */
function asTheQueryDid(rows: { reason: SuppressionReason; at: string }[], consentedAt: string) {
  return rows
    .filter((row) => row.at > consentedAt || row.reason === 'sms_stop')
    .sort((a, b) => b.at.localeCompare(a.at))[0]?.reason;
}

describe('blockingReason: the rule the pages read', () => {
  it('says what the query it replaced said, for any rows and any sign-up time', () => {
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
          expect(blockingReason(entry, consentedAt)).toBe(asTheQueryDid(rows, consentedAt));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('holds a STOP over a later sign-up, and lets a later sign-up lift a leaving', () => {
    const rows = [
      { hash: 'h', reason: 'left' as const, at: time(10) },
      { hash: 'h', reason: 'sms_stop' as const, at: time(5) },
    ];
    expect(blockingReason(entriesFrom(rows).get('h'), time(20))).toBe('sms_stop');
    expect(blockingReason(entriesFrom(rows.slice(0, 1)).get('h'), time(20))).toBeUndefined();
    expect(blockingReason(entriesFrom(rows.slice(0, 1)).get('h'), time(0))).toBe('left');
    expect(blockingReason(undefined, time(0))).toBeUndefined();
  });
});
