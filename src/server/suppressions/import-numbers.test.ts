// Issue 54, "every number is one number": a provider's list of numbers, read in any form a provider
// or a spreadsheet writes them, becomes the E.164 number every other path hashes.
import { describe, expect, it } from 'vitest';
import { readSuppressionFile } from './import-list.js';
import { DAYTIME } from '../test/clock.js';

const now = new Date(DAYTIME);
const numbersOf = (text: string, country?: 'US' | 'GB') =>
  readSuppressionFile(text, { reason: 'unsubscribed', now, ...(country ? { country } : {}) }).map((row) => row.address);

describe("a suppression list's numbers", () => {
  it('become E.164: with their country code, "00" for "+", and national forms in SMS_DEFAULT_COUNTRY', () => {
    expect(
      numbersOf('phone\n+1 (212) 555-0142\n(212) 555-0142\n212.555.0142\n0044 7911 123456\n+44 7400 123456\n'),
    ).toEqual(['+12125550142', '+12125550142', '+12125550142', '+447911123456', '+447400123456']);
    expect(numbersOf('phone\n07400 123456\n', 'GB')).toEqual(['+447400123456']);
  });
});
