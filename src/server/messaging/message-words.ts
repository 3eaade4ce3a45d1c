// The words of every message and link page, in each language (issue 45): the English in
// message-words-en.ts, the Spanish in message-words-es.ts, in the same shape. Each message goes in
// its person's language: use messageWordsIn[language] and its twins. The English names
// (messageWords …) are the English words, for the owner's tools and tests.
import type { Translated } from '../../shared/languages.js';
import * as english from './message-words-en.js';
import * as spanish from './message-words-es.js';

export { broadcastWords, linkPageWords, messageWords } from './message-words-en.js';
export type { BroadcastWords, LinkPageWords, MessageWords } from './message-words-en.js';

/** Each person's messages, in their language. */
export const messageWordsIn: Translated<english.MessageWords> = {
  en: english.messageWords,
  es: spanish.messageWords,
};
export const broadcastWordsIn: Translated<english.BroadcastWords> = {
  en: english.broadcastWords,
  es: spanish.broadcastWords,
};
export const linkPageWordsIn: Translated<english.LinkPageWords> = {
  en: english.linkPageWords,
  es: spanish.linkPageWords,
};
