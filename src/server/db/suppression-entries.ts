// The suppression list as the contact rule reads it (consent/contact-rule.ts): per keyed hash, the
// newest wish-to-stop, whether the number said STOP, and the newest "cannot be reached". One query
// for a page of people (a broadcast) or for one (a page, a single send).
import type { Kysely } from 'kysely';
import { iso } from './column-types.js';
import { ADDRESS_ONLY_REASONS, type AddressKind, type SuppressionReason } from './suppressions.table.js';
import type { Database } from './database.js';

export interface SuppressionEntry {
  /** The number replied STOP (only START from it lifts that). */
  stop: boolean;
  /** The newest leaving, deletion or STOP ('' if none): a later sign-up is new consent and lifts it. */
  latestAt: string;
  /** The newest reason among latestAt's ('' if none). */
  latestReason: SuppressionReason | '';
  /** When a provider said the address cannot be reached, it bounced, or it complained ('' if never): this channel only. */
  undeliverableAt: string;
  /** The newest reason among undeliverableAt's ('' if none). */
  undeliverableReason: SuppressionReason | '';
}

export async function readSuppressionEntries(
  db: Kysely<Database>,
  kind: AddressKind,
  hashes: string[],
): Promise<Map<string, SuppressionEntry>> {
  const found = new Map<string, SuppressionEntry>();
  if (hashes.length === 0) return found;
  const rows = await db
    .selectFrom('suppressions')
    .select(['address_hash', 'reason', 'created_at'])
    .where('kind', '=', kind)
    .where('address_hash', 'in', [...new Set(hashes)])
    .execute();
  for (const row of rows) {
    const at = iso(row.created_at);
    const entry = found.get(row.address_hash) ?? {
      stop: false,
      latestAt: '',
      latestReason: '',
      undeliverableAt: '',
      undeliverableReason: '',
    };
    if (ADDRESS_ONLY_REASONS.includes(row.reason)) {
      // Not the person's wish: it holds for this address alone.
      if (at >= entry.undeliverableAt) {
        entry.undeliverableAt = at;
        entry.undeliverableReason = row.reason;
      }
    } else {
      if (row.reason === 'sms_stop') entry.stop = true;
      if (at >= entry.latestAt) {
        entry.latestAt = at;
        entry.latestReason = row.reason;
      }
    }
    found.set(row.address_hash, entry);
  }
  return found;
}
