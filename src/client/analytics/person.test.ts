import { describe, expect, it } from 'vitest';
import { advancedMatching, personProperties, phoneDigits, splitName } from './person';

describe('splitName (spec section 3)', () => {
  it('splits at the first space', () => {
    expect(splitName('Mary Ann Smith')).toEqual({ firstName: 'Mary', lastName: 'Ann Smith' });
  });
  it('leaves the last name empty for a single name', () => {
    expect(splitName('Cher')).toEqual({ firstName: 'Cher', lastName: '' });
  });
  it('ignores spaces around and doubled inside the name', () => {
    expect(splitName('  José   García ')).toEqual({ firstName: 'José', lastName: 'García' });
  });
});

describe('advanced matching for the Meta Pixel (spec section 7)', () => {
  it('lowercases and trims the email, keeps only the phone digits and splits the name', () => {
    expect(
      advancedMatching({ name: 'Ann Lee-Jones', email: '  Ann.Lee@Example.COM ', phone: '+1 (555) 010-2233' }),
    ).toEqual({ em: 'ann.lee@example.com', ph: '15550102233', fn: 'ann', ln: 'lee-jones' });
  });
  it('sends no last name when there is none', () => {
    expect(advancedMatching({ name: 'Cher', email: 'c@d.co', phone: '5550102233' })).toEqual({
      em: 'c@d.co',
      ph: '5550102233',
      fn: 'cher',
    });
  });
  it('reduces a phone to digits only', () => {
    expect(phoneDigits('+44 20 7946 0958')).toBe('442079460958');
  });
});

describe('PostHog person properties', () => {
  it('carries the name, its parts, the email in lower case and the phone', () => {
    expect(personProperties({ name: 'Ann Lee', email: 'Ann@B.co', phone: '+15550102233' })).toEqual({
      name: 'Ann Lee',
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@b.co',
      phone: '+15550102233',
    });
  });
});
