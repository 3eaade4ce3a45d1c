// A channel of a broadcast paused by a failure of ours, until the owner resumes it (decision 027).
import type { Id, Time } from './column-types.js';
import type { Channel } from './message-channels.js';

/**
 * Why a channel of a broadcast stopped sending until the owner resumes it: sender (our credentials,
 * our From, our account), outage (nothing got through for BROADCAST_GIVE_UP_AFTER_SECONDS), unknown
 * (an answer we do not recognise, repeated), health (bounces or complaints past their limit).
 */
export const PAUSE_CAUSES = ['sender', 'outage', 'unknown', 'health'] as const;
export type PauseCause = (typeof PAUSE_CAUSES)[number];

/** A channel paused by a failure of ours, one row per broadcast and channel while it lasts. */
export interface BroadcastPausesTable {
  broadcast_id: Id;
  channel: Channel;
  cause: PauseCause;
  /** In plain words, with what to do: shown by status, list, the progress line and the dashboard. */
  reason: string;
  /** The provider's own answer, quoted (addresses removed). */
  answer: string | null;
  paused_at: Time;
}
