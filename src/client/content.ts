// The page's words in its build's language (language.ts): English from content-en.ts, Spanish from
// content-es.ts (the same shape, checked by type and by src/client/words.test.ts). Components import
// their words from here, and the bundle keeps only the one language.
import * as en from './content-en';
import * as es from './content-es';
import { language } from './language';

export { productName, showSections } from './content-en';
export type { CarouselItem, FeatureCard, Statistic } from './content-en';

// Each word by its own name (never the whole module as a value), so the bundle keeps only the words its
// page's script uses, in one language.

export const site = language === 'es' ? es.site : en.site;
export const shareCard = language === 'es' ? es.shareCard : en.shareCard;
export const notFoundTitle = language === 'es' ? es.notFoundTitle : en.notFoundTitle;
export const hero = language === 'es' ? es.hero : en.hero;
export const carousel = language === 'es' ? es.carousel : en.carousel;
export const scamStatistics = language === 'es' ? es.scamStatistics : en.scamStatistics;
export const simpleSafeLearning = language === 'es' ? es.simpleSafeLearning : en.simpleSafeLearning;
export const founderStory = language === 'es' ? es.founderStory : en.founderStory;
export const howItProtects = language === 'es' ? es.howItProtects : en.howItProtects;
export const realProtection = language === 'es' ? es.realProtection : en.realProtection;
export const builtForFamilies = language === 'es' ? es.builtForFamilies : en.builtForFamilies;
export const closingCallToAction = language === 'es' ? es.closingCallToAction : en.closingCallToAction;
export const notFound = language === 'es' ? es.notFound : en.notFound;
export const footer = language === 'es' ? es.footer : en.footer;
export const privacyNotice = language === 'es' ? es.privacyNotice : en.privacyNotice;
export const languageSwitch = language === 'es' ? es.languageSwitch : en.languageSwitch;
