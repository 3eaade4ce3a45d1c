import { describe, expect, it } from 'vitest';
import { describeSignupIssues, emailKey, signupInputSchema, signupMessages } from './signup-schema.js';

const valid = { name: 'Rosa Díaz', phone: '+15551234567', email: 'rosa@example.com', betaTesting: true };

function errorsFor(body: unknown) {
  const result = signupInputSchema.safeParse(body);
  if (result.success) return { fields: {}, other: [] };
  return describeSignupIssues(result.error);
}

describe('signup schema: name', () => {
  it('accepts a name of exactly 2 characters', () => {
    expect(signupInputSchema.parse({ ...valid, name: 'Al' }).name).toBe('Al');
  });
  it('says a missing or blank name is required', () => {
    expect(errorsFor({ ...valid, name: '' }).fields.name).toBe(signupMessages.nameRequired);
    expect(errorsFor({ ...valid, name: '   ' }).fields.name).toBe(signupMessages.nameRequired);
    const { name: _omitted, ...withoutName } = valid;
    expect(errorsFor(withoutName).fields.name).toBe(signupMessages.nameRequired);
  });
  it('rejects a 1-character name with the length message', () => {
    expect(errorsFor({ ...valid, name: 'A' }).fields.name).toBe(signupMessages.nameTooShort);
    expect(errorsFor({ ...valid, name: ' A ' }).fields.name).toBe(signupMessages.nameTooShort);
  });
  it('trims the name but keeps accents, CJK and emoji exactly', () => {
    expect(signupInputSchema.parse({ ...valid, name: '  Zoë 李 🌻  ' }).name).toBe('Zoë 李 🌻');
  });
  it('counts an emoji as one character', () => {
    expect(errorsFor({ ...valid, name: '🌻' }).fields.name).toBe(signupMessages.nameTooShort);
  });
  it('rejects names over 100 characters and control characters', () => {
    expect(errorsFor({ ...valid, name: 'a'.repeat(100) }).fields.name).toBeUndefined();
    expect(errorsFor({ ...valid, name: 'a'.repeat(101) }).fields.name).toBe(signupMessages.nameTooLong);
    expect(errorsFor({ ...valid, name: 'Ro\u0000sa' }).fields.name).toBe(signupMessages.controlCharacters);
  });
});

describe('signup schema: phone (spec section 5)', () => {
  it('accepts 16 digits and rejects 17', () => {
    expect(signupInputSchema.parse({ ...valid, phone: '1234567890123456' }).phone).toBe('1234567890123456');
    expect(errorsFor({ ...valid, phone: '12345678901234567' }).fields.phone).toBe(signupMessages.phoneInvalid);
    expect(signupInputSchema.parse({ ...valid, phone: '+1234567890123456' }).phone).toBe('+1234567890123456');
    expect(errorsFor({ ...valid, phone: '+12345678901234567' }).fields.phone).toBe(signupMessages.phoneInvalid);
  });
  it('rejects a phone number that starts with 0', () => {
    expect(errorsFor({ ...valid, phone: '05551234567' }).fields.phone).toBe(signupMessages.phoneInvalid);
    expect(errorsFor({ ...valid, phone: '+05551234567' }).fields.phone).toBe(signupMessages.phoneInvalid);
  });
  it('treats the plus sign as optional', () => {
    expect(signupInputSchema.parse({ ...valid, phone: '5551234567' }).phone).toBe('5551234567');
    expect(signupInputSchema.parse({ ...valid, phone: '+5551234567' }).phone).toBe('+5551234567');
  });
  it('accepts a single digit 1-9 (the rule sets no minimum)', () => {
    expect(signupInputSchema.parse({ ...valid, phone: '7' }).phone).toBe('7');
  });
  it('strips spaces, hyphens, dots and brackets before checking and storing', () => {
    expect(signupInputSchema.parse({ ...valid, phone: '+1 (555) 123-4567' }).phone).toBe('+15551234567');
    expect(signupInputSchema.parse({ ...valid, phone: '555.123.4567' }).phone).toBe('5551234567');
  });
  it('rejects letters, a plus in the middle, and a plus alone', () => {
    for (const phone of ['555-CALL-NOW', '1+5551234567', '+', '++15551234567', '( )']) {
      expect(errorsFor({ ...valid, phone }).fields.phone, phone).toBe(signupMessages.phoneInvalid);
    }
  });
  it('says a missing phone number is required', () => {
    expect(errorsFor({ ...valid, phone: '' }).fields.phone).toBe(signupMessages.phoneRequired);
    expect(errorsFor({ ...valid, phone: undefined }).fields.phone).toBe(signupMessages.phoneRequired);
  });
});

describe('signup schema: email', () => {
  it('says a missing email is required', () => {
    expect(errorsFor({ ...valid, email: ' ' }).fields.email).toBe(signupMessages.emailRequired);
  });
  it('rejects addresses that are not email addresses', () => {
    for (const email of [
      'rosa',
      'rosa@',
      '@example.com',
      'rosa@example',
      'ro sa@example.com',
      'rosa@@example.com',
      'rosa..d@example.com',
      '.rosa@example.com',
    ]) {
      expect(errorsFor({ ...valid, email }).fields.email, email).toBe(signupMessages.emailInvalid);
    }
  });
  it('accepts ordinary and international addresses, trimmed but otherwise exact', () => {
    expect(signupInputSchema.parse({ ...valid, email: ' Rosa.Diaz+news@Example.co.uk ' }).email).toBe(
      'Rosa.Diaz+news@Example.co.uk',
    );
    expect(signupInputSchema.parse({ ...valid, email: 'josé@correo.es' }).email).toBe('josé@correo.es');
    expect(signupInputSchema.parse({ ...valid, email: '用户@例子.广告' }).email).toBe('用户@例子.广告');
  });
  it('rejects an address over 254 characters', () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
    expect(long.length).toBe(254);
    expect(errorsFor({ ...valid, email: long }).fields.email).toBeUndefined();
    expect(errorsFor({ ...valid, email: `a${long}` }).fields.email).toBe(signupMessages.emailInvalid);
  });
});

describe('signup schema: betaTesting and the object', () => {
  it('defaults beta testing to false', () => {
    const { betaTesting: _omitted, ...withoutBeta } = valid;
    expect(signupInputSchema.parse(withoutBeta).betaTesting).toBe(false);
  });
  it('rejects a beta testing value that is not a boolean', () => {
    expect(errorsFor({ ...valid, betaTesting: 'yes' }).fields.betaTesting).toBe(signupMessages.betaTestingInvalid);
  });
  it('rejects unknown keys, naming them', () => {
    expect(errorsFor({ ...valid, id: 'mine', timestamp: 'x' }).other).toEqual(['Unknown fields: id, timestamp']);
  });
  it('rejects a body that is not an object', () => {
    expect(errorsFor([valid]).other).toEqual(['The sign-up must be a JSON object']);
    expect(errorsFor(null).other).toEqual(['The sign-up must be a JSON object']);
  });
  it('gives one message per field, the first problem', () => {
    const { fields } = errorsFor({ name: '', phone: '', email: '' });
    expect(fields).toEqual({
      name: signupMessages.nameRequired,
      phone: signupMessages.phoneRequired,
      email: signupMessages.emailRequired,
    });
  });
});

describe('signup schema: where the sign-up came from', () => {
  it('accepts attribution and a consent version, and keeps them', () => {
    const parsed = signupInputSchema.parse({
      ...valid,
      attribution: {
        utmSource: 'newsletter',
        utmCampaign: 'launch',
        referrer: 'https://news.example/',
        landingPath: '/',
        button: 'cta_section',
      },
      consentVersion: '2026-11-22',
    });
    expect(parsed.attribution).toEqual({
      utmSource: 'newsletter',
      utmCampaign: 'launch',
      referrer: 'https://news.example/',
      landingPath: '/',
      button: 'cta_section',
    });
    expect(parsed.consentVersion).toBe('2026-11-22');
  });
  it('tidies long or odd attribution instead of failing the sign-up', () => {
    const parsed = signupInputSchema.parse({
      ...valid,
      attribution: { utmSource: `  news\u0000letter${'x'.repeat(500)}`, referrer: 'r'.repeat(2000) },
    });
    expect(parsed.attribution?.utmSource).toBe(`newsletter${'x'.repeat(90)}`);
    expect(parsed.attribution?.referrer).toHaveLength(500);
  });
  it('refuses unknown attribution keys and buttons, and odd consent versions', () => {
    expect(errorsFor({ ...valid, attribution: { gclid: 'x' } }).other).toEqual(['Unknown field: attribution.gclid']);
    expect(errorsFor({ ...valid, attribution: { button: 'footer' } }).other[0]).toMatch(/^attribution.button/);
    expect(errorsFor({ ...valid, consentVersion: '<script>' }).other).toEqual([
      'consentVersion: Unknown consent version',
    ]);
  });
});

describe('emailKey', () => {
  it('compares emails case-insensitively after trimming, in any script', () => {
    expect(emailKey(' Rosa@Example.COM ')).toBe('rosa@example.com');
    expect(emailKey('JOSÉ@correo.es')).toBe(emailKey('josé@correo.es'));
    expect(emailKey('jose\u0301@correo.es')).toBe(emailKey('jos\u00e9@correo.es'));
  });
});
