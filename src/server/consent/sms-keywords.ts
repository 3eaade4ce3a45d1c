// What an incoming text asks for: the words US carriers and people use to stop, restart or get help.

export type SmsKeyword = 'stop' | 'start' | 'help' | 'yes';

const STOP_WORDS = new Set(['stop', 'stopall', 'unsubscribe', 'end', 'quit', 'cancel', 'revoke', 'optout', 'opt out']);
const START_WORDS = new Set(['start', 'unstop']);
const HELP_WORDS = new Set(['help', 'info']);
/** A yes to the joining text (decision 041); "sí" is read without its accent. START is a yes too. */
const YES_WORDS = new Set(['yes', 'y', 'si']);

/**
 * The keyword a whole message is, in any case, with spaces (or a full stop or exclamation mark)
 * around it; "opt-out" and "opt out" count as "optout". A sentence that merely contains one
 * ("please don't stop") is not a keyword, as carriers treat it.
 */
export function smsKeyword(body: string): SmsKeyword | undefined {
  const word = body
    .normalize('NFKC')
    .trim()
    .replace(/[.!]+$/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, ' ');
  const plain = word.normalize('NFD').replace(/\p{M}/gu, '');
  if (STOP_WORDS.has(word)) return 'stop';
  if (START_WORDS.has(word)) return 'start';
  if (HELP_WORDS.has(word)) return 'help';
  if (YES_WORDS.has(plain)) return 'yes';
  return undefined;
}
