// A broadcast's failed messages, for the owner: what `retry` would queue again (retry-plan.ts sorts
// them), queueing them again, and the held ones listed by person (masked). BroadcastControl's
// `failed`; the command's retry and status and the dashboard's retry question use it.
import type { Subscriptions } from '../consent/subscriptions.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import { CHANNELS, type Channel } from '../db/message-channels.js';
import type { BroadcastDb } from '../db/open-database.js';
import type { SentMessagesRepository } from '../db/sent-messages-repository.js';
import { maskAddress } from '../messaging/mask-email.js';
import { changeState } from './broadcast-rules.js';
import { planOf, type RetryPlan } from './retry-plan.js';

/** A message set aside after pausing its channel twice: whose (masked) and the answer. */
export interface HeldMessage {
  channel: Channel;
  person: string;
  answer: string;
}

export class FailedMessages {
  constructor(
    private readonly db: BroadcastDb,
    private readonly subscriptions: Subscriptions,
    /** For `retry` to reach a person whose suppression the owner lifted after their message bounced. */
    private readonly sentMessages: Pick<SentMessagesRepository, 'reportedGone'> | undefined,
  ) {}

  /**
   * Held messages (each paused its channel twice), by person, masked as the owner's pages show
   * addresses, with the answer that held them: what `status` and the dashboard list.
   */
  async held(broadcast: Broadcast): Promise<HeldMessage[]> {
    const { held } = planOf(await this.db.outbox.failedMessages(broadcast.id));
    const people = await this.db.broadcastRecipients.recipients([...new Set(held.map((message) => message.signupId))]);
    return held.map((message) => {
      const person = people.get(message.signupId);
      const to = message.channel === 'email' ? person?.email : person?.phone;
      return {
        channel: message.channel,
        person: to ? maskAddress(to) : 'someone who left',
        answer: message.error ?? '',
      };
    });
  }

  /** What `retry` would queue again, without changing anything. */
  async plan(broadcast: Broadcast): Promise<RetryPlan> {
    return planOf(await this.db.outbox.failedMessages(broadcast.id)).plan;
  }

  /**
   * `sudo scamsavvy broadcast retry NAME` and the dashboard's "Try the failed ones again": queues again
   * the messages that failed "for now" and gave up, and those failed by a fault of ours (an earlier
   * release marked some of those failed for good); with `includeUndeliverable`, also those whose
   * address the provider said cannot be reached, lifting that mark. Never a message that was sent,
   * skipped or is unknown. Held messages (they paused the channel twice) go again only with `held`,
   * once the owner has fixed what held them. A finished broadcast is ready to send again.
   */
  async retry(
    broadcast: Broadcast,
    { includeUndeliverable, held: includeHeld = false }: { includeUndeliverable: boolean; held?: boolean },
  ): Promise<RetryPlan> {
    const { plan, retryable, undeliverable, held } = planOf(await this.db.outbox.failedMessages(broadcast.id));
    // A suppression the owner lifted (sudo scamsavvy suppressions lift: it was our fault) lets that
    // person's message go again, failed during the send or bounced after it.
    const lifted = includeUndeliverable ? [] : await this.unsuppressed(undeliverable);
    const queue = [...retryable, ...(includeUndeliverable ? undeliverable : lifted), ...(includeHeld ? held : [])];
    if (includeUndeliverable && undeliverable.length > 0) {
      const people = await this.db.broadcastRecipients.recipients([
        ...new Set(undeliverable.map((message) => message.signupId)),
      ]);
      for (const message of undeliverable) {
        const person = people.get(message.signupId);
        if (person) await this.subscriptions.clearUndeliverable(person, message.channel);
      }
    }
    const bounced = this.sentMessages
      ? await this.unsuppressed(await this.sentMessages.reportedGone(broadcast.id))
      : [];
    const queued =
      (await this.db.outbox.requeueFailed(
        broadcast.id,
        queue.map((message) => message.id),
      )) +
      (await this.db.outbox.requeueSent(
        broadcast.id,
        bounced.map((message) => message.outboxId),
      ));
    if (queued > 0) await changeState(this.db.broadcasts, broadcast.id, 'reopen');
    const groups = plan.groups.filter(
      (group) => (includeUndeliverable || !group.undeliverable) && (includeHeld || !group.held),
    );
    return { ...plan, groups, lifted: lifted.length + bounced.length };
  }

  /** Of these messages, those whose address the suppression list no longer holds as undeliverable or bounced. */
  private async unsuppressed<T extends { signupId: string; channel: Channel }>(messages: T[]): Promise<T[]> {
    // Without SECRET_KEY the list cannot be read: nothing counts as lifted.
    if (messages.length === 0 || !this.subscriptions.canSuppress) return [];
    const people = await this.db.broadcastRecipients.recipients([...new Set(messages.map((each) => each.signupId))]);
    const lists = await this.subscriptions.suppressionsFor([...people.values()], [...CHANNELS]);
    return messages.filter((message) => {
      const person = people.get(message.signupId);
      if (!person) return false;
      const entry = lists.get(person.id)?.[message.channel === 'email' ? 'email' : 'phone'];
      return !entry?.undeliverableAt;
    });
  }
}
