import { describe, expect, it } from 'vitest';
import { readSmsKeyword, smsKeyword } from './sms-keywords.js';

describe('smsKeyword', () => {
  it.each([
    'stop',
    'STOP',
    ' Stop ',
    'stopall',
    'UNSUBSCRIBE',
    'end',
    'quit',
    'cancel',
    'revoke',
    'opt out',
    'OPT-OUT',
    'optout',
    'Stop.',
    '  stop!  ',
  ])('reads "%s" as stop', (body) => expect(smsKeyword(body)).toBe('stop'));
  it.each(['start', 'START', ' unstop ', 'Unstop'])('reads "%s" as start', (body) =>
    expect(smsKeyword(body)).toBe('start'),
  );
  it.each(['yes', 'YES', 'Yes!', ' y ', 'Y', 'si', 'SI', 'Sí', 'SÍ', 'sí.'])('reads "%s" as yes', (body) =>
    expect(smsKeyword(body)).toBe('yes'),
  );
  it.each(['help', 'HELP', ' info '])('reads "%s" as help', (body) => expect(smsKeyword(body)).toBe('help'));
  it.each(['please stop texting', "don't stop", 'hello', '', 'stopp', 'help me', 'yes please', 'yess', 'sin'])(
    'reads "%s" as no keyword',
    (body) => expect(smsKeyword(body)).toBeUndefined(),
  );

  // Issue 45: Spanish stop words, with and without accents, in any capitals; AYUDA is HELP, SÍ/SI is YES.
  it.each([
    'ALTO',
    'alto',
    'Alto.',
    'PARAR',
    'Cancelar',
    'BAJA',
    'detener',
    'NO MÁS',
    'no más',
    'No mas',
    'NO MAS',
    '¡Alto!',
    'no-más',
  ])('reads "%s" as stop, in Spanish', (body) =>
    expect(readSmsKeyword(body)).toEqual({ keyword: 'stop', language: 'es' }),
  );
  it.each(['AYUDA', 'ayuda', 'Ayuda.'])('reads "%s" as help, in Spanish', (body) =>
    expect(readSmsKeyword(body)).toEqual({ keyword: 'help', language: 'es' }),
  );
  it.each(['SÍ', 'si', 'Sí!'])('reads "%s" as yes, in Spanish', (body) =>
    expect(readSmsKeyword(body)).toEqual({ keyword: 'yes', language: 'es' }),
  );
  it('reads the English words as English, and START in no language of its own', () => {
    expect(readSmsKeyword('STOP')).toEqual({ keyword: 'stop', language: 'en' });
    expect(readSmsKeyword('help')).toEqual({ keyword: 'help', language: 'en' });
    expect(readSmsKeyword('yes')).toEqual({ keyword: 'yes', language: 'en' });
    expect(readSmsKeyword('START')).toEqual({ keyword: 'start' });
  });
  it.each(['no', 'más', 'alto ahí', 'bajar', 'no mas por favor', `${'alto '.repeat(20)}`])(
    'reads "%s" as no keyword',
    (body) => expect(smsKeyword(body)).toBeUndefined(),
  );
});
