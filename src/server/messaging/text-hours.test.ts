import { describe, expect, it } from 'vitest';
import { parseSendHours, type Hours } from '../messaging-config.js';
import { phoneFacts } from './phone.js';
import { allowedAt, FEDERAL_RULE, nextAllowed, placeOf, STATE_RULES, TextTiming } from './text-hours.js';

const hours = (text: string): Hours => parseSendHours(text)!;
const OWNER = hours('09:00-20:00');
const ALL_DAY = hours('00:00-24:00');
const place = (phone: string) => placeOf(phoneFacts(phone));
/** 2026-06-10 is a Wednesday, 2026-06-14 a Sunday; New York is UTC-4 then, Chicago -5, Los Angeles -7, Honolulu -10. */
const utc = (text: string) => new Date(`${text}Z`);

describe('where a number may be', () => {
  it('reads the area code: its state and every zone its numbers may be in; the country for others', () => {
    expect(place('(212) 555-0123')).toEqual({ region: 'NY', zones: ['America/New_York'] });
    expect(place('+1 850 555 0123')).toEqual({ region: 'FL', zones: ['America/Chicago', 'America/New_York'] });
    expect(place('808-555-0123')).toEqual({ region: 'HI', zones: ['Pacific/Honolulu'] });
    expect(place('+44 20 7946 0018').zones).toContain('Europe/London');
    // Toll-free or unassigned: anywhere in the US, so the hours that hold in all of it.
    expect(place('+1 800 555 0100').zones).toEqual(expect.arrayContaining(['America/New_York', 'Pacific/Honolulu']));
    expect(place('+1 555 000 0000').region).toBe('');
  });

  it('parses the forms people type, with SMS_DEFAULT_COUNTRY for numbers without their country code', () => {
    for (const typed of ['(212) 555-0123', '212.555.0123', '212-555-0123', '1 212 555 0123', '+1 (212) 555-0123'])
      expect(phoneFacts(typed).e164, typed).toBe('+12125550123');
    expect(phoneFacts('020 7946 0018', 'GB').e164).toBe('+442079460018');
    expect(phoneFacts('07911 123456', 'GB')).toMatchObject({ e164: '+447911123456', textable: true });
  });

  it('marks numbers that cannot take texts: impossible lengths and the kinds the plan says are not mobile', () => {
    expect(phoneFacts('+1 800 555 0100')).toMatchObject({ textable: false, why: expect.stringMatching(/toll-free/) });
    expect(phoneFacts('020 7946 0018', 'GB')).toMatchObject({
      textable: false,
      why: expect.stringMatching(/landline/),
    });
    expect(phoneFacts('555-0100')).toMatchObject({ textable: false, why: expect.stringMatching(/wrong length/) });
    // US numbers may be mobile whatever their range; a range newer than the metadata is tried.
    expect(phoneFacts('(212) 555-0123').textable).toBe(true);
    expect(phoneFacts('+1 555 000 0004').textable).toBe(true);
  });
});

describe('when a text may go', () => {
  it('never before the owner’s hours or the rules at the recipient’s location: 8 a.m. in New York is 5 a.m. in California', () => {
    const newYork = place('212-555-0123');
    const california = place('415-555-0123');
    const eightInNewYork = utc('2026-06-10T12:00:00');
    expect(allowedAt(newYork, hours('08:00-21:00'), eightInNewYork)).toBe(true);
    expect(allowedAt(california, hours('08:00-21:00'), eightInNewYork)).toBe(false);
    expect(nextAllowed(california, OWNER, eightInNewYork)).toEqual(utc('2026-06-10T16:00:00'));
    // 8 p.m. in Los Angeles is 11 p.m. in New York: New York waits for the next morning.
    expect(nextAllowed(newYork, OWNER, utc('2026-06-11T03:00:00'))).toEqual(utc('2026-06-11T13:00:00'));
    expect(nextAllowed(place('808-555-0123'), OWNER, utc('2026-06-10T13:00:00'))).toEqual(utc('2026-06-10T19:00:00'));
  });

  it('holds in every zone an area code may be in: the Florida panhandle is Central and Eastern', () => {
    const panhandle = place('+1 850 555 0123');
    // 9 a.m. Eastern is 8 a.m. Central: it waits for 9 a.m. Central, and stops at 8 p.m. Eastern.
    expect(nextAllowed(panhandle, OWNER, utc('2026-06-10T13:00:00'))).toEqual(utc('2026-06-10T14:00:00'));
    expect(allowedAt(panhandle, OWNER, utc('2026-06-10T23:59:00'))).toBe(true);
    expect(allowedAt(panhandle, OWNER, utc('2026-06-11T00:00:00'))).toBe(false);
  });

  it('SMS_SEND_HOURS only narrows the rules, to the minute', () => {
    const newYork = place('212-555-0123');
    expect(allowedAt(newYork, ALL_DAY, utc('2026-06-10T11:59:00'))).toBe(false); // 7:59 a.m.: the federal rule
    expect(allowedAt(newYork, ALL_DAY, utc('2026-06-11T00:59:00'))).toBe(true); // 8:59 p.m.
    expect(allowedAt(newYork, ALL_DAY, utc('2026-06-11T01:00:00'))).toBe(false); // 9 p.m.
    expect(nextAllowed(newYork, hours('09:07-16:00'), utc('2026-06-10T12:00:00'))).toEqual(utc('2026-06-10T13:07:00'));
    expect(allowedAt(newYork, hours('09:07-16:00'), utc('2026-06-10T20:00:00'))).toBe(false);
  });

  it('says so when no hour is daytime in every zone a number may be in, rather than waiting for ever', () => {
    expect(
      nextAllowed({ region: '', zones: ['Asia/Tokyo', 'America/New_York'] }, OWNER, utc('2026-06-10T12:00:00')),
    ).toBe(undefined);
  });

  // One row per state named: an area code there, an hour its rule allows and one it does not (with the
  // owner's hours opened wide, so the state's rule is what decides), and its cap.
  const rows: [state: string, phone: string, allowed: string, refused: string, cap?: number][] = [
    ['FL', '305-555-0123', '2026-06-10T23:59:00', '2026-06-11T00:00:00', 3], // 7:59 p.m. / 8 p.m. Eastern
    ['OK', '405-555-0123', '2026-06-10T13:00:00', '2026-06-11T01:00:00', 3], // 8 a.m. / 8 p.m. Central
    ['MD', '410-555-0123', '2026-06-10T12:00:00', '2026-06-11T00:00:00', 3],
    ['NJ', '201-555-0123', '2026-06-10T12:00:00', '2026-06-11T00:30:00', 3],
    ['CT', '203-555-0123', '2026-06-10T13:00:00', '2026-06-10T12:30:00'], // 9 a.m. / 8:30 a.m.
    ['TX', '214-555-0123', '2026-06-14T17:00:00', '2026-06-14T16:59:00'], // Sunday noon / 11:59 a.m. Central
    ['RI', '401-555-0123', '2026-06-10T21:59:00', '2026-06-14T15:00:00'], // 5:59 p.m. Wednesday / Sunday 11 a.m.
    ['KY', '502-555-0123', '2026-06-10T14:00:00', '2026-06-10T13:59:00'], // 10 a.m. / 9:59 a.m. Eastern
  ];
  it.each(rows)('%s: its rule decides at the recipient’s location (%s)', (state, phone, allowed, refused, cap) => {
    const where = place(phone);
    expect(where.region).toBe(state);
    expect(STATE_RULES[state]?.source).toBeTruthy();
    expect(allowedAt(where, ALL_DAY, utc(allowed))).toBe(true);
    expect(allowedAt(where, ALL_DAY, utc(refused))).toBe(false);
    expect(
      new TextTiming({ sendHours: ALL_DAY, defaultCountry: 'US', textCountries: ['US'], clockShiftMs: 0 }).numberTiming(
        phone,
      ).capPer24Hours,
    ).toBe(cap);
  });

  it('Texas waits for Sunday noon; Rhode Island never texts on Sunday', () => {
    expect(nextAllowed(place('214-555-0123'), OWNER, utc('2026-06-14T15:00:00'))).toEqual(utc('2026-06-14T17:00:00'));
    expect(nextAllowed(place('401-555-0123'), OWNER, utc('2026-06-14T15:00:00'))).toEqual(utc('2026-06-15T13:00:00'));
    expect(FEDERAL_RULE.source).toMatch(/64\.1200/);
  });

  it('TEST_TEXT_CLOCK moves only the rules’ “now”: the answer is on the real clock', () => {
    const real = utc('2026-11-28T09:00:00'); // any instant: the product's clock is handed in
    const target = utc('2026-06-10T12:55:00'); // 8:55 a.m. in New York
    const timing = new TextTiming({
      sendHours: OWNER,
      defaultCountry: 'US',
      textCountries: ['US'],
      clockShiftMs: target.getTime() - real.getTime(),
    });
    const opens = timing.opensAt(place('212-555-0123'), real);
    expect(opens!.getTime() - real.getTime()).toBe(5 * 60_000);
    expect(timing.opensAt(place('212-555-0123'), new Date(real.getTime() + 6 * 60_000))!.getTime()).toBe(
      real.getTime() + 6 * 60_000,
    );
  });
});

describe('the one check every text passes', () => {
  const timing = new TextTiming({ sendHours: OWNER, defaultCountry: 'US', textCountries: ['US'], clockShiftMs: 0 });
  const nineInNewYork = utc('2026-06-10T13:00:00');

  it('goes to a number that can take texts, in a country we text, at an hour it may', () => {
    expect(timing.check('212-555-0123', nineInNewYork)).toMatchObject({
      may: 'go',
      number: { facts: { e164: '+12125550123' } },
    });
  });

  it('never to a number that cannot take texts, nor to one whose zones share no daytime hour', () => {
    expect(timing.check('+1 800 555 0100', nineInNewYork)).toMatchObject({
      may: 'never',
      cannotTakeTexts: true,
      why: expect.stringMatching(/toll-free/),
    });
    const narrow = new TextTiming({
      sendHours: hours('09:00-10:00'),
      defaultCountry: 'US',
      textCountries: ['US'],
      clockShiftMs: 0,
    });
    // The Florida panhandle is Central and Eastern: no one hour of 9 to 10 holds in both.
    expect(narrow.check('850-555-0123', nineInNewYork)).toMatchObject({ may: 'never', cannotTakeTexts: false });
  });

  it('not abroad (SMS_COUNTRIES), whatever the hour; later outside the hours, unless the hours are not asked', () => {
    expect(timing.check('+33 6 12 34 56 78', nineInNewYork)).toEqual({ may: 'not here', country: 'FR' });
    // 5 a.m. in Los Angeles: it waits for 9 there.
    expect(timing.check('415-555-0123', nineInNewYork)).toEqual({ may: 'later', until: utc('2026-06-10T16:00:00') });
    // A text that answers what the person did this moment goes at once.
    expect(timing.check('415-555-0123', nineInNewYork, { hours: false })).toMatchObject({ may: 'go' });
  });
});
