import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CountryCode } from 'libphonenumber-js/max';
import { distinctEnds, phoneFacts, signupE164, storedForms, toE164 } from './phone.js';

describe('toE164', () => {
  it('keeps a number typed with + and its country code', () => {
    expect(toE164('+447700900123')).toBe('+447700900123');
    expect(toE164('+15551234567')).toBe('+15551234567');
  });
  it('reads ten digits as a US number, and eleven starting with 1 as one with its country code', () => {
    expect(toE164('5551234567')).toBe('+15551234567');
    expect(toE164('15551234567')).toBe('+15551234567');
  });
});

describe('storedForms', () => {
  it('lists every way a US number may have been typed on the page', () => {
    expect(storedForms('+15551234567').sort()).toEqual(['+15551234567', '15551234567', '5551234567'].sort());
  });
  it('lists only the two forms of a number from elsewhere', () => {
    expect(storedForms('+447700900123').sort()).toEqual(['+447700900123', '447700900123'].sort());
  });
  it('round-trips: each stored form reads back as the same number', () => {
    for (const form of storedForms('+15551234567')) expect(toE164(form)).toBe('+15551234567');
  });
});

describe('distinctEnds', () => {
  it('gives four digits, or more when the last four are the same, up to seven', () => {
    expect(distinctEnds('+15559874567', '+15551231111')).toEqual({ next: '4567', current: '1111' });
    expect(distinctEnds('+15559874567', '+15551234567')).toEqual({ next: '74567', current: '34567' });
    expect(distinctEnds('+15551234567', '5551234567')).toEqual({ next: '1234567', current: '1234567' });
  });
});

describe('signupE164', () => {
  it('writes out the common shapes exactly as the numbering plan does, and leaves the rest to it (no North American area code starts with 0 or 1)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\+?1?[0-9]{9,12}$/),
        fc.constantFrom('US', 'CA', 'GB', 'PR'),
        (phone, country) => {
          const facts = phoneFacts(phone, country as CountryCode);
          // A North American area code never starts with 0 or 1: the plan's length check lets it by.
          const areaCode = !facts.e164.startsWith('+1') || /^\+1[2-9]\d{9}$/.test(facts.e164);
          expect(signupE164(phone, country as CountryCode)).toBe(facts.possible && areaCode ? facts.e164 : undefined);
        },
      ),
      { numRuns: 5000 },
    );
    expect(signupE164('2125550142')).toBe('+12125550142');
    expect(signupE164('02079460018', 'GB')).toBe('+442079460018');
    expect(signupE164('5550100')).toBeUndefined();
    expect(signupE164('+1 112 555 0142')).toBeUndefined();
  });
});
