// Issue 45: every word of the page in both languages. A key in one language and not the other fails
// here (the type of each Spanish object checks the same at build time), as does a Spanish text left
// in English, and the Spanish is held to the English reading bar (Fernández-Huerta, same grade).
import { describe, expect, it } from 'vitest';
import { wordsShape, wordsTexts } from '../shared/languages.js';
import { readingGradeIn } from '../shared/reading-grade.js';
import { shareWordsIn } from '../shared/share-content.js';
import { textSizeWords } from '../shared/text-size.js';
import * as consentEn from './consent-content-en';
import * as consentEs from './consent-content-es';
import * as contentEn from './content-en';
import * as contentEs from './content-es';
import * as launchEn from './launch-content-en';
import * as launchEs from './launch-content-es';
import * as signupEn from './signup-content-en';
import * as signupEs from './signup-content-es';

/** The page's words, by file, in each language (content-en.ts's switches and name are not words). */
const { productName: _name, showSections: _sections, ...englishContent } = contentEn;
const sets = {
  content: { en: englishContent, es: contentEs },
  signup: { en: signupEn, es: signupEs },
  consent: { en: consentEn, es: consentEs },
  launch: { en: launchEn, es: launchEs },
  share: shareWordsIn,
  textSize: textSizeWords,
};

/** Texts that are the same in both languages: names, numbers, addresses, ids and the STOP/START words. */
const SAME_IN_BOTH = new Set([
  '404',
  'Error:',
  'App Store',
  'Google Play',
  'Normal',
  'privacy-notice',
  'privacy@scamsavvy.example',
  'image/png',
]);
const sameAllowed = (path: string, text: string) =>
  SAME_IN_BOTH.has(text) ||
  /(^|\.)(image|icon|platform|sourceUrl|hint|figure|consentVersion)$/.test(path) ||
  /\.image\.|\.shareImage\.|sourceUrl/.test(path) ||
  /^figures\[\d\]\.source$|headline\.source$/.test(path) ||
  text === '';

describe('the page in English and in Spanish', () => {
  it.each(Object.entries(sets))(
    '%s: every key in one language is in the other, holding the same kind of thing',
    (_name, set) => {
      expect(wordsShape(set.es)).toEqual(wordsShape(set.en));
    },
  );

  it.each(Object.entries(sets))('%s: every Spanish text is written in Spanish, not left in English', (_name, set) => {
    const english = new Map(wordsTexts(set.en));
    const untranslated = wordsTexts(set.es).filter(
      ([path, text]) => english.get(path) === text && !sameAllowed(path, text),
    );
    expect(untranslated).toEqual([]);
  });

  it('the Spanish page says its language, and offers the English one (and the other way round)', () => {
    expect(contentEn.languageSwitch).toMatchObject({ to: 'es', href: '/es/', text: 'Español' });
    expect(contentEs.languageSwitch).toMatchObject({ to: 'en', href: '/', text: 'English' });
    // WCAG 2.5.3: what a screen reader hears contains the words on the link.
    expect(contentEn.languageSwitch.label.toLowerCase()).toContain(contentEn.languageSwitch.text.toLowerCase());
    expect(contentEs.languageSwitch.label.toLowerCase()).toContain(contentEs.languageSwitch.text.toLowerCase());
  });

  // The English checks (content.test.ts) at the same bars: grade 9 for the form's small print, 8 for the rest.
  const spanish = {
    consent: [signupEs.signupDialog.consent, 9],
    consentDetails: [signupEs.signupDialog.consentDetails, 9],
    betaHelp: [signupEs.signupDialog.betaTesting.help, 9],
    phoneHint: [signupEs.signupDialog.fields.phone.hint, 9],
    saveFailed: [signupEs.signupDialog.saveFailed, 9],
    confirmEmail: [signupEs.signupDialog.success.confirmEmail(30, 3), 9],
    cookieQuestion: [consentEs.consentBanner.explanation['opt-in']('Google Analytics y PostHog'), 9],
    cookieQuestionOptOut: [consentEs.consentBanner.explanation['opt-out']('Google Analytics y PostHog'), 9],
    share: [
      Object.values(shareWordsIn.es)
        .map((line) => (/[.!?:]$/.test(line) ? line : `${line}.`))
        .join(' '),
      9,
    ],
    privacyNotice: [
      [
        ...contentEs.privacyNotice.sections.flatMap((section) => section.paragraphs),
        ...Object.values(contentEs.privacyNotice.cookies.providers),
        contentEs.privacyNotice.cookies.globalPrivacyControl,
      ].join(' '),
      9,
    ],
    heroDescription: [contentEs.hero.description.join(' '), 8],
    statistics: [contentEs.scamStatistics.intro, 8],
    steps: [contentEs.simpleSafeLearning.steps.map((step) => `${step.title}. ${step.text}`).join(' '), 8],
    launchedTitle: [launchEs.launchedSite.description, 8],
    whichStore: [launchEs.launchedHero.whichStore, 8],
    downloadCallToAction: [`${launchEs.downloadCallToAction.heading}. ${launchEs.downloadCallToAction.text}`, 8],
  } satisfies Record<string, [string, number]>;

  it.each(Object.entries(spanish))(
    'Spanish %s reads at its grade or below (Fernández-Huerta)',
    (_name, [text, bar]) => {
      expect(readingGradeIn('es', text)).toBeLessThanOrEqual(bar);
    },
  );

  it('the Spanish measure tells plain words from hard ones, and counts syllables as Spanish spells them', async () => {
    const { spanishSyllables } = await import('../shared/reading-grade.js');
    expect([
      spanishSyllables('bueno'),
      spanishSyllables('día'),
      spanishSyllables('poeta'),
      spanishSyllables('ciudad'),
      spanishSyllables('aplicación'),
      spanishSyllables('y'),
    ]).toEqual([2, 2, 3, 2, 4, 1]);
    expect(readingGradeIn('es', 'Le avisaremos cuando salga la app. Es gratis.')).toBeLessThan(6);
    expect(
      readingGradeIn(
        'es',
        'No obstante las consideraciones anteriormente mencionadas, la autorización constituye una condición previa e irrevocable de participación.',
      ),
    ).toBeGreaterThan(12);
  });
});
