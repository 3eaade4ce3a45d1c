// The processes sending a broadcast, with their heartbeats (decision 023).
import type { Id, Time } from './column-types.js';

export interface BroadcastSendersTable {
  id: string;
  broadcast_id: Id;
  /** 1 for the one sender SQLite allows (unique); null on PostgreSQL, where many may run. */
  slot: number | null;
  host: string;
  pid: number;
  started_at: Time;
  heartbeat_at: Time;
  stopped_at: Time | null;
}
