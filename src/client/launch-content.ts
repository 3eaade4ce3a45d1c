// The launched page's words in the build's language (launch-content-en.ts, launch-content-es.ts): only
// the launched page's bundle carries them (src/client/site-mode.ts, docs/decisions/022-launch-mode.md).
import { privacyNotice } from './content';
import { language } from './language';
import * as en from './launch-content-en';
import * as es from './launch-content-es';

export type { StoreLinkWords } from './launch-content-en';

// Each word by its own name (never the whole module as a value), so the bundle keeps only the words its
// page's script uses, in one language.

export const launchedSite = language === 'es' ? es.launchedSite : en.launchedSite;
export const launchedHero = language === 'es' ? es.launchedHero : en.launchedHero;
export const storeLinks = language === 'es' ? es.storeLinks : en.storeLinks;
export const downloadCallToAction = language === 'es' ? es.downloadCallToAction : en.downloadCallToAction;
export const launchedPrivacyChanges = language === 'es' ? es.launchedPrivacyChanges : en.launchedPrivacyChanges;

/** The privacy notice's text with the launched page's changes made (each names the exact words it replaces). */
export function withLaunchedChanges(text: string, changes = launchedPrivacyChanges): string {
  return changes.reduce((changed, [from, to]) => changed.replace(from, to), text);
}

/** A function, not a value: the coming-soon page's bundle then leaves all of this out. */
export function launchedPrivacySections(): typeof privacyNotice.sections {
  return privacyNotice.sections.map((section) => ({
    heading: withLaunchedChanges(section.heading),
    paragraphs: section.paragraphs.map((paragraph) => withLaunchedChanges(paragraph)),
  }));
}
