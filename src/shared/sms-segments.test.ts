import { describe, expect, it } from 'vitest';
import { outsideGsm, smsSegments } from './sms-segments.js';

describe('SMS segments', () => {
  it('fits 160 GSM characters in one segment, and splits at 153 after that', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', characters: 160, segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', characters: 161, segments: 2 });
    expect(smsSegments('a'.repeat(306)).segments).toBe(2);
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts the GSM extension characters twice', () => {
    expect(smsSegments('€[]').characters).toBe(6);
    expect(smsSegments(`${'a'.repeat(159)}€`)).toEqual({ encoding: 'GSM-7', characters: 161, segments: 2 });
  });

  it('falls back to UCS-2 for a character outside the GSM alphabet: 70, then 67', () => {
    expect(smsSegments(`${'a'.repeat(69)}’`)).toEqual({ encoding: 'UCS-2', characters: 70, segments: 1 });
    expect(smsSegments(`${'a'.repeat(70)}’`)).toEqual({ encoding: 'UCS-2', characters: 71, segments: 2 });
    expect(smsSegments('a'.repeat(134) + '😀').segments).toBe(3);
  });

  it('counts nothing for an empty text', () => {
    expect(smsSegments('')).toEqual({ encoding: 'GSM-7', characters: 0, segments: 0 });
  });

  it('names each character outside the GSM alphabet once, and none for plain text or the extension characters', () => {
    expect(outsideGsm('1 O’Brien’s Street, Ciudad Juárez')).toEqual(['’', 'á']);
    expect(outsideGsm("1 O'Brien Street [rear] €5 ÄÖÑÜ")).toEqual([]);
  });
});
