// Test support: whether the suppression list blocks an address for someone whose latest sign-up was
// at `consentedAt`, by the one rule (consent/contact-rule.ts's blockingReason) over the list's entries.
import { blockingReason } from '../consent/contact-rule.js';
import type { Db } from '../db/open-database.js';
import type { AddressKind } from '../db/suppressions.table.js';

export async function isSuppressed(
  db: Pick<Db, 'suppressions'>,
  kind: AddressKind,
  hash: string,
  consentedAt: string,
): Promise<boolean> {
  const entries = await db.suppressions.entries(kind, [hash]);
  return blockingReason(entries.get(hash), consentedAt) !== undefined;
}
