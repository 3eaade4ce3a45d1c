// What an incoming text asks for: the words US carriers and people use to stop, restart or get help,
// in English and in Spanish (issue 45), and which language the word is in, so the answer is too.
import type { Language } from '../../shared/languages.js';

export type SmsKeyword = 'stop' | 'start' | 'help' | 'yes';

/**
 * Each word, read without accents and in lower case, with what it asks and its language. START and
 * UNSTOP have none: our Spanish texts name START too (only START lifts a carrier's own block after a
 * STOP), so the answer goes in the language the number signed up in.
 */
const WORDS = new Map<string, { keyword: SmsKeyword; language?: Language }>([
  ...['stop', 'stopall', 'unsubscribe', 'end', 'quit', 'cancel', 'revoke', 'optout', 'opt out'].map(
    (word) => [word, { keyword: 'stop', language: 'en' }] as const,
  ),
  // Since April 2025 an opt-out "by any reasonable means" counts (47 CFR 64.1200(a)(10)): in Spanish too.
  ...['alto', 'parar', 'cancelar', 'baja', 'detener', 'no mas'].map(
    (word) => [word, { keyword: 'stop', language: 'es' }] as const,
  ),
  ...['start', 'unstop'].map((word) => [word, { keyword: 'start' }] as const),
  ...['help', 'info'].map((word) => [word, { keyword: 'help', language: 'en' }] as const),
  ['ayuda', { keyword: 'help', language: 'es' }],
  // A yes to the joining text (decision 041). START is a yes too.
  ...['yes', 'y'].map((word) => [word, { keyword: 'yes', language: 'en' }] as const),
  ['si', { keyword: 'yes', language: 'es' }],
]);

/** The longest word above, with room for spaces and marks around it: a longer text is not a keyword. */
const LONGEST = 40;

/**
 * The keyword a whole message is, in any case and with or without accents ("No más", "NO MAS", "Sí"),
 * with spaces (or a full stop or exclamation mark) around it; "opt-out" and "opt out" count as
 * "optout". A sentence that merely contains one ("please don't stop") is not a keyword, as carriers
 * treat it. `language`: the word's own, when it has one.
 */
export function readSmsKeyword(body: string): { keyword: SmsKeyword; language?: Language } | undefined {
  if (body.length > LONGEST) return undefined;
  const word = body
    .normalize('NFKC')
    .trim()
    .replace(/^[¡¿]+/, '')
    .replace(/[.!]+$/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, ' ')
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
  return WORDS.get(word);
}

/** What a whole message asks for (readSmsKeyword without its language). */
export function smsKeyword(body: string): SmsKeyword | undefined {
  return readSmsKeyword(body)?.keyword;
}
