import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derivedKeys } from './derived-keys.js';
import { createAddressHasher, createLinkSigner } from './link-tokens.js';

const key = 'a-secret-key-of-at-least-32-characters!';

describe('signed links', () => {
  const links = createLinkSigner(key);
  const id = randomUUID();

  it('reads back the sign-up a token names, for the purpose it was made for only', () => {
    const token = links.sign('manage', id);
    expect(links.verify('manage', token)).toBe(id);
    expect(links.verify('confirm', token)).toBeUndefined();
    expect(links.verify('confirm', links.sign('confirm', id))).toBe(id);
  });

  it('is short, URL-safe, and different for each sign-up and purpose', () => {
    const token = links.sign('manage', id);
    expect(token).toMatch(/^[0-9A-Za-z]{50}$/);
    expect(links.sign('confirm', id)).not.toBe(token);
    expect(links.sign('manage', randomUUID())).not.toBe(token);
  });

  it('refuses a token with any character changed, cut short, or signed with another key', () => {
    const token = links.sign('manage', id);
    for (let index = 0; index < token.length; index += 1) {
      // 'A' and 'B' differ only in the lowest bit: the spare bits at the end of each part included.
      const swapped = token[index] === 'A' ? 'B' : 'A';
      const tampered = `${token.slice(0, index)}${swapped}${token.slice(index + 1)}`;
      expect(links.verify('manage', tampered), `character ${index}`).toBeUndefined();
    }
    expect(links.verify('manage', token.slice(0, -1))).toBeUndefined();
    expect(links.verify('manage', `${token}A`)).toBeUndefined();
    expect(createLinkSigner(`${key}-other`).verify('manage', token)).toBeUndefined();
    expect(links.verify('manage', '../../etc/passwd')).toBeUndefined();
  });

  /** A token as releases before issue 55 made it: base64url, 49 characters. */
  const formerToken = (signupId: string) => {
    const idBytes = Buffer.from(signupId.replace(/-/g, ''), 'hex');
    const mac = createHmac('sha256', derivedKeys('links', key)[0]!).update('manage').update('\0').update(idBytes);
    return `${idBytes.toString('base64url')}${mac.digest().subarray(0, 20).toString('base64url')}`;
  };

  it('still reads the links in emails sent before, in their own form (base64url)', () => {
    const former = formerToken(id);
    expect(former).toMatch(/^[A-Za-z0-9_-]{49}$/);
    expect(links.verify('manage', former)).toBe(id);
    expect(links.claimedId(former)).toBe(id);
    expect(links.verify('confirm', former)).toBeUndefined();
  });

  it('refuses the other spellings of the same bytes', () => {
    const token = links.sign('manage', id);
    // Letters and digits: a part that spells more than its bytes hold.
    expect(links.verify('manage', `${'z'.repeat(22)}${token.slice(22)}`)).toBeUndefined();
    expect(links.claimedId(`${'z'.repeat(22)}${token.slice(22)}`)).toBeUndefined();
    // base64url: the spare bits at the end of each part.
    for (let round = 0; round < 50; round += 1) {
      const former = formerToken(randomUUID());
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      for (const index of [21, 48]) {
        const value = alphabet.indexOf(former[index] ?? '');
        const twin = alphabet[value ^ 1] ?? 'A';
        expect(links.verify('manage', `${former.slice(0, index)}${twin}${former.slice(index + 1)}`)).toBeUndefined();
      }
    }
  });

  it('never looks like a Bitcoin address to a spam filter, where base64url tokens did', () => {
    // SpamAssassin's PDS_BTC_ID: a Bitcoin address in the text (__BITCOIN_ID, the BTCBL plugin's
    // pattern) that is not a whole segment of a link's path (__URL_BTC_ID); with bech32's bc1 too.
    const bitcoin = /\b(?<!=)(?:[13][a-km-zA-HJ-NP-Z1-9]{25,34}|bc1[ac-hj-np-z02-9]{11,71})\b/g;
    const inUrlPath = /[/.][13][a-km-zA-HJ-NP-Z1-9]{25,34}(?:\/|$)/;
    const scored = (token: string) => {
      const url = `https://scamsavvy.example/preferences/${token}`;
      return [...url.matchAll(bitcoin)].length > 0 && !inUrlPath.test(url);
    };
    const people = Array.from({ length: 20_000 }, () => randomUUID());
    const ours = people.flatMap((person) => [links.sign('manage', person), links.sign('off', person)]);
    expect(ours.filter(scored)).toEqual([]);
    // The same check finds the ones the former form made (about 6 in 10,000).
    expect(people.map(formerToken).filter(scored).length).toBeGreaterThan(0);
  });

  it('signs only sign-up ids', () => {
    expect(() => links.sign('manage', 'not-a-uuid')).toThrow(/UUID/);
  });
});

describe('suppression hashes', () => {
  it('are stable for an address, differ by kind, address and key, and hold no address', () => {
    const hasher = createAddressHasher(key);
    const hash = hasher.hash('email', 'rosa@example.com');
    expect(hasher.hash('email', 'rosa@example.com')).toBe(hash);
    expect(hasher.hash('email', 'rosa2@example.com')).not.toBe(hash);
    expect(hasher.hash('phone', 'rosa@example.com')).not.toBe(hash);
    expect(createAddressHasher(`${key}-other`).hash('email', 'rosa@example.com')).not.toBe(hash);
    expect(hash).not.toContain('rosa');
  });

  it('use a key of their own, not the links key', () => {
    // The same input through the two derived keys must differ, so one never stands in for the other.
    const id = randomUUID();
    const token = createLinkSigner(key).sign('manage', id);
    expect(createAddressHasher(key).hash('email', id)).not.toContain(token.slice(22));
  });
});
