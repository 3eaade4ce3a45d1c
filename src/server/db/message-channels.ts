// The two ways a message reaches a person: a column every message table shares.

export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

/** An outbox row's channel: a person's, or 'webhook' on a webhook delivery's row (issue 56). */
export type OutboxChannel = Channel | 'webhook';

/**
 * The channel of a row read for a person or a broadcast: never a webhook delivery's (those name no
 * person and no broadcast), so one found here is a broken row, said loudly rather than shown.
 */
export function personChannel(channel: OutboxChannel): Channel {
  if (channel === 'webhook') throw new Error('A webhook delivery was read as a message to a person.');
  return channel;
}
