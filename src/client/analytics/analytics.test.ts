import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyticsEventSchema } from '../../shared/analytics-events.js';
import { eventText } from './analytics';

describe('eventText', () => {
  it('keeps page names as the browser writes them', () => {
    expect(eventText('missing.html')).toBe('missing.html');
    expect(eventText('spring/offer%20now')).toBe('spring/offer%20now');
  });

  it('turns any path at all into a page name the server accepts, so a beacon is never refused', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.string({ unit: 'binary', maxLength: 300 }),
        (a, b) => {
          for (const value of [a, b]) {
            const parsed = analyticsEventSchema.safeParse({
              name: 'page_view',
              params: { page_name: eventText(value) },
            });
            expect(parsed.success).toBe(true);
          }
        },
      ),
    );
  });
});
