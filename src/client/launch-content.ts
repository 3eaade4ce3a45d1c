// The launched page's words in the build's language (launch-content-en.ts, launch-content-es.ts): only
// the launched page's bundle carries them (src/client/site-mode.ts, docs/decisions/022-launch-mode.md).
import { privacyNotice } from './content';
import { language } from './language';
import * as en from './launch-content-en';
import * as es from './launch-content-es';

export type { StoreLinkWords } from './launch-content-en';

const words = language === 'es' ? es : en;

export const launchedSite = words.launchedSite;
export const launchedHero = words.launchedHero;
export const storeLinks = words.storeLinks;
export const downloadCallToAction = words.downloadCallToAction;
export const launchedPrivacyChanges = words.launchedPrivacyChanges;

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
