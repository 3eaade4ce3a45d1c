// The dashboard's sessions, as hashes only (decision 024).
import type { Id, Time } from './column-types.js';

export interface OwnerSessionsTable {
  id_hash: string;
  owner_id: Id;
  created_at: Time;
  last_seen_at: Time;
  ended_at: Time | null;
}
