// What the launch message will really do for one person, for the pages that tell them (the confirm
// page, "Saved. We will send you…"): by the one contact rule, for the broadcast that will actually
// go (its audience and channels) when the owner has created it, or the default audience before; and,
// when they now want it, their place in that broadcast, so that what the page says is what happens.
// A launch already sent is said to be sent.
import { CHANNELS, type Channel } from '../db/message-channels.js';
import type { Subscriber } from '../db/subscribers-repository.js';
import type { Audience } from './contact-rule.js';
import type { Subscriptions } from './subscriptions.js';

/** The launch broadcast as this page needs it: who it takes, on which channels, and whether it went. */
export interface LaunchPlan extends Audience {
  id: number;
  finished: boolean;
  channels: Channel[];
}

/**
 * What the launch message needs of the broadcast feature, which owns the broadcasts and their outbox
 * (broadcast/launch-plans.ts offers it; compose.ts wires it): consent never reads those tables.
 */
export interface LaunchPlans {
  /** The launch broadcast that will go (the newest with the launch template), if the owner has made one. */
  current(): Promise<LaunchPlan | undefined>;
  /** One person's messages in it, made sure to be waiting (never one sent, being sent or failed). */
  ensureQueued(broadcastId: number, rows: { signupId: string; channel: Channel }[]): Promise<number>;
}

export interface LaunchMessage {
  /** Each channel the launch message will reach them on. */
  willSend: { email: boolean; sms: boolean };
  /** The launch message went out already: there is none left to send. */
  launched: boolean;
}

export class LaunchMessages {
  constructor(
    private readonly plans: LaunchPlans,
    private readonly subscriptions: Pick<Subscriptions, 'exclusions'>,
    /** EMAIL_CONFIRMATION is on: before a broadcast exists, the default audience leaves out those asked who did not confirm. */
    private readonly confirmationOn: boolean,
  ) {}

  /** What the launch message will do for this person, now. */
  async for(subscriber: Subscriber): Promise<LaunchMessage> {
    return this.forIn(subscriber, await this.plans.current());
  }

  private async forIn(subscriber: Subscriber, broadcast: LaunchPlan | undefined): Promise<LaunchMessage> {
    if (broadcast?.finished) return { willSend: { email: false, sms: false }, launched: true };
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
    const broadcast = await this.plans.current();
    const message = await this.forIn(subscriber, broadcast);
    if (broadcast && !broadcast.finished) {
      const rows = CHANNELS.filter((channel) => message.willSend[channel]).map((channel) => ({
        signupId: subscriber.id,
        channel,
      }));
      await this.plans.ensureQueued(broadcast.id, rows);
    }
    return message;
  }
}
