// The form's consent words and their version move together: every version the site has shown is
// listed here with a fingerprint of its words in both languages, so changing the words without a new
// SIGNUP_CONSENT_VERSION fails here (and a server given such a release refuses to start: compose.ts),
// and a proof of consent never quotes words a person did not see.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNUP_CONSENT_VERSION, signupConsentWords } from './consent-words.js';

/** Each version's words, by the SHA-256 of their JSON (add a line with each new version). */
const VERSIONS: Record<string, string> = {
  '2026-11-29': '844f412817f62b246918f10dfb9e721e3a94e4be04ce04fe32e0937b9c66ab70',
};

describe('the consent words', () => {
  it('are the words their version names', () => {
    const fingerprint = createHash('sha256').update(JSON.stringify(signupConsentWords)).digest('hex');
    expect(
      VERSIONS[SIGNUP_CONSENT_VERSION],
      `The consent words changed: give SIGNUP_CONSENT_VERSION a new value and add it here with ${fingerprint}`,
    ).toBe(fingerprint);
  });
});
