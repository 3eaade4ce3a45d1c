// The owner's API keys (issue 56, migration 26): only a hash of each secret is kept.
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';

export const API_SCOPES = ['read', 'write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export interface ApiKeysTable {
  id: Generated<Id>;
  name: string;
  scope: ApiScope;
  /** SHA-256 of the whole key, hex. */
  key_hash: string;
  /** Its last four characters, so the owner can tell keys apart. */
  key_end: string;
  created_at: Time;
  /** Who made it: an owner's address, or "the command line". */
  created_by: string;
  last_used_at: Time | null;
  revoked_at: Time | null;
}
