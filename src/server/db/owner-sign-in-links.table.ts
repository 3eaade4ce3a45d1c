// One-time sign-in links for the dashboard, as hashes only (decision 024).
import type { Id, Time } from './column-types.js';

export interface OwnerSignInLinksTable {
  token_hash: string;
  owner_id: Id;
  created_at: Time;
  expires_at: Time;
  used_at: Time | null;
}
