// Message tokens: only ours verify, in any case; they fit a VERP address and come back out of it.
import { describe, expect, it } from 'vitest';
import { createMessageTokens, tokenFromVerpAddress, verpAddress } from './message-tokens.js';

describe('message tokens', () => {
  const tokens = createMessageTokens('k'.repeat(40));

  it('issues a different 32-character token each time, and verifies only its own', () => {
    const first = tokens.issue();
    const second = tokens.issue();
    expect(first).toMatch(/^[a-z2-7]{32}$/);
    expect(first).not.toBe(second);
    expect(tokens.verify(first)).toBe(true);
    expect(tokens.verify(first.toUpperCase())).toBe(true);
    // Another key's token, a changed character, a made-up one, the wrong length: no.
    expect(createMessageTokens('x'.repeat(40)).verify(first)).toBe(false);
    const changed = `${first.slice(0, 31)}${first.endsWith('a') ? 'b' : 'a'}`;
    expect(tokens.verify(changed)).toBe(false);
    expect(tokens.verify(`${first.slice(0, 16)}${'a'.repeat(16)}`)).toBe(false);
    expect(tokens.verify(first.slice(1))).toBe(false);
    expect(tokens.verify('')).toBe(false);
  });

  it('goes into a VERP envelope sender and comes back out, whatever the case', () => {
    const token = tokens.issue();
    const address = verpAddress('bounces@mail.example.org', token);
    expect(address).toBe(`bounces+${token}@mail.example.org`);
    expect(tokenFromVerpAddress(address, 'bounces@mail.example.org')).toBe(token);
    expect(tokenFromVerpAddress(`<${address.toUpperCase()}>`, 'bounces@mail.example.org')).toBe(token);
    expect(tokenFromVerpAddress(address, 'bounces@other.example.org')).toBeUndefined();
    expect(tokenFromVerpAddress('bounces@mail.example.org', 'bounces@mail.example.org')).toBeUndefined();
  });
});
