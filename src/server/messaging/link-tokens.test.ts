import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
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
    expect(token).toMatch(/^[A-Za-z0-9_-]{49}$/);
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

  it('refuses the other spellings of the same bytes (spare bits at the end of each part)', () => {
    for (let round = 0; round < 50; round += 1) {
      const token = links.sign('manage', randomUUID());
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      for (const index of [21, 48]) {
        const value = alphabet.indexOf(token[index] ?? '');
        const twin = alphabet[value ^ 1] ?? 'A';
        expect(links.verify('manage', `${token.slice(0, index)}${twin}${token.slice(index + 1)}`)).toBeUndefined();
      }
    }
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
    expect(createAddressHasher(key).hash('email', id)).not.toBe(token.slice(22));
  });
});
