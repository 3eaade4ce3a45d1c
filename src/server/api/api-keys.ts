// What an API key is (issue 56): "ssk_" and 43 random characters, shown once, kept only as a hash.
import { newSecret, secretHash } from '../secrets.js';
import type { ApiScope } from '../db/api-keys.table.js';
import { API_SCOPES } from '../db/api-keys.table.js';
import type { Db } from '../db/open-database.js';

const PREFIX = 'ssk_';
/** A key we made looks like this; anything else is refused before the database is asked. */
export const API_KEY_PATTERN = /^ssk_[A-Za-z0-9_]{43}$/;
/** A key's name: what the owner calls the tool that holds it ("Zapier", "the CRM"), as the audit log names it. */
export const API_KEY_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._'()-]{0,59}$/u;

export const apiKeyWords = {
  nameRule: "A name is 1 to 60 letters, digits, spaces or . _ ' ( ) -, starting with a letter or digit.",
  scopeRule: `The scope is one of: ${API_SCOPES.join(', ')} (read: the list; write: also add and delete people).`,
  nameTaken: (name: string) => `A key named "${name}" already exists. Revoke it first, or choose another name.`,
  /** Who an API key's entries in the audit log are by. */
  auditWho: (name: string) => `API key "${name}"`,
};

export interface NewApiKey {
  /** The key itself, shown once. */
  key: string;
  keyHash: string;
  keyEnd: string;
}

export function newApiKey(): NewApiKey {
  const key = `${PREFIX}${newSecret()}`;
  return { key, keyHash: apiKeyHash(key), keyEnd: key.slice(-4) };
}

export const apiKeyHash = (key: string): string => secretHash(key);

export const isApiScope = (value: unknown): value is ApiScope => API_SCOPES.includes(value as ApiScope);

/** The name as kept (trimmed), or undefined when it breaks the rule. */
export function apiKeyName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return API_KEY_NAME.test(name) ? name : undefined;
}

export interface KeyStores {
  apiKeys: Pick<Db['apiKeys'], 'create' | 'revoke'>;
  owners: Pick<Db['owners'], 'audit'>;
}

/** Makes a key and writes it in the audit log; the key itself is in the answer only (shown once). */
export async function makeApiKey(
  { apiKeys, owners }: KeyStores,
  { name, scope, by }: { name: string; scope: ApiScope; by: string },
): Promise<{ key: string } | 'name_taken'> {
  const made = newApiKey();
  const created = await apiKeys.create({ name, scope, keyHash: made.keyHash, keyEnd: made.keyEnd, createdBy: by });
  if (created === 'name_taken') return created;
  await owners.audit({
    ownerEmail: by,
    action: 'api_key_made',
    subject: name,
    detail: `${scope}, ending in ${made.keyEnd}`,
  });
  return { key: made.key };
}

/** Revokes the live key of this name at once, and writes it in the audit log; false if there is none. */
export async function revokeApiKey({ apiKeys, owners }: KeyStores, name: string, by: string): Promise<boolean> {
  if (!(await apiKeys.revoke(name))) return false;
  await owners.audit({ ownerEmail: by, action: 'api_key_revoked', subject: name });
  return true;
}
