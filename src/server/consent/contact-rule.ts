// May we send this person this channel's message now? The one rule, asked by every sender (a
// broadcast when it is made and again right before each message, the confirmation mailer) and by
// every page that tells a person what they will get (the preferences page after a save). Nothing
// else decides it (docs/messaging.md, "Who gets what").
import type { AudienceConfirmation } from '../db/broadcasts.table.js';
import type { Channel } from '../db/message-channels.js';
import { mergeEntries, type SuppressionEntry } from '../db/suppression-fold.js';
import type { SuppressionReason } from '../db/suppressions.table.js';

/** Why someone does not get a message, in the order the owner's report lists them. */
export const EXCLUSIONS = [
  'left',
  'opted_out',
  'stopped',
  'suppressed',
  'undeliverable',
  'texts_not_confirmed',
  'not_confirmed',
  'not_beta',
] as const;
export type Exclusion = (typeof EXCLUSIONS)[number];

export const EXCLUSION_WORDS: Record<Exclusion | 'deleted', string> = {
  left: 'left the list',
  opted_out: 'turned this channel off',
  stopped: 'replied STOP to a text',
  suppressed: 'asked never to be written to again (deleted their details or left)',
  undeliverable:
    'the mail server or text provider said this address or number cannot be reached (or it bounced, or the person reported our email as spam)',
  texts_not_confirmed:
    'have not said yes to texts (replied YES to our joining text; with SMS_CONFIRMATION=notice, been sent it)',
  not_confirmed: 'were asked to confirm their email and have not',
  not_beta: 'did not ask to test the beta',
  deleted: 'deleted their details',
};

/** Who a message is for. */
export interface Audience {
  segment: 'all' | 'beta';
  /** Who it takes among the unconfirmed (broadcasts.table.ts, AudienceConfirmation). */
  confirmation: AudienceConfirmation;
}

/** What the rule needs to know about a person. */
export interface ContactFacts {
  lastSeenAt: string;
  confirmedAt: string | null;
  /** Asked to confirm (a confirmation is due or was sent); false for sign-ups from before confirmation was on. */
  askedToConfirm: boolean;
  betaTesting: boolean;
  emailOptOutAt: string | null;
  smsOptOutAt: string | null;
  leftAt: string | null;
  /** The number replied YES (or START) to a text from us. */
  smsConfirmedAt?: string | null;
  /** The joining text went to the number. */
  joiningTextSentAt?: string | null;
}

/** What proves a "yes" to texts (SMS_CONFIRMATION): the number's YES, or (notice) the joining text sent. */
export type TextProof = 'reply' | 'notice';

/** Whether texts to this person's number are proven wanted (decision 041). */
export function textsProven(person: ContactFacts, proof: TextProof): boolean {
  if (person.smsConfirmedAt) return true;
  return proof === 'notice' && Boolean(person.joiningTextSentAt);
}

/** What the suppression list holds for the person's two addresses (the phone's only when texts are asked about). */
export interface PersonSuppressions {
  email?: SuppressionEntry;
  phone?: SuppressionEntry;
}

/** Signed up before confirmation was switched on: never asked, not confirmed. Included unless --confirmed-only. */
export function signedUpBeforeConfirmation(person: ContactFacts): boolean {
  return person.confirmedAt === null && !person.askedToConfirm;
}

/** Why this person may not get this channel's message now, or undefined when they may. */
export function exclusionOf(
  person: ContactFacts,
  channel: Channel,
  audience: Audience,
  suppressed: PersonSuppressions | undefined,
  canHash: boolean,
  textProof: TextProof = 'reply',
): Exclusion | undefined {
  if (person.leftAt !== null) return 'left';
  if (channel === 'email' && person.emailOptOutAt !== null) return 'opted_out';
  if (channel === 'sms' && suppressed?.phone?.stop) return 'stopped';
  if (channel === 'sms' && person.smsOptOutAt !== null) return 'opted_out';
  if (!canHash) return 'suppressed'; // without SECRET_KEY the suppression list cannot be read: send nothing
  // A person's "no" to this channel, kept by the address: it outlives a swept or deleted row, and holds
  // for every record a stranger makes with the address or number (issue 54).
  if (channel === 'email' && suppressed?.email?.offAt) return 'opted_out';
  if (channel === 'sms' && suppressed?.phone?.offAt) return 'opted_out';
  // A leaving or deletion holds until the person undoes it: on the email by an emailed button (which
  // lifts the entry), on the number by START from it. A sign-up is not the person (anyone can type an
  // address), so no sign-up lifts one. Leaving and deleting suppress both addresses: texts check both.
  if (ownNo(suppressed?.email)) return 'suppressed';
  if (channel === 'sms' && ownNo(suppressed?.phone)) return 'suppressed';
  // A provider's "cannot be reached" holds for that address only: a dead email still gets texts.
  const address = channel === 'email' ? suppressed?.email : suppressed?.phone;
  if (address && unreachable(address, person.lastSeenAt)) return 'undeliverable';
  // A launch text goes only to a number that said yes, unless the owner chose everyone (--include-unconfirmed).
  if (channel === 'sms' && audience.confirmation !== 'everyone' && !textsProven(person, textProof))
    return 'texts_not_confirmed';
  if (person.confirmedAt === null) {
    if (audience.confirmation === 'confirmed_only') return 'not_confirmed';
    if (audience.confirmation === 'asked' && person.askedToConfirm) return 'not_confirmed';
  }
  if (audience.segment === 'beta' && !person.betaTesting) return 'not_beta';
  return undefined;
}

/** The address's own "no" (a leaving or a deletion) is on the list: only the person lifts it. */
function ownNo(entry: SuppressionEntry | undefined): boolean {
  return entry !== undefined && (entry.latestReason === 'left' || entry.latestReason === 'deleted');
}

/**
 * A provider's "cannot be reached" or a bounce after the latest sign-up, which a later sign-up with the
 * address lifts (it is about the address, not the person's wish); or a complaint ("this is spam")
 * whenever it came: the person's "no", which holds until the owner lifts it (decision 037).
 */
export function unreachable(entry: SuppressionEntry, lastSeenAt: string): boolean {
  return entry.complainedAt !== '' || (entry.undeliverableReason !== '' && entry.undeliverableAt > lastSeenAt);
}

/**
 * Why an address is blocked for someone whose latest sign-up was at `lastSeenAt`, the newest reason
 * that applies, or undefined: a leaving, deletion or STOP whenever it came (only the person lifts
 * those), a complaint, and a "cannot be reached" after that sign-up. The words of the pages read it;
 * exclusionOf above decides the sending.
 */
export function blockingReason(entry: SuppressionEntry | undefined, lastSeenAt: string): SuppressionReason | undefined {
  if (!entry) return undefined;
  const applying: [string, SuppressionReason][] = [];
  if (ownNo(entry) && entry.latestReason) applying.push([entry.latestAt, entry.latestReason]);
  if (entry.stop) applying.push([entry.stopAt, 'sms_stop']);
  if (entry.complainedAt) applying.push([entry.complainedAt, 'complained']);
  if (entry.undeliverableReason && entry.undeliverableAt > lastSeenAt)
    applying.push([entry.undeliverableAt, entry.undeliverableReason]);
  return applying.sort(([a], [b]) => b.localeCompare(a))[0]?.[1];
}

/** Why someone is asked to come back rather than to confirm (the words of the "come back?" email). */
export type ComeBackBecause = 'left' | 'email_off' | 'deleted';

/** Which email a due confirmation request calls for, or why none may go. */
export type ConfirmationAsk =
  { kind: 'confirm' } | { kind: 'come_back'; because: ComeBackBecause } | { kind: 'none'; reason: string };

/**
 * What a confirmation request (a sign-up's, a repeat's) may send this person: the confirmation email
 * to someone unconfirmed; to someone who said no (left, turned email off, or deleted their details
 * and whose address was typed in again) one "come back?" email after that "no", never a second
 * (decision 041); nothing to an address a provider cannot reach, or that reported us as spam.
 * A request is read when it is sent: one the person's "no" withdrew since (leaving and email off
 * clear it) sends nothing, so a sign-up's request still waiting when they leave never becomes a
 * "come back?" email. Only a sign-up after the "no" asks that.
 */
export function confirmationAsk(
  person: ContactFacts & { confirmationSentAt: string | null; confirmationWaiting: boolean },
  email: SuppressionEntry | undefined,
  canHash: boolean,
): ConfirmationAsk {
  if (!person.confirmationWaiting)
    return { kind: 'none', reason: 'no request waits: a "no" or a confirmation since withdrew it' };
  if (!canHash) return { kind: 'none', reason: 'the suppression list cannot be read without SECRET_KEY' };
  if (email && unreachable(email, person.lastSeenAt))
    return { kind: 'none', reason: 'this address cannot be reached, or reported our email as spam' };
  const noes = [person.leftAt, person.emailOptOutAt, ownNo(email) ? email?.latestAt : undefined, email?.offAt].filter(
    (at): at is string => typeof at === 'string' && at !== '',
  );
  if (noes.length > 0) {
    const latestNo = noes.sort().at(-1)!;
    // Asked since: by this record, or (kept by the address) by one a sweep or deletion has since removed.
    const asked = [person.confirmationSentAt, email?.askedBackAt].filter((at): at is string => Boolean(at));
    if (asked.some((at) => at > latestNo))
      return { kind: 'none', reason: 'asked once already to come back since their "no"' };
    const because =
      person.leftAt !== null
        ? 'left'
        : person.emailOptOutAt !== null || (email?.offAt && !(ownNo(email) && email.latestAt > email.offAt))
          ? 'email_off'
          : 'deleted';
    return { kind: 'come_back', because };
  }
  if (person.confirmedAt !== null) return { kind: 'none', reason: 'already confirmed' };
  return { kind: 'confirm' };
}

/** Reads the suppression list for some keyed hashes of one kind (a repository's suppression query). */
export type SuppressionLookup = (kind: 'email' | 'phone', hashes: string[]) => Promise<Map<string, SuppressionEntry>>;

/**
 * Looks up the suppression list for a page of people at once: one query per kind of address.
 * Returns, per person id, what applies to them.
 */
export async function suppressionsFor(
  lookup: SuppressionLookup,
  hasher: { emailHashes(email: string): string[]; phoneHashes(phone: string): string[] },
  people: { id: string; email: string; phone: string }[],
  channels: Channel[],
): Promise<Map<string, PersonSuppressions>> {
  const result = new Map<string, PersonSuppressions>();
  // Every key's hash (SECRET_KEY's, and SECRET_KEY_PREVIOUS's after a rotation): no "no" is forgotten.
  const emailHashes = new Map<string, string[]>();
  const phoneHashes = new Map<string, string[]>();
  for (const person of people) {
    // Leaving and deleting suppress both addresses; STOP only the number. Texts check both.
    emailHashes.set(person.id, hasher.emailHashes(person.email));
    if (channels.includes('sms')) phoneHashes.set(person.id, hasher.phoneHashes(person.phone));
  }
  const all = (hashes: Map<string, string[]>) => [...hashes.values()].flat();
  const emailFound = await lookup('email', all(emailHashes));
  const phoneFound =
    phoneHashes.size > 0 ? await lookup('phone', all(phoneHashes)) : new Map<string, SuppressionEntry>();
  for (const person of people) {
    const email = mergeEntries((emailHashes.get(person.id) ?? []).map((hash) => emailFound.get(hash)));
    const phone = mergeEntries((phoneHashes.get(person.id) ?? []).map((hash) => phoneFound.get(hash)));
    if (email || phone) result.set(person.id, { ...(email ? { email } : {}), ...(phone ? { phone } : {}) });
  }
  return result;
}
