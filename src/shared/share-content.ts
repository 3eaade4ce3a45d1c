// "Tell a family member": the words, and the links a person passes on (their own ?ref= link, as a text
// message, an email or the phone's share sheet). With the rest of the page's words (docs/content.md),
// here because the success view, the preferences page and the confirmation email all say them.
import { LANGUAGE_HOMES, type Language, type Translated } from './languages.js';
import { REFERRAL_PARAMETER } from './referral.js';

const english = {
  prompt: 'Know someone who should hear about this?',
  button: 'Tell a family member',
  panelLabel: 'Ways to pass it on',
  sms: 'Send a text message',
  email: 'Send an email',
  copy: 'Copy the link',
  copied: 'Copied',
  copyFailed: 'Could not copy. Press and hold the link to copy it.',
  /** Before the link itself, where it is shown (the email, and the page without script). */
  yourLink: 'Your link to pass on:',
  /** What the phone's share sheet, the text message and the email carry, before the link. */
  title: 'ScamSavvy is coming',
  text: 'I joined the list to hear when ScamSavvy is ready. It is a phone app that helps older people spot scams by practising with safe, pretend ones. Have a look:',
  emailSubject: 'A phone app that helps spot scams',
};

export type ShareWords = typeof english;

/** In each language: the page, the preferences page and the confirmation email say the person's own. */
export const shareWordsIn: Translated<ShareWords> = {
  en: english,
  es: {
    prompt: '¿Conoce a alguien a quien le vendría bien saberlo?',
    button: 'Avisar a un familiar',
    panelLabel: 'Formas de pasarlo',
    sms: 'Enviar un mensaje de texto',
    email: 'Enviar un correo',
    copy: 'Copiar el enlace',
    copied: 'Copiado',
    copyFailed: 'No se pudo copiar. Mantenga el dedo sobre el enlace para copiarlo.',
    yourLink: 'Su enlace para pasar:',
    title: 'Muy pronto llega ScamSavvy',
    text: 'Me apunté a la lista para saber cuándo sale ScamSavvy. Es una aplicación para el teléfono que ayuda a las personas mayores a descubrir estafas, practicando con estafas de mentira, sin riesgo. Mírela:',
    emailSubject: 'Una aplicación que ayuda a descubrir estafas',
  },
};

/** The link a person passes on: the page in their language, with their code, or without one. */
export function shareUrl(siteUrl: string, code: string | null | undefined, language: Language = 'en'): string {
  const base = `${siteUrl.replace(/\/+$/, '')}${LANGUAGE_HOMES[language]}`;
  return code ? `${base}?${REFERRAL_PARAMETER}=${encodeURIComponent(code)}` : base;
}

/** The text message and the email, ready to open in the phone's own apps (no server sends them). */
export function shareLinks(url: string, words: ShareWords): { sms: string; email: string } {
  const body = `${words.text} ${url}`;
  return {
    // "?&body=": the form both iPhones and Android phones read.
    sms: `sms:?&body=${encodeURIComponent(body)}`,
    email: `mailto:?subject=${encodeURIComponent(words.emailSubject)}&body=${encodeURIComponent(body)}`,
  };
}
