// May we send this person this channel's message now? The one rule, asked by every sender (a
// broadcast when it is made and again right before each message, the confirmation mailer) and by
// every page that tells a person what they will get (the preferences page after a save). Nothing
// else decides it (docs/messaging.md, "Who gets what").
import type { AudienceConfirmation } from '../db/broadcasts.table.js';
import type { BroadcastChannel } from '../db/message-channels.js';
import type { SuppressionEntry } from '../db/suppressions-repository.js';
import type { SuppressionReason } from '../db/suppressions.table.js';

/** Why someone does not get a message, in the order the owner's report lists them. */
export const EXCLUSIONS = [
  'left',
  'opted_out',
  'stopped',
  'suppressed',
  'undeliverable',
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
  channel: BroadcastChannel,
  audience: Audience,
  suppressed: PersonSuppressions | undefined,
  canHash: boolean,
): Exclusion | undefined {
  if (person.leftAt !== null) return 'left';
  if (channel === 'email' && person.emailOptOutAt !== null) return 'opted_out';
  if (channel === 'sms' && suppressed?.phone?.stop) return 'stopped';
  if (channel === 'sms' && person.smsOptOutAt !== null) return 'opted_out';
  // A leaving or deletion recorded after their latest sign-up; a later sign-up is new consent.
  // Leaving and deleting suppress both addresses, so texts check both.
  if (!canHash) return 'suppressed'; // without SECRET_KEY the suppression list cannot be read: send nothing
  if (suppressed?.email && suppressed.email.latestAt > person.lastSeenAt) return 'suppressed';
  if (channel === 'sms' && suppressed?.phone && suppressed.phone.latestAt > person.lastSeenAt) return 'suppressed';
  // A provider's "cannot be reached" holds for that address only: a dead email still gets texts.
  const address = channel === 'email' ? suppressed?.email : suppressed?.phone;
  if (address && address.undeliverableAt > person.lastSeenAt) return 'undeliverable';
  if (person.confirmedAt === null) {
    if (audience.confirmation === 'confirmed_only') return 'not_confirmed';
    if (audience.confirmation === 'asked' && person.askedToConfirm) return 'not_confirmed';
  }
  if (audience.segment === 'beta' && !person.betaTesting) return 'not_beta';
  return undefined;
}

/**
 * Why an address is blocked for someone whose latest sign-up was at `lastSeenAt`, the newest reason
 * that applies, or undefined: a leaving, deletion or "cannot be reached" after that sign-up (a later
 * sign-up is new consent), and a STOP whenever it came (only START from the number lifts it). The
 * words of the pages read it; exclusionOf above decides the sending.
 */
export function blockingReason(entry: SuppressionEntry | undefined, lastSeenAt: string): SuppressionReason | undefined {
  if (!entry) return undefined;
  const applying: [string, SuppressionReason][] = [];
  if (entry.latestReason && entry.latestAt > lastSeenAt) applying.push([entry.latestAt, entry.latestReason]);
  if (entry.stop) applying.push([entry.stopAt, 'sms_stop']);
  if (entry.undeliverableReason && entry.undeliverableAt > lastSeenAt)
    applying.push([entry.undeliverableAt, entry.undeliverableReason]);
  return applying.sort(([a], [b]) => b.localeCompare(a))[0]?.[1];
}

/** Reads the suppression list for some keyed hashes of one kind (a repository's suppression query). */
export type SuppressionLookup = (kind: 'email' | 'phone', hashes: string[]) => Promise<Map<string, SuppressionEntry>>;

/**
 * Looks up the suppression list for a page of people at once: one query per kind of address.
 * Returns, per person id, what applies to them.
 */
export async function suppressionsFor(
  lookup: SuppressionLookup,
  hasher: { emailHash(email: string): string | undefined; phoneHash(phone: string): string | undefined },
  people: { id: string; email: string; phone: string }[],
  channels: BroadcastChannel[],
): Promise<Map<string, PersonSuppressions>> {
  const result = new Map<string, PersonSuppressions>();
  const emailHashes = new Map<string, string>();
  const phoneHashes = new Map<string, string>();
  for (const person of people) {
    // Leaving and deleting suppress both addresses; STOP only the number. Texts check both.
    const email = hasher.emailHash(person.email);
    if (email) emailHashes.set(person.id, email);
    if (channels.includes('sms')) {
      const phone = hasher.phoneHash(person.phone);
      if (phone) phoneHashes.set(person.id, phone);
    }
  }
  const emailFound = await lookup('email', [...emailHashes.values()]);
  const phoneFound = phoneHashes.size > 0 ? await lookup('phone', [...phoneHashes.values()]) : new Map();
  for (const person of people) {
    const email = emailFound.get(emailHashes.get(person.id) ?? '');
    const phone = phoneFound.get(phoneHashes.get(person.id) ?? '') as SuppressionEntry | undefined;
    if (email || phone) result.set(person.id, { ...(email ? { email } : {}), ...(phone ? { phone } : {}) });
  }
  return result;
}
