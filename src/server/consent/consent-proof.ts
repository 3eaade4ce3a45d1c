// The proof of a person's consent (issue 56): each yes and no with its time, where it came from, the
// words shown (the form's consent by its version; a page's words as they were then, consent_texts)
// or received (a text's own words), and the address it came from where a channel gave one. For a
// person deleted since, what their deletion's "no" keeps by their address's hash: what they had
// agreed to and when they said no. As JSON for a lawyer's tools, and as text to read.
import { emailKey } from '../../shared/signup-schema.js';
import type { ConsentEvent } from '../db/consent-events-repository.js';
import type { ConsentKind, ConsentSource } from '../db/consent-events.table.js';
import type { KeptConsentText } from '../db/consent-texts-repository.js';
import type { Db } from '../db/open-database.js';
import type { KeptSuppression } from '../db/suppressions-repository.js';
import { storedForms, toE164 } from '../messaging/phone.js';
import { CONSENT_KIND_WORDS, CONSENT_SOURCE_WORDS } from './history-words.js';
import type { Subscriptions } from './subscriptions.js';

export interface ProofLine {
  at: string;
  kind: ConsentKind | `no:${string}`;
  /** The change, in words. */
  what: string;
  source: ConsentSource;
  /** Where it came from, in words. */
  from: string;
  consentVersion: string | null;
  /** The exact words the person was shown, where we know them. */
  wordsShown: string | null;
  /** The exact words the person sent (a text reply). */
  wordsReceived: string | null;
  /** The address the request came from, where the channel gave one. */
  ip: string | null;
  /** Where a channel said the person agreed (a sign-up through the API). */
  place: string | null;
}

export interface ConsentProof {
  /** The person as on record; null for a person deleted since. */
  person: { id: string; name: string; email: string; phone: string; language: string } | null;
  lines: ProofLine[];
}

/** What the shown words are for a change made on a page, by its source (the form's are by version). */
const PAGE_OF_SOURCE: Partial<Record<ConsentSource, string>> = {
  confirm_page: 'confirm_page',
  preferences_page: 'preferences_page',
  one_click_unsubscribe: 'one_click_unsubscribe',
  emailed_button: 'emailed_button',
  phone_change_email: 'emailed_button',
};

type Line = Pick<ConsentEvent, 'kind' | 'source' | 'consentVersion' | 'at' | 'evidence'>;

function proofLine(line: Line, language: string, texts: KeptConsentText[]): ProofLine {
  const evidence = (line.evidence ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  /** The words a place showed at that moment: the last version first shown before it (else the first). */
  const shownAt = (place: string) => {
    const kept = texts.filter((row) => row.place === place && row.language === language);
    return ([...kept].reverse().find((row) => row.firstShownAt <= line.at) ?? kept[0])?.words ?? null;
  };
  let wordsShown: string | null = null;
  if (line.source === 'api') wordsShown = text(evidence.words);
  else if (line.source === 'signup_form')
    wordsShown =
      texts.find(
        (row) => row.place === 'signup_form' && row.language === language && row.version === line.consentVersion,
      )?.words ?? null;
  else if (line.source === 'sms_reply' && line.kind !== 'sms_off') wordsShown = shownAt('joining_text');
  else if (PAGE_OF_SOURCE[line.source]) wordsShown = shownAt(PAGE_OF_SOURCE[line.source] as string);
  return {
    at: line.at,
    kind: line.kind,
    what: CONSENT_KIND_WORDS[line.kind] ?? line.kind,
    source: line.source,
    from: CONSENT_SOURCE_WORDS[line.source] ?? line.source,
    consentVersion: line.consentVersion,
    wordsShown,
    wordsReceived: text(evidence.received),
    ip: text(evidence.ip),
    place: line.source === 'api' ? text(evidence.source) : null,
  };
}

const NO_WORDS: Record<string, string> = {
  deleted: 'Deleted their details',
  left: 'Left the list',
  sms_stop: 'Replied STOP: no texts',
  email_off: 'Turned email off',
  sms_off: 'Turned texts off',
  bounced: 'Email to this address bounced: no more email to it',
  complained: 'Reported our email as spam: no more email',
  undeliverable: 'Cannot be reached, the provider said',
};

/** The "no"s kept by the address's hash, and what a deletion kept of the history before it. */
function deletedLines(rows: KeptSuppression[], texts: KeptConsentText[]): ProofLine[] {
  const lines: ProofLine[] = [];
  for (const row of rows) {
    if (row.history) {
      const kept = JSON.parse(row.history) as { language?: string; lines: Line[] };
      for (const line of kept.lines) lines.push(proofLine(line, kept.language ?? 'en', texts));
    }
    if (row.reason === 'asked_back') continue;
    lines.push({
      at: row.at,
      kind: `no:${row.reason === 'lifted' ? `lifted ${row.liftsReason ?? ''}` : row.reason}`,
      what:
        row.reason === 'lifted'
          ? `Undid their own “no” (${row.liftsReason ?? ''})`
          : (NO_WORDS[row.reason] ?? row.reason),
      source: row.source,
      from: CONSENT_SOURCE_WORDS[row.source] ?? row.source,
      consentVersion: null,
      wordsShown: null,
      wordsReceived: null,
      ip: null,
      place: null,
    });
  }
  // One line per moment and change: a deletion kept its history on the email's row and the number's.
  const seen = new Set<string>();
  return (
    lines
      .filter((line) => {
        const key = `${line.at}|${line.kind}|${line.source}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      // In time order; at one moment, the change before the "no" it left by the address.
      .sort((a, b) => a.at.localeCompare(b.at) || Number(a.kind.startsWith('no:')) - Number(b.kind.startsWith('no:')))
  );
}

/** The proof for everyone with this email or number: on record, or deleted since (by hash). */
export async function consentProof(
  db: Pick<Db, 'subscribers' | 'consentEvents' | 'consentTexts' | 'suppressions'>,
  subscriptions: Pick<Subscriptions, 'emailHashes' | 'phoneHashes'>,
  address: { email?: string | undefined; phone?: string | undefined },
): Promise<ConsentProof[]> {
  const texts = await db.consentTexts.all();
  const people = address.email
    ? [await db.subscribers.subscriberByEmailKey(emailKey(address.email))].filter((person) => person !== undefined)
    : address.phone
      ? await db.subscribers.subscribersByPhone(storedForms(toE164(address.phone)))
      : [];
  if (people.length > 0)
    return Promise.all(
      people.map(async (person) => ({
        person: {
          id: person.id,
          name: person.name,
          email: person.email,
          phone: person.phone,
          language: person.language,
        },
        lines: (await db.consentEvents.history(person.id)).map((line) => proofLine(line, person.language, texts)),
      })),
    );
  const rows = address.email
    ? await db.suppressions.kept('email', subscriptions.emailHashes(address.email))
    : address.phone
      ? await db.suppressions.kept('phone', subscriptions.phoneHashes(toE164(address.phone)))
      : [];
  return rows.length === 0 ? [] : [{ person: null, lines: deletedLines(rows, texts) }];
}

const when = (at: string) => `${at.slice(0, 19).replace('T', ' ')} UTC`;
const quoted = (words: string) => `“${words.replace(/\n/g, ' / ')}”`;

/** The proof as text to read. */
export function proofText(proofs: ConsentProof[], asked: string): string {
  if (proofs.length === 0) return `Nothing is kept for ${asked}: no sign-up, and no "no".\n`;
  return proofs
    .map(({ person, lines }) => {
      const head = person
        ? `Proof of consent: ${person.name}, ${person.email}, ${person.phone || 'no phone'} (on the list; record ${person.id})`
        : `Proof of consent for ${asked}: deleted since. What their "no" keeps, by a scrambled code of the address:`;
      const body = lines.map((line) =>
        [
          `${when(line.at)}  ${line.what}  (${line.from}${line.consentVersion ? `; consent version ${line.consentVersion}` : ''})`,
          ...(line.place ? [`    Where: ${line.place}`] : []),
          ...(line.wordsShown ? [`    Words shown: ${quoted(line.wordsShown)}`] : []),
          ...(line.wordsReceived ? [`    Words received: ${quoted(line.wordsReceived)}`] : []),
          ...(line.ip ? [`    From the address: ${line.ip}`] : []),
        ].join('\n'),
      );
      return [head, ...body].join('\n');
    })
    .join('\n\n')
    .concat('\n');
}
