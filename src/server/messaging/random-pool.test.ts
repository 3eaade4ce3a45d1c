import { describe, expect, it } from 'vitest';
import { randomPart } from './random-pool.js';

describe('randomPart', () => {
  it('hands out each byte once: across many draws and a refill, no two draws are the same, and earlier draws do not change', () => {
    const first = randomPart(16);
    const copy = Buffer.from(first);
    const seen = new Set<string>([first.toString('hex')]);
    // 2,000 draws of 16 bytes: several refills of the 4 kB pool.
    for (let index = 0; index < 2_000; index += 1) seen.add(randomPart(16).toString('hex'));
    expect(seen.size).toBe(2_001);
    expect(first.equals(copy)).toBe(true);
  });

  it('gives the length asked for, also past the pool size', () => {
    expect(randomPart(12)).toHaveLength(12);
    expect(randomPart(5_000)).toHaveLength(5_000);
  });
});
