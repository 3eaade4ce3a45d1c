// The dashboard's owners, their one-time sign-in links and sessions (hashes only), and the audit log (decision 024).
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';

export interface OwnersTable {
  id: Generated<number>;
  email: string;
  created_at: Time;
}

export interface OwnerSignInLinksTable {
  token_hash: string;
  owner_id: Id;
  created_at: Time;
  expires_at: Time;
  used_at: Time | null;
}

export interface OwnerSessionsTable {
  id_hash: string;
  owner_id: Id;
  created_at: Time;
  last_seen_at: Time;
  ended_at: Time | null;
}

export interface OwnerAuditLogTable {
  id: Generated<Id>;
  at: Time;
  owner_email: string;
  action: string;
  subject: string | null;
  detail: string | null;
}
