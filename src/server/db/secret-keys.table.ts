// The fingerprints of the SECRET_KEYs this database's suppression hashes and links were made with
// (never a key): a server or command with another key is refused (decision 041).
import type { Time } from './column-types.js';

export interface SecretKeysTable {
  fingerprint: string;
  first_used_at: Time;
}
