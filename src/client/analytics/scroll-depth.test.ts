import { describe, expect, it } from 'vitest';
import { newlyReached, scrollPercentage } from './scroll-depth';

describe('scroll depth (spec sections 2 and 9)', () => {
  it('is a percentage of the scrollable height', () => {
    expect(scrollPercentage(0, 3000, 1000)).toBeCloseTo(0.05);
    expect(scrollPercentage(999, 3000, 1000)).toBe(50);
    expect(scrollPercentage(2000, 3000, 1000)).toBe(100);
  });
  it('is nothing for a page that does not scroll', () => {
    expect(scrollPercentage(0, 800, 800)).toBeNull();
  });
  it('fires only at multiples of 25 above 0, each once, in order', () => {
    const recorded = new Set<25 | 50 | 75 | 100>();
    expect(newlyReached(10, recorded)).toEqual([]);
    expect(newlyReached(60, recorded)).toEqual([25, 50]);
    recorded.add(25).add(50);
    expect(newlyReached(55, recorded)).toEqual([]);
    expect(newlyReached(100, recorded)).toEqual([75, 100]);
  });
});
