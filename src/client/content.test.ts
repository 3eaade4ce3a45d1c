import { describe, expect, it } from 'vitest';
import { consentBanner } from './consent-content';
import { privacyNotice } from './content';
import { signupDialog } from './signup-content';
import { readingGrade } from '../shared/reading-grade';

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
