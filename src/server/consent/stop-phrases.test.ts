import { describe, expect, it } from 'vitest';
import { readsAsStop, sentencesOf } from './stop-phrases.js';

// Issue 54, path 10: a "no" in the person's own words turns texts off (47 CFR 64.1200(a)(10)).
describe('readsAsStop', () => {
  it.each([
    'Please stop texting me',
    'please stop texting me.',
    'STOP TEXTING ME!!!',
    'Stop. Who is this?',
    'stop sending me these messages',
    'Quit messaging me',
    "Don't text me",
    'don’t text me again',
    'Do not contact me',
    'Never message me again please',
    'No more texts',
    'no more messages thanks',
    'Take me off your list',
    'Remove my number from your list',
    'remove me',
    'Please unsubscribe me',
    'How do I opt out?',
    'leave me alone',
    'Wrong number',
    'Not interested',
    'I never signed up for this',
    "I don't want these texts",
    'Cancel please',
    'stop it',
    'End these texts',
    'Hi, this is Margaret. Please stop sending me messages. Thank you',
  ])('reads "%s" as a stop, in English', (body) => expect(readsAsStop(body)).toBe('en'));

  it.each([
    'Ya no me mande mensajes',
    'ya no me mandes mensajes',
    'No me escriba más',
    'no me escriban mas',
    'No nos contacten',
    'No manden más mensajes',
    'Deje de mandarme mensajes',
    'Dejen de escribirme por favor',
    'No quiero recibir más mensajes',
    'No más mensajes',
    'Sáqueme de su lista',
    'Bórrenme',
    'Quítenme de la lista por favor',
    'Elimine mi número',
    'Quiero darme de baja',
    'Déjeme en paz',
    'Número equivocado',
    'No me interesa',
    'Basta',
    'Para por favor',
  ])('reads "%s" as a stop, in Spanish', (body) => expect(readsAsStop(body)).toBe('es'));

  it.each([
    "Please don't stop, I love these",
    'Never stop!',
    'Thank you, this is helpful',
    'When does the app launch?',
    'I will stop by the library tomorrow',
    'Can I bring my sister?',
    'Gracias por la información',
    '¿Cuándo sale la aplicación?',
    'No enviaron mi código',
    'ok',
    '',
  ])('reads "%s" as no stop', (body) => expect(readsAsStop(body)).toBeUndefined());

  it('reads a long reply as far as Twilio sends one, in time in proportion to its length', () => {
    expect(readsAsStop(`${'Hello there. '.repeat(100)}Please stop texting me.`)).toBe('en');
    expect(readsAsStop(`${'a '.repeat(5000)}stop texting me`)).toBeUndefined();
  });

  it('splits a reply into plain sentences', () => {
    expect(sentencesOf('¡Hola! NO MÁS—mensajes, por favor.\nGracias')).toEqual([
      'hola',
      'no mas mensajes',
      'por favor',
      'gracias',
    ]);
  });
});
