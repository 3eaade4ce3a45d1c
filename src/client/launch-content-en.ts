// The words of the launched page (SITE_MODE=launched) in English (Spanish: launch-content-es.ts): only
// the launched page's bundle carries them (launch-content.ts; src/client/site-mode.ts,
// docs/decisions/022-launch-mode.md). The rest of its words are in content-en.ts.
import type { DownloadPlatform } from '../shared/analytics-constants.js';
import { productName } from './content-en';

/** The launched page's title, description and share card (in place of `site` and `shareCard`). */
export const launchedSite = {
  title: `${productName} is here: the app that helps you spot scams`,
  description: `${productName} is here. The phone app helps older adults spot scam emails, calls and texts through safe practice, with live support and updates for family. Get it on the App Store or Google Play.`,
  shareImage: { path: '/share-image-launched.png', width: 1200, height: 630, type: 'image/png' },
  shareImageAlt: `The ${productName} shield and the words: Practice spotting scams, safely. Pretend scam emails, calls and texts, with friendly help. Out now on the App Store and Google Play.`,
};

export interface StoreLinkWords {
  platform: DownloadPlatform;
  /** The link's first line. */
  text: string;
  /** Its second line: which phones the store is for. */
  phones: string;
}

export const launchedHero = {
  heading: `${productName} is here!`,
  /** Above the store buttons. */
  getIt: 'Get the app on your phone today:',
  /** Under them, for a visitor who is not sure which store is theirs. */
  whichStore: 'Not sure which one? An iPhone or iPad uses the App Store. Most other phones use Google Play.',
};

/** The store buttons: they lead to our own /app/ios and /app/android, which send each on to its store. */
export const storeLinks = {
  label: 'Get the app',
  links: [
    { platform: 'ios', text: 'Get it on the App Store', phones: 'For iPhone and iPad' },
    { platform: 'android', text: 'Get it on Google Play', phones: 'For Android phones' },
  ] satisfies StoreLinkWords[],
};

/** In place of the sign-up call to action, behind the same switch (`showSections.closingCallToAction`). */
export const downloadCallToAction = {
  heading: `Start Practicing with ${productName} Today`,
  text: 'Pick the store for your phone. The app takes a few minutes to set up, and a family member can help.',
};

/**
 * The privacy notice once launched: the same notice (content.ts), for people who signed up before,
 * since the page takes no sign-ups now. Each change names the exact words it replaces (a test checks
 * they are still there, so an edit to the notice cannot silently skip its launched twin).
 */
export const launchedPrivacyChanges: [from: string, to: string][] = [
  ['When you sign up', 'If you signed up'],
  ['page views, scrolling and sign-up steps', 'page views, scrolling and presses on the store buttons'],
  [
    ' Someone else typing your email or number into this page does not undo that: only you can, with the button in the one email we then send you, or by texting START.',
    ' Only you can undo that: from your own page (a link in every email), or by texting START.',
  ],
];
