// The fingerprints of the SECRET_KEYs this database's suppression hashes and links were made with
// (decision 041). A fingerprint is a keyed hash of a fixed text: it names a key without revealing it.
import { createHmac } from 'node:crypto';
import { iso } from './column-types.js';
import { stamp, type QueryContext } from './sql-dialect.js';

/** 64 bits of HMAC-SHA256 of a fixed text under the key: enough to tell keys apart, nothing to find one by. */
export function keyFingerprint(secretKey: string): string {
  return createHmac('sha256', secretKey).update('scamsavvy:fingerprint').digest('hex').slice(0, 16);
}

export interface KnownKey {
  fingerprint: string;
  firstUsedAt: string;
}

export class SecretKeysRepository {
  constructor(private readonly context: QueryContext) {}

  async known(): Promise<KnownKey[]> {
    const rows = await this.context.db
      .selectFrom('secret_keys')
      .select(['fingerprint', 'first_used_at'])
      .orderBy('first_used_at')
      .execute();
    return rows.map((row) => ({ fingerprint: row.fingerprint, firstUsedAt: iso(row.first_used_at) }));
  }

  /** Records a key as used with this database (once). */
  async remember(fingerprint: string): Promise<void> {
    await this.context.db
      .insertInto('secret_keys')
      .values({ fingerprint, first_used_at: stamp(this.context) })
      .onConflict((conflict) => conflict.column('fingerprint').doNothing())
      .execute();
  }
}
