// What the launch message will really do for one person, for the pages that tell them (the confirm
// page, "Saved. We will send you…"): by the one contact rule, for the broadcast that will actually
// go (its audience and channels) when the owner has created it, or the default audience before; and,
// when they now want it, their place in that broadcast, so that what the page says is what happens.
// A launch already sent is said to be sent.
import type { BroadcastsRepository, Broadcast } from '../db/broadcasts-repository.js';
import { CHANNELS, type Channel } from '../db/message-channels.js';
import type { OutboxRepository } from '../db/outbox-repository.js';
import type { Subscriber } from '../db/subscribers-repository.js';
import type { Audience } from './contact-rule.js';
import type { Subscriptions } from './subscriptions.js';

export interface LaunchMessageStores {
  broadcasts: Pick<BroadcastsRepository, 'list'>;
  outbox: Pick<OutboxRepository, 'ensureQueued'>;
}

export interface LaunchMessage {
  /** Each channel the launch message will reach them on. */
  willSend: { email: boolean; sms: boolean };
  /** The launch message went out already: there is none left to send. */
  launched: boolean;
}

/** The launch broadcast that will go (the newest with the launch template), if the owner has made one. */
async function launchBroadcast(stores: LaunchMessageStores): Promise<Broadcast | undefined> {
  const all = await stores.broadcasts.list();
  return all.filter((broadcast) => broadcast.template === 'launch').sort((a, b) => b.id - a.id)[0];
}

export class LaunchMessages {
  constructor(
    private readonly stores: LaunchMessageStores,
    private readonly subscriptions: Pick<Subscriptions, 'exclusions'>,
    /** EMAIL_CONFIRMATION is on: before a broadcast exists, the default audience leaves out those asked who did not confirm. */
    private readonly confirmationOn: boolean,
  ) {}

  /** What the launch message will do for this person, now. */
  async for(subscriber: Subscriber): Promise<LaunchMessage> {
    return this.forIn(subscriber, await launchBroadcast(this.stores));
  }

  private async forIn(subscriber: Subscriber, broadcast: Broadcast | undefined): Promise<LaunchMessage> {
    if (broadcast?.state === 'finished') return { willSend: { email: false, sms: false }, launched: true };
    const audience: Audience = broadcast
      ? { segment: broadcast.segment, confirmation: broadcast.confirmation }
      : { segment: 'all', confirmation: 'asked' };
    const channels = broadcast?.channels ?? [...CHANNELS];
    const why =
      subscriber.leftAt !== null ? undefined : await this.subscriptions.exclusions(subscriber, channels, audience);
    const reaches = (channel: Channel) =>
      subscriber.leftAt === null && channels.includes(channel) && why?.[channel] === undefined;
    return { willSend: { email: reaches('email'), sms: reaches('sms') }, launched: false };
  }

  /**
   * Makes sure the launch broadcast the owner has made (and not yet finished) holds a message for
   * each channel the rule lets reach them: someone who turns email on, or confirms, after it was
   * created is sent to without a top-up. The senders check the rule again when it goes. Returns what
   * the launch message will do for them.
   */
  async join(subscriber: Subscriber): Promise<LaunchMessage> {
    const broadcast = await launchBroadcast(this.stores);
    const message = await this.forIn(subscriber, broadcast);
    if (broadcast && broadcast.state !== 'finished') {
      const rows = CHANNELS.filter((channel) => message.willSend[channel]).map((channel) => ({
        signupId: subscriber.id,
        channel,
      }));
      await this.stores.outbox.ensureQueued(broadcast.id, rows);
    }
    return message;
  }
}
