// Where each person stands for the launch message, by the one contact rule the gate and their own
// page read (contact-rule.ts): per channel, "yes" or why not. The export gives it beside each record,
// so a list taken out to another tool carries every "no", including those kept by the address alone.
import type { BroadcastRecipientsRepository } from '../db/broadcast-recipients-repository.js';
import { exclusionOf, type Audience } from './contact-rule.js';
import type { Subscriptions } from './subscriptions.js';

/** "yes", or the contact rule's reason (left, opted_out, stopped, suppressed, undeliverable, not_confirmed, texts_not_confirmed, deleted). */
export type LaunchStanding = { email: string; texts: string };

/** The launch message's audience as `broadcast create` makes it by default. */
const LAUNCH: Audience = { segment: 'all', confirmation: 'asked' };

/** Reads the standing of a page of people (ids) in two queries, as the gate reads a batch. */
export function launchStanding(
  subscriptions: Subscriptions,
  recipients: Pick<BroadcastRecipientsRepository, 'recipients'>,
): (ids: string[]) => Promise<Map<string, LaunchStanding>> {
  return async (ids) => {
    const people = await recipients.recipients(ids);
    const suppressed = await subscriptions.suppressionsFor([...people.values()], ['email', 'sms']);
    const standing = new Map<string, LaunchStanding>();
    for (const id of ids) {
      const person = people.get(id);
      if (!person) {
        standing.set(id, { email: 'deleted', texts: 'deleted' });
        continue;
      }
      const why = (channel: 'email' | 'sms') =>
        exclusionOf(person, channel, LAUNCH, suppressed.get(id), subscriptions.canSuppress, subscriptions.textProof) ??
        'yes';
      standing.set(id, { email: why('email'), texts: why('sms') });
    }
    return standing;
  };
}
