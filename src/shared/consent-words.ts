// The sign-up form's consent words, in each language, with their version (issue 56): the form shows
// them, and the server keeps them (consent_texts) so the proof of a sign-up's consent holds the very
// words the person agreed to. Change the version whenever the words change (consent-words.test.ts
// holds each version's words, so a change without a new version fails).
import type { Translated } from './languages.js';

const product = 'ScamSavvy';

/** Each sign-up stores the version it agreed to; its language says which words. */
export const SIGNUP_CONSENT_VERSION = '2026-11-29';

export interface SignupConsentWords {
  /** The spec's consent line, beside the submit button (decision 059). */
  consent: string;
  /** What US carriers also ask of a texting sign-up: how often, cost, STOP and HELP; just above it. */
  consentDetails: string;
}

export const signupConsentWords: Translated<SignupConsentWords> = {
  en: {
    consent: `By signing up, you agree to receive SMS and email updates from ${product} about our release and beta announcements only. No spam. Unsubscribe anytime.`,
    consentDetails:
      'We will send a few messages, only about the launch and beta. Message and data rates may apply. Reply STOP to stop texts, HELP for help.',
  },
  es: {
    consent: `Al apuntarse, acepta recibir mensajes de texto y correos de ${product} solo sobre la salida de la aplicación y la versión de prueba. Nada de publicidad. Puede darse de baja cuando quiera.`,
    consentDetails:
      'Le enviaremos pocos mensajes, solo sobre la salida y la versión de prueba. Su compañía puede cobrarle los mensajes y los datos. Responda ALTO para no recibir más mensajes, o AYUDA para pedir ayuda.',
  },
};
