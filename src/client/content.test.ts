import { describe, expect, it } from 'vitest';
import { consentBanner } from './consent-content';
import { hero, privacyNotice } from './content';
import {
  downloadCallToAction,
  launchedHero,
  launchedPrivacyChanges,
  launchedPrivacySections,
  launchedSite,
  storeLinks,
} from './launch-content';
import { signupDialog } from './signup-content';
import { readingGrade } from '../shared/reading-grade';
import { shareWordsIn } from '../shared/share-content';

const shareWords = shareWordsIn.en;

describe('plain language (about an 8th-grade reading level)', () => {
  const texts = {
    consent: signupDialog.consent,
    consentDetails: signupDialog.consentDetails,
    betaHelp: signupDialog.betaTesting.help,
    phoneHint: signupDialog.fields.phone.hint,
    saveFailed: signupDialog.saveFailed,
    cookieQuestion: consentBanner.explanation['opt-in']('Google Analytics and PostHog'),
    cookieQuestionOptOut: consentBanner.explanation['opt-out']('Google Analytics and PostHog'),
    // "Tell a family member": the panel's words and the message it passes on.
    share: Object.values(shareWords)
      .map((line) => (/[.!?:]$/.test(line) ? line : `${line}.`))
      .join(' '),
    privacyNotice: [
      ...privacyNotice.sections.flatMap((section) => section.paragraphs),
      ...Object.values(privacyNotice.cookies.providers),
      privacyNotice.cookies.globalPrivacyControl,
    ].join(' '),
  };

  it.each(Object.entries(texts))('%s reads at grade 9 or below', (_name, text) => {
    expect(readingGrade(text)).toBeLessThanOrEqual(9);
  });

  // The launched page speaks to people over 65 who may have waited for it: grade 8 at most.
  const launchedTexts = {
    title: launchedSite.title,
    description: launchedSite.description,
    heading: launchedHero.heading,
    heroDescription: hero.description.join(' '),
    getIt: launchedHero.getIt,
    whichStore: launchedHero.whichStore,
    storeButtons: storeLinks.links.map((link) => `${link.text}. ${link.phones}.`).join(' '),
    downloadCallToAction: `${downloadCallToAction.heading}. ${downloadCallToAction.text}`,
    shareImageAlt: launchedSite.shareImageAlt,
    privacyNotice: launchedPrivacySections()
      .flatMap((section) => section.paragraphs)
      .join(' '),
  };

  it.each(Object.entries(launchedTexts))('launched page: %s reads at grade 8 or below', (_name, text) => {
    expect(readingGrade(text)).toBeLessThanOrEqual(8);
  });

  it('the launched page says the app is here, and never that it is coming', () => {
    for (const text of Object.values(launchedTexts))
      expect(text).not.toMatch(/coming soon|notify|sign up|join the list/i);
    expect(launchedHero.heading).toMatch(/is here/);
    expect(launchedSite.title).toMatch(/is here/);
  });

  it("the launched page's privacy notice changes words that are still in the notice, and offers no sign-up", () => {
    const notice = privacyNotice.sections.flatMap((section) => [section.heading, ...section.paragraphs]).join('\n');
    for (const [from] of launchedPrivacyChanges) expect(notice).toContain(from);
    const launchedNotice = launchedPrivacySections().flatMap((section) => [section.heading, ...section.paragraphs]);
    expect(launchedNotice.join('\n')).not.toMatch(/when you sign up|signing up|sign-up steps/i);
    expect(launchedNotice).toContain('If you signed up');
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
