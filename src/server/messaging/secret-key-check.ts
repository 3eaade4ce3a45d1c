// The key and the data belong together (decision 041): the server and every command that opens the
// database refuse a SECRET_KEY the database's suppression hashes and links were not made with, so a
// new machine or a restore can never quietly forget who asked never to hear from us.
import { keyFingerprint, type SecretKeysRepository } from '../db/secret-keys-repository.js';

export class SecretKeyMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyMismatchError';
  }
}

/**
 * Checks SECRET_KEY (and SECRET_KEY_PREVIOUS) against the keys the database has known, and records
 * SECRET_KEY as known. Nothing to check without SECRET_KEY: nothing is hashed or signed then.
 */
export async function checkSecretKey(
  keys: Pick<SecretKeysRepository, 'known' | 'remember'>,
  config: { secretKey?: string | undefined; previousSecretKey?: string | undefined },
): Promise<void> {
  if (!config.secretKey) return;
  const current = keyFingerprint(config.secretKey);
  const previous = config.previousSecretKey ? keyFingerprint(config.previousSecretKey) : undefined;
  const known = await keys.known();
  const other = known.find((key) => key.fingerprint !== current && key.fingerprint !== previous);
  if (other)
    throw new SecretKeyMismatchError(
      `SECRET_KEY does not match this database: its suppression list and the links already sent were made with another key (fingerprint ${other.fingerprint}, first used ${other.firstUsedAt.slice(0, 10)}). With another key, people who asked never to hear from us would be written to again, and every link in their emails would stop working. Set SECRET_KEY to that key (keep it with your backups: docs/production.md, "Keep the key with the backups"). To change keys, set the new one as SECRET_KEY and the old one as SECRET_KEY_PREVIOUS, and keep both.`,
    );
  if (known.length === 0 && previous) await keys.remember(previous);
  await keys.remember(current);
}
