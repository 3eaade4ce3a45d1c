// The shapes a stranger can mail to the bounce address to make reading slow (issue 42), at 1 MB each:
// read in time in proportion to their size (the patterns never start again from every line, every
// character), and a report naming thousands of recipients read for the first MOST_RECIPIENTS.
// The timings are bench/feedback.ts's to print; here a quadratic reader would take hours, not the
// suite's minute (decision 034: tests never time the machine).
import { describe, expect, it } from 'vitest';
import { withoutAddresses } from '../messaging/log-safe.js';
import { readMailReport } from './parse-mail-report.js';
import { MOST_RECIPIENTS, validDate } from './read-bounce.js';
import { HOSTILE_SHAPES, MB } from './test-fixtures/hostile-shapes.js';

describe('what a stranger mails to the bounce address', () => {
  it(
    'is read in time in proportion to its size, whatever its shape, and names at most MOST_RECIPIENTS',
    { timeout: 60_000 },
    async () => {
      for (const [shape, raw] of HOSTILE_SHAPES) {
        const read = await readMailReport(raw);
        if (read.reading?.type === 'bounce')
          expect(read.reading.recipients.length, shape).toBeLessThanOrEqual(MOST_RECIPIENTS);
      }
      const many = await readMailReport(HOSTILE_SHAPES[3]![1]);
      expect(many.reading?.type).toBe('bounce');
      expect(many.reading?.type === 'bounce' && many.reading.recipients).toHaveLength(MOST_RECIPIENTS);
      expect(many.reading?.type === 'bounce' && many.reading.recipients[0]?.diagnostic).toMatch(
        /^550 5\.1\.1 no such user here/,
      );
    },
  );

  it('logs without addresses, in one pass over a long word', { timeout: 60_000 }, () => {
    expect(withoutAddresses(`${'x'.repeat(MB)} rosa@example.com`)).toMatch(/x \[redacted\]$/);
  });

  it('takes a date only within a sane window: never one PostgreSQL cannot store', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(validDate('+012345-01-01T00:00:00Z', now)).toBeUndefined();
    expect(validDate('1970-01-01T00:00:00Z', now)).toBeUndefined();
    expect(validDate('2026-11-29T10:00:00Z', now)).toBeUndefined();
    expect(validDate('not a date', now)).toBeUndefined();
    expect(validDate('2026-11-27T09:00:00Z', now)?.toISOString()).toBe('2026-11-27T09:00:00.000Z');
  });
});
