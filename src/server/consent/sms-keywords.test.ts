import { describe, expect, it } from 'vitest';
import { smsKeyword } from './sms-keywords.js';

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
});
