// A broadcast email, made per person from the broadcast's one rendering by the one MIME writer
// (messaging/mime-message.ts): the fixed headers and the parts are encoded once per broadcast and
// language, and each person's link tokens filled in (quoted-printable costs more than the rest).
import { LANGUAGES, type Language } from '../../shared/languages.js';
import { contentIn, type Broadcast } from '../db/broadcasts-repository.js';
import { fixedHeaders, part, writeMessage, type FixedHeaders } from '../messaging/mime-message.js';
import { personalise, PERSONAL_LINK_TOKENS, type RenderedBroadcast } from './broadcast-templates.js';

/** One person's own links, as a broadcast's parts carry them. */
export interface PersonalLinks {
  preferencesUrl: string;
  unsubscribeUrl: string;
}

export interface PersonalEmail {
  to: string;
  /** Stable for one outbox row, so a re-send (--resend-unknown) carries the same Message-ID. */
  messageId: string;
  unsubscribeUrl: string;
  /** The parts as written for this person, or (with a writer given the broadcast's parts) their links. */
  text?: string;
  html?: string;
  links?: PersonalLinks;
  date?: Date;
  /** The message's own headers (its token, Feedback-ID: messaging/message-log.ts), ASCII. */
  headers?: Record<string, string>;
}

/**
 * A link's own token, letters and digits (messaging/link-tokens.ts): quoted-printable leaves each
 * character as it is, wrap() breaks at none, and any may start a line (a hyphen after a soft break
 * would be escaped: base64url's were, one message in a few hundred written whole).
 */
const TOKEN_CHARACTERS = /^[A-Za-z0-9]+$/;
/** Stand-ins for the links while a part is encoded: printable, left as they are, not where wrap() breaks. */
const FILLERS = ['^', '~'] as const;

/** A piece of an encoded part: its own text, or characters `from` to `to` of one of the person's two link tokens. */
type Piece = string | { link: 0 | 1; from: number; to: number };

/** A person's link as the site's address and path, the same for everyone, and their own token. */
function splitLink(link: string): { path: string; token: string } {
  const cut = link.lastIndexOf('/') + 1;
  return { path: link.slice(0, cut), token: link.slice(cut) };
}

/**
 * A part encoded once, with the places of the tokens of the person's two links kept (the paths are
 * the same for everyone, the tokens of one length). Undefined when that cannot be exact.
 */
function encodedWithPlaces(
  contentType: string,
  template: string,
  paths: [string, string],
  lengths: [number, number],
): Piece[] | undefined {
  if (FILLERS.some((filler) => template.includes(filler) || paths.some((path) => path.includes(filler))))
    return undefined;
  const stands = [PERSONAL_LINK_TOKENS.preferences, PERSONAL_LINK_TOKENS.unsubscribe] as const;
  const body = stands.reduce(
    (text, stand, link) => text.replaceAll(stand, `${paths[link]}${FILLERS[link]!.repeat(lengths[link]!)}`),
    template,
  );
  const encoded = part(contentType, body);
  const pieces: Piece[] = [];
  const position = [0, 0];
  // Each piece of our own text is one slice of the encoded part: flat, so the messages written from
  // it never walk a string built a character at a time (that cost 17 µs a message).
  let ownFrom = 0;
  for (let index = 0; index < encoded.length;) {
    const link = FILLERS.indexOf(encoded[index] as (typeof FILLERS)[number]) as -1 | 0 | 1;
    if (link === -1) {
      index += 1;
      continue;
    }
    let end = index;
    while (encoded[end] === FILLERS[link]) end += 1;
    let count = end - index;
    if (index > ownFrom) pieces.push(encoded.slice(ownFrom, index));
    ownFrom = end;
    while (count > 0) {
      const from = position[link]!;
      const take = Math.min(count, lengths[link] - from);
      pieces.push({ link, from, to: from + take });
      position[link] = (from + take) % lengths[link];
      count -= take;
    }
    index = end;
  }
  if (encoded.length > ownFrom) pieces.push(encoded.slice(ownFrom));
  return position.every((at) => at === 0) ? pieces : undefined;
}

/** One person's part from the pieces. */
function filled(pieces: Piece[], tokens: [string, string]): string {
  let out = '';
  for (const piece of pieces) out += typeof piece === 'string' ? piece : tokens[piece.link].slice(piece.from, piece.to);
  return out;
}

/**
 * The fixed part of every message of one broadcast (From, Subject, list headers), encoded once, and a
 * function that writes one person's whole message. Given the broadcast's parts, it also encodes them
 * once and fills each person's links in (quoted-printable costs more than the rest of the message);
 * where a person's links would not encode exactly as the stand-ins did, that person's parts are
 * encoded whole, and the first message is checked against the whole encoding, once.
 */
export function broadcastEmailWriter(
  headers: FixedHeaders,
  content?: Pick<RenderedBroadcast, 'text' | 'html'>,
): (email: PersonalEmail) => string {
  const fixed = fixedHeaders(headers);
  /** The parts encoded once (null: they cannot be, every message is encoded whole); `checked` once one matched. */
  let places:
    | { paths: [string, string]; lengths: [number, number]; text: Piece[]; html: Piece[]; checked: boolean }
    | null
    | undefined;
  const encodeWhole = (text: string, html: string) => [part('text/plain', text), part('text/html', html)] as const;
  const encodeParts = (email: PersonalEmail): readonly [string, string] => {
    if (!email.links) return encodeWhole(email.text ?? '', email.html ?? '');
    if (!content) throw new Error("A message given links needs a writer given the broadcast's parts.");
    const personal = email.links;
    const whole = () => {
      const parts = personalise(content, personal);
      return encodeWhole(parts.text, parts.html);
    };
    const preferences = splitLink(personal.preferencesUrl);
    const unsubscribe = splitLink(personal.unsubscribeUrl);
    const paths: [string, string] = [preferences.path, unsubscribe.path];
    const tokens: [string, string] = [preferences.token, unsubscribe.token];
    if (!tokens.every((token) => TOKEN_CHARACTERS.test(token))) return whole();
    if (places === undefined) {
      const lengths: [number, number] = [tokens[0].length, tokens[1].length];
      const text = encodedWithPlaces('text/plain', content.text, paths, lengths);
      const html = encodedWithPlaces('text/html', content.html, paths, lengths);
      places = text && html ? { paths, lengths, text, html, checked: false } : null;
    }
    const known = places;
    if (
      !known ||
      ![0, 1].every((link) => paths[link] === known.paths[link] && tokens[link]?.length === known.lengths[link])
    )
      return whole();
    const text = filled(known.text, tokens);
    const html = filled(known.html, tokens);
    if (!known.checked) {
      // The first message written this way is checked against the whole encoding: any difference,
      // and every message is encoded whole.
      const expected = whole();
      if (expected[0] === text && expected[1] === html) known.checked = true;
      else places = null;
      return expected;
    }
    return [text, html];
  };
  return (email) => {
    const [text, html] = encodeParts(email);
    return writeMessage(fixed, email, text, html);
  };
}

/** A writer for each language: each person's email is written from the broadcast in theirs (issue 45). */
export type EmailWriters = Record<Language, (email: PersonalEmail) => string>;

export function emailWriters(
  broadcast: Pick<Broadcast, 'content'>,
  headers: Omit<FixedHeaders, 'subject'>,
): EmailWriters {
  return Object.fromEntries(
    LANGUAGES.map((language) => {
      const content = contentIn(broadcast.content, language);
      return [language, broadcastEmailWriter({ ...headers, subject: content.subject }, content)];
    }),
  ) as EmailWriters;
}
