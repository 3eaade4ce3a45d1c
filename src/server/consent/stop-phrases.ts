// A "no" in the person's own words: a reply that a reasonable person reads as "stop texting me", in
// English or Spanish, beyond the single keywords carriers know (sms-keywords.ts). Since 11 April 2025
// consent may be revoked "by any reasonable means" (47 CFR 64.1200(a)(10)); the FCC names stop, quit,
// end, revoke, opt out, cancel and unsubscribe, and any words a reasonable person reads as those.
// When in doubt this reads "stop": a wrong "stop" costs one START, a missed one texts someone who said no.
import type { Language } from '../../shared/languages.js';

/** The longest reply read (a long text is read as far as this; Twilio's own limit is 1,600 characters). */
export const LONGEST_REPLY = 1600;

/** Phrases that say "stop" in English: each is tried on each sentence of the reply. */
const ENGLISH: RegExp[] = [
  // "stop", "quit", "cancel" … with nothing but courtesy around them.
  /^(?:ok |okay |just |please |pls |plz )*(?:stop|stopall|stop all|quit|end|cancel|revoke|unsubscribe|unsub|opt out|optout|remove|remove me|enough)(?: (?:please|pls|plz|now|it|this|that|all|already|them|thanks|thank you|right now|immediately|asap))*$/,
  // "stop texting me", "please quit sending these messages", "end these texts".
  /\b(?:stop|quit|cease|end)\b(?: \w+){0,3} (?:text|texts|texting|txt|txts|txting|msg|msgs|messag\w*|send\w*|contact\w*|writ\w*|bother\w*|spam\w*|sms)\b/,
  // "don't text me", "do not contact me", "never message me again", "no longer send".
  /\b(?:don't|dont|do not|never|no longer) (?:ever )?(?:text|txt|message|msg|send|contact|write|bother|spam|sms)\b/,
  // "no more texts", "no further messages".
  /\bno (?:more|further) (?:text|texts|txt|txts|msgs|messages|sms|texting|messaging)\b/,
  // "take me off your list", "remove my number", "delete this number from your list".
  /\b(?:take|remove|delete|drop|erase|get) (?:me|us|my (?:number|name|phone|info|details)|this (?:number|phone))\b(?: (?:off|from|out of)\b)?/,
  /\b(?:unsubscribe|unsub|opt (?:me )?out|optout|opt-out)\b/,
  /\b(?:leave me alone|wrong number|not interested|never signed up|didn't sign up|did not sign up)\b/,
  /\bi (?:don't|dont|do not) want (?:these|your|this|any|any more|anymore|more|the) ?(?:texts?|messages?|msgs?|sms)\b/,
];

/** Phrases that say "stop" in Spanish, read without accents. */
const SPANISH: RegExp[] = [
  /^(?:por favor |ya )*(?:alto|para|parar|pare|paren|basta|ya basta|cancelar|cancela|cancele|detener|deten|detengan|baja|no mas|fuera)(?: (?:por favor|ya|gracias|ahora))*$/,
  // "ya no me mande mensajes", "no me escriba más", "no nos contacten".
  /\bno (?:me |nos )(?:mand|envi|escrib|contact|molest|text)\w*\b/,
  /\bno (?:mand|envi|escrib|text)\w* (?:mas|mensajes|textos)\b/,
  // "deje de mandarme mensajes", "dejen de escribir".
  /\b(?:deja|dejen|deje|dejar|dejes|para|pare|paren) de (?:mand|envi|escrib|text|molest|contact)\w*/,
  // "no quiero recibir más mensajes", "no deseo mensajes".
  /\bno (?:quiero|deseo|necesito) (?:\w+ ){0,3}(?:mensajes?|textos?|sms)\b/,
  /\bno mas (?:mensajes|textos|sms|por favor)\b/,
  // "sáqueme de su lista", "bórrenme", "quítenme de la lista", "elimine mi número".
  /\b(?:sac|saqu|borr|quit|elimin)\w*(?:me|nos)\b/,
  /\b(?:sacar|borrar|quitar|eliminar|elimine|elimina|borre|borra|quite|quita|saque|saca) (?:me |mi |nos |este |el )?(?:numero|telefono|nombre|de (?:la|su|tu|esta|sus|tus) lista)\b/,
  /\b(?:dar|darme|denme|deme|dame|doy|me doy) de baja\b/,
  /\b(?:dejame|dejeme|dejenme|dejennos) en paz\b/,
  /\b(?:numero equivocado|no me interesa|nunca me inscribi|no me inscribi|no me registre)\b/,
];

/** "Don't stop", "never quit": a stop word the person negated is not a stop. */
const NEGATED = /\b(?:don't|dont|do not|never|not|no) (?:ever )?(?:stop|quit|cancel|end|unsubscribe)\b/g;

/** A reply's sentences, as the phrases read them: lower case, no accents, no punctuation but the apostrophe. */
export function sentencesOf(body: string): string[] {
  return body
    .slice(0, LONGEST_REPLY)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .split(/[.!?;,:\n¡¿]+/)
    .map((sentence) =>
      sentence
        .replace(/[^\p{L}\p{N}'\s-]/gu, ' ')
        .replace(/(?<=\p{L})-(?=\p{L})/gu, ' ')
        .replace(/[\s-]+/g, ' ')
        .trim(),
    )
    .filter((sentence) => sentence !== '');
}

/**
 * The language of the "stop" this reply says in the person's own words ("Please stop texting me",
 * "Ya no me mande mensajes"), or undefined when it does not say one. English is read first, so a
 * mixed reply is answered in English.
 */
export function readsAsStop(body: string): Language | undefined {
  const sentences = sentencesOf(body);
  const plain = sentences.map((sentence) => sentence.replace(NEGATED, ' ').trim());
  if (plain.some((sentence) => ENGLISH.some((phrase) => phrase.test(sentence)))) return 'en';
  if (sentences.some((sentence) => SPANISH.some((phrase) => phrase.test(sentence)))) return 'es';
  return undefined;
}
