// The two ways a message reaches a person: a column every message table shares.

export const BROADCAST_CHANNELS = ['email', 'sms'] as const;
export type BroadcastChannel = (typeof BROADCAST_CHANNELS)[number];
