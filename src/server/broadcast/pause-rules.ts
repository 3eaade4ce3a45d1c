// When a broadcast's channel or the broadcast itself pauses, and what it then says in plain words
// with what to do (status, list, the progress line and the dashboard show it): a domain at risk
// (health), an outage of the provider, an answer we do not recognise, nothing else left to send.
// The sender applies them (broadcast-sender.ts, decision 027).
import type { BroadcastHealth, MessageHealthRepository } from '../db/message-health-repository.js';
import type { Channel } from '../db/message-channels.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import type { ChannelPause } from '../db/broadcast-pauses-repository.js';
import type { BroadcastDb } from '../db/open-database.js';
import { changeState } from './broadcast-rules.js';
import { HEALTH_MINIMUM } from './broadcast-sender-options.js';
import { number } from '../../shared/plain-numbers.js';
import { percent } from './broadcast-progress.js';

const WHO: Record<Channel, { server: string; noun: string }> = {
  email: { server: 'The mail server', noun: 'an email' },
  sms: { server: 'Twilio', noun: 'a text' },
};

/** "14:02 UTC". */
function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/** Why email pauses to protect the domain, or undefined while its bounces and complaints are within their limits. */
export function healthPause(
  figures: BroadcastHealth,
  limits: { maxBounceRate: number; maxComplaintRate: number },
): { reason: string; answer: string } | undefined {
  const problems = [
    ...(figures.bounceRate > limits.maxBounceRate
      ? [`${percent(figures.bounceRate)} of its emails bounced (the limit is ${percent(limits.maxBounceRate)})`]
      : []),
    ...(figures.complaintRate > limits.maxComplaintRate
      ? [`${percent(figures.complaintRate)} were reported as spam (the limit is ${percent(limits.maxComplaintRate)})`]
      : []),
  ];
  if (problems.length === 0) return undefined;
  return {
    reason:
      `Paused to protect the domain: ${problems.join(', and ')}, of ${number(figures.messages)} sent. ` +
      'Mail providers may block our email past these. Look at the list (old or mistyped addresses?), then go on ' +
      'knowingly with resume --despite-health.',
    answer: `${figures.hardBounced} hard bounces, ${figures.complained} complaints, ${figures.messages} messages`,
  };
}

/** Nothing got through on the channel since `since`: nobody is given up. */
export function outageReason(channel: Channel, since: number, now: number): string {
  const { server, noun } = WHO[channel];
  return (
    `${server} has not accepted ${noun} since ${clock(since)} (${Math.round((now - since) / 60_000)} min). ` +
    'Nobody was given up: when it works again, resume.'
  );
}

/** The provider keeps answering in a way we do not recognise: nobody is marked failed. */
export function unknownAnswerReason(channel: Channel): string {
  return (
    `${WHO[channel].server} keeps giving an answer we do not recognise (below). Nobody was marked failed: ` +
    'check the provider and the settings, then resume.'
  );
}

/**
 * Some channels are paused by a failure of ours. When nothing else of the broadcast can go on (the
 * other channels are done, or paused too), the broadcast itself pauses, so that `status`, `list` and
 * the dashboard say so and `resume` goes on; while another channel still sends, it sends.
 */
export async function pauseIfNothingElse(
  store: Pick<BroadcastDb, 'outbox' | 'broadcasts'>,
  broadcast: Broadcast,
  pauses: ChannelPause[],
): Promise<'waiting' | 'paused'> {
  for (const channel of broadcast.channels) {
    if (pauses.some((pause) => pause.channel === channel)) continue;
    const counts = await store.outbox.counts(broadcast.id, channel);
    if (counts.queued + counts.sending + counts.retrying > 0) return 'waiting';
  }
  await changeState(store.broadcasts, broadcast.id, 'pause');
  return 'paused';
}

/**
 * The health rule: after at least HEALTH_MINIMUM messages, email whose hard bounces or complaints
 * pass their limits pauses, with the figures, until the owner resumes knowingly
 * (resume --despite-health). Mailbox providers judge the sending domain by these shares.
 */
export async function healthPauseDue(
  store: Pick<BroadcastDb, 'broadcasts'>,
  health:
    { store: Pick<MessageHealthRepository, 'health'>; maxBounceRate: number; maxComplaintRate: number } | undefined,
  broadcast: Broadcast,
): Promise<{ reason: string; answer: string } | undefined> {
  if (!health || !broadcast.channels.includes('email')) return undefined;
  const current = await store.broadcasts.get(broadcast.name);
  if (!current || current.healthAcceptedAt) return undefined;
  const figures = await health.store.health(broadcast.id, 'email', current.startedAt);
  if (figures.messages < HEALTH_MINIMUM) return undefined;
  return healthPause(figures, health);
}
