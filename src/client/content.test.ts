import { describe, expect, it } from 'vitest';
import { consentBanner } from './consent-content';
import { privacyNotice } from './content';
import { signupDialog } from './signup-content';

/** Syllables by vowel groups, the usual approximation (a silent final "e" does not count). */
function syllables(word: string): number {
  const letters = word.toLowerCase().replace(/[^a-z]/g, '');
  if (letters.length <= 3) return 1;
  const groups = letters.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '').match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups?.length ?? 1);
}

/** The Flesch-Kincaid grade level: the school grade a reader needs. */
function readingGrade(text: string): number {
  const sentences = text.split(/[.!?]+(?:\s|$)/).filter((sentence) => sentence.trim() !== '');
  const words = text.split(/\s+/).filter((word) => /[a-z]/i.test(word));
  const syllableCount = words.reduce((sum, word) => sum + syllables(word), 0);
  return 0.39 * (words.length / sentences.length) + 11.8 * (syllableCount / words.length) - 15.59;
}

describe('plain language (about an 8th-grade reading level)', () => {
  const texts = {
    consent: signupDialog.consent,
    betaHelp: signupDialog.betaTesting.help,
    phoneHint: signupDialog.fields.phone.hint,
    saveFailed: signupDialog.saveFailed,
    cookieQuestion: consentBanner.explanation['opt-in']('Google Analytics and PostHog'),
    cookieQuestionOptOut: consentBanner.explanation['opt-out']('Google Analytics and PostHog'),
    privacyNotice: [
      ...privacyNotice.sections.flatMap((section) => section.paragraphs),
      ...Object.values(privacyNotice.cookies.providers),
      privacyNotice.cookies.globalPrivacyControl,
    ].join(' '),
  };

  it.each(Object.entries(texts))('%s reads at grade 9 or below', (_name, text) => {
    expect(readingGrade(text)).toBeLessThanOrEqual(9);
  });

  it('the measure tells plain words from hard ones', () => {
    expect(readingGrade('We will tell you when the app is ready. It is free.')).toBeLessThan(4);
    expect(
      readingGrade(
        'Notwithstanding the aforementioned considerations, authorisation constitutes an irrevocable precondition of participation.',
      ),
    ).toBeGreaterThan(15);
  });
});
