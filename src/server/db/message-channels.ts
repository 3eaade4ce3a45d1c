// The two ways a message reaches a person: a column every message table shares.

export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];
