// The owner's API keys (issue 56), written once with Kysely for both engines. Only a SHA-256 hash of
// each key is kept: a copy of the database opens nothing. A revoked key stays listed, so the audit
// log's name for it keeps its meaning; a live name is one key (the index api_keys_live_name).
import { iso, isoOrNull } from './column-types.js';
import type { ApiScope } from './api-keys.table.js';
import { stamp, type QueryContext } from './sql-dialect.js';

export interface ApiKey {
  id: number;
  name: string;
  scope: ApiScope;
}

export interface ApiKeyListing extends ApiKey {
  /** The key's last four characters. */
  keyEnd: string;
  createdAt: string;
  createdBy: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export class ApiKeysRepository {
  constructor(private readonly context: QueryContext) {}

  /** Keeps a new key's hash; 'name_taken' while a live key has the name. */
  async create(key: {
    name: string;
    scope: ApiScope;
    keyHash: string;
    keyEnd: string;
    createdBy: string;
  }): Promise<'created' | 'name_taken'> {
    const inserted = await this.context.db
      .insertInto('api_keys')
      .values({
        name: key.name,
        scope: key.scope,
        key_hash: key.keyHash,
        key_end: key.keyEnd,
        created_at: stamp(this.context),
        created_by: key.createdBy,
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted ? 'created' : 'name_taken';
  }

  /** Live keys first (newest first), then the revoked ones. */
  async list(): Promise<ApiKeyListing[]> {
    const rows = await this.context.db.selectFrom('api_keys').selectAll().orderBy('id', 'desc').execute();
    const listed = rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      scope: row.scope,
      keyEnd: row.key_end,
      createdAt: iso(row.created_at),
      createdBy: row.created_by,
      lastUsedAt: isoOrNull(row.last_used_at),
      revokedAt: isoOrNull(row.revoked_at),
    }));
    return [...listed.filter((key) => !key.revokedAt), ...listed.filter((key) => key.revokedAt)];
  }

  /** The live key with this hash, marked used now; undefined if none (unknown or revoked). */
  async use(keyHash: string): Promise<ApiKey | undefined> {
    const row = await this.context.db
      .updateTable('api_keys')
      .set({ last_used_at: stamp(this.context) })
      .where('key_hash', '=', keyHash)
      .where('revoked_at', 'is', null)
      .returning(['id', 'name', 'scope'])
      .executeTakeFirst();
    return row ? { id: Number(row.id), name: row.name, scope: row.scope } : undefined;
  }

  /** Revokes the live key of this name at once; false if there is none. */
  async revoke(name: string): Promise<boolean> {
    const result = await this.context.db
      .updateTable('api_keys')
      .set({ revoked_at: stamp(this.context) })
      .where('name', '=', name)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
