// The key and the data belong together (decision 041): a database remembers the fingerprints of the
// SECRET_KEYs its hashes and links were made with, and refuses another; a rotation with
// SECRET_KEY_PREVIOUS keeps every link, message token and suppression entry made before it working.
import { describe, expect, it } from 'vitest';
import { createMessagingCore } from '../compose-messaging.js';
import { keyFingerprint } from '../db/secret-keys-repository.js';
import { openDatabase } from '../db/open-database.js';
import { rosa } from '../test/people.js';
import { storeEngines } from '../test/store-engines.js';
import { createLinkSigner } from '../messaging/link-tokens.js';
import { createMessageTokens } from '../messaging/message-tokens.js';
import { checkSecretKey, SecretKeyMismatchError } from '../messaging/secret-key-check.js';

const OLD = 'the-old-secret-key-that-is-long-enough-1';
const NEW = 'the-new-secret-key-that-is-long-enough-2';
const ID = '7b0a2c4e-1f3d-4a5b-8c6d-9e0f1a2b3c4d';

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`SECRET_KEY and the database (${engine.name})`, () => {
    it('remembers the first key, refuses another with what to do, and takes a rotation through SECRET_KEY_PREVIOUS', async () => {
      const store = await openDatabase(await engine.database());
      try {
        await checkSecretKey(store.secretKeys, {}); // no key: nothing to check, nothing remembered
        expect(await store.secretKeys.known()).toEqual([]);
        await checkSecretKey(store.secretKeys, { secretKey: OLD });
        await checkSecretKey(store.secretKeys, { secretKey: OLD });
        expect((await store.secretKeys.known()).map((key) => key.fingerprint)).toEqual([keyFingerprint(OLD)]);

        const refused = await checkSecretKey(store.secretKeys, { secretKey: NEW }).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(SecretKeyMismatchError);
        expect((refused as Error).message).toContain(
          `SECRET_KEY does not match this database: its suppression list and the links already sent were made with another key (fingerprint ${keyFingerprint(OLD)}`,
        );
        expect((refused as Error).message).toContain(
          'set the new one as SECRET_KEY and the old one as SECRET_KEY_PREVIOUS',
        );
        expect((refused as Error).message).not.toContain(OLD);

        await checkSecretKey(store.secretKeys, { secretKey: NEW, previousSecretKey: OLD });
        expect((await store.secretKeys.known()).map((key) => key.fingerprint).sort()).toEqual(
          [keyFingerprint(OLD), keyFingerprint(NEW)].sort(),
        );
        // The old key's hashes are still in the list: dropping it would forget them.
        await expect(checkSecretKey(store.secretKeys, { secretKey: NEW })).rejects.toThrow(SecretKeyMismatchError);
      } finally {
        await store.close();
      }
    });

    it('after a rotation, a "no" recorded under the old key still holds, and is lifted under both', async () => {
      const store = await openDatabase(await engine.database());
      try {
        await store.signups.add(rosa);
        const person = (await store.subscribers.subscriberByEmailKey(rosa.email))!;
        await createMessagingCore({ secretKey: OLD }, store).subscriptions.stopTexts(person.phone);
        const rotated = createMessagingCore({ secretKey: NEW, previousSecretKey: OLD }, store).subscriptions;
        const everyone = { segment: 'all' as const, confirmation: 'everyone' as const };
        const now = (await store.subscribers.subscriber(person.id))!;
        expect(await rotated.exclusions(now, ['sms'], everyone)).toEqual({ sms: 'stopped' });
        // Without the old key the entry would be lost: the new key alone does not see it.
        const forgetful = createMessagingCore({ secretKey: NEW }, store).subscriptions;
        expect(await forgetful.suppressionsFor([now], ['sms'])).toEqual(new Map());
        await rotated.startTexts(person.phone);
        expect(await store.suppressions.count()).toBe(0);
      } finally {
        await store.close();
      }
    });
  });
}

describe('links and message tokens across a rotation', () => {
  it('a link or token made with the old key works with SECRET_KEY_PREVIOUS, and nothing new is made with it', () => {
    const before = createLinkSigner(OLD);
    const after = createLinkSigner(NEW, OLD);
    const link = before.sign('manage', ID);
    expect(after.verify('manage', link)).toBe(ID);
    expect(after.verify('confirm', link)).toBeUndefined();
    expect(createLinkSigner(NEW).verify('manage', link)).toBeUndefined();
    expect(after.sign('manage', ID)).toBe(createLinkSigner(NEW).sign('manage', ID));

    const token = createMessageTokens(OLD).issue();
    expect(createMessageTokens(NEW, OLD).verify(token)).toBe(true);
    expect(createMessageTokens(NEW).verify(token)).toBe(false);
    expect(createMessageTokens(OLD).verify(createMessageTokens(NEW, OLD).issue())).toBe(false);
  });
});
