// Who may get a broadcast's message on a channel: the one rule used when the broadcast is created
// (and topped up) and again right before each message goes out.
import type { Subscriptions } from '../consent/subscriptions.js';
import type { BroadcastSegment, OutboxRepository, Recipient } from '../db/outbox-repository.js';
import type { BroadcastChannel } from '../db/outbox.table.js';

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
  not_confirmed: 'never confirmed their email',
  not_beta: 'did not ask to test the beta',
  deleted: 'deleted their details',
};

export interface Audience {
  segment: BroadcastSegment;
  /** Only people who confirmed their email (the default while EMAIL_CONFIRMATION is on). */
  confirmedOnly: boolean;
}

interface SuppressionEntry {
  stop: boolean;
  latestAt: string;
  /** When a provider said the address cannot be reached ('' if never): this channel only. */
  undeliverableAt: string;
}

/**
 * Looks up the suppression list for a page of people at once: one query per kind of address.
 * Returns, per person id, what applies to them.
 */
export async function suppressionsFor(
  store: OutboxRepository,
  subscriptions: Subscriptions,
  people: Recipient[],
  channels: BroadcastChannel[],
): Promise<Map<string, { email?: SuppressionEntry; phone?: SuppressionEntry }>> {
  const result = new Map<string, { email?: SuppressionEntry; phone?: SuppressionEntry }>();
  const emailHashes = new Map<string, string>();
  const phoneHashes = new Map<string, string>();
  for (const person of people) {
    // Leaving and deleting suppress both addresses; STOP only the number. Texts check both.
    const email = subscriptions.emailHash(person.email);
    if (email) emailHashes.set(person.id, email);
    if (channels.includes('sms')) {
      const phone = subscriptions.phoneHash(person.phone);
      if (phone) phoneHashes.set(person.id, phone);
    }
  }
  const emailFound = await store.suppressions('email', [...emailHashes.values()]);
  const phoneFound = phoneHashes.size > 0 ? await store.suppressions('phone', [...phoneHashes.values()]) : new Map();
  for (const person of people) {
    const email = emailFound.get(emailHashes.get(person.id) ?? '');
    const phone = phoneFound.get(phoneHashes.get(person.id) ?? '') as SuppressionEntry | undefined;
    if (email || phone) result.set(person.id, { ...(email ? { email } : {}), ...(phone ? { phone } : {}) });
  }
  return result;
}

/** Why this person may not get this channel's message now, or undefined when they may. */
export function exclusionOf(
  person: Recipient,
  channel: BroadcastChannel,
  audience: Audience,
  suppressed: { email?: SuppressionEntry; phone?: SuppressionEntry } | undefined,
  canHash: boolean,
): Exclusion | undefined {
  if (person.leftAt !== null) return 'left';
  if (channel === 'email' && person.emailOptOutAt !== null) return 'opted_out';
  if (channel === 'sms' && suppressed?.phone?.stop) return 'stopped';
  if (channel === 'sms' && person.smsOptOutAt !== null) return 'opted_out';
  // A leaving or deletion recorded after their latest sign-up; a later sign-up is new consent.
  if (!canHash) return 'suppressed'; // without SECRET_KEY the suppression list cannot be read: send nothing
  if (suppressed?.email && suppressed.email.latestAt > person.lastSeenAt) return 'suppressed';
  if (channel === 'sms' && suppressed?.phone && suppressed.phone.latestAt > person.lastSeenAt) return 'suppressed';
  // A provider's "cannot be reached" holds for that address only: a dead email still gets texts.
  const address = channel === 'email' ? suppressed?.email : suppressed?.phone;
  if (address && address.undeliverableAt > person.lastSeenAt) return 'undeliverable';
  if (audience.confirmedOnly && person.confirmedAt === null) return 'not_confirmed';
  if (audience.segment === 'beta' && !person.betaTesting) return 'not_beta';
  return undefined;
}
