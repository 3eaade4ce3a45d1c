// Who may get a broadcast's message on a channel: the one contact rule (consent/contact-rule.ts),
// used when the broadcast is created (and topped up) and again right before each message goes out,
// with the suppression list read from the outbox's store a page of people at a time.
import { suppressionsFor as lookUp, type PersonSuppressions } from '../consent/contact-rule.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import type { OutboxRepository, Recipient } from '../db/outbox-repository.js';
import type { BroadcastChannel } from '../db/message-channels.js';

export { EXCLUSION_WORDS, EXCLUSIONS, exclusionOf, type Audience, type Exclusion } from '../consent/contact-rule.js';

/** The suppression list for a page of people, per person id. */
export function suppressionsFor(
  store: OutboxRepository,
  subscriptions: Subscriptions,
  people: Recipient[],
  channels: BroadcastChannel[],
): Promise<Map<string, PersonSuppressions>> {
  return lookUp((kind, hashes) => store.suppressions(kind, hashes), subscriptions, people, channels);
}
