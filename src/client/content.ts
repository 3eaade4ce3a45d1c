// The page's words in its build's language (language.ts): English from content-en.ts, Spanish from
// content-es.ts (the same shape, checked by type and by src/client/words.test.ts). Components import
// their words from here, and the bundle keeps only the one language.
import * as en from './content-en';
import * as es from './content-es';
import { language } from './language';

export { productName, showSections } from './content-en';
export type { CarouselItem, FeatureCard, Statistic } from './content-en';

const words = language === 'es' ? es : en;

export const site = words.site;
export const shareCard = words.shareCard;
export const notFoundTitle = words.notFoundTitle;
export const hero = words.hero;
export const carousel = words.carousel;
export const scamStatistics = words.scamStatistics;
export const simpleSafeLearning = words.simpleSafeLearning;
export const founderStory = words.founderStory;
export const howItProtects = words.howItProtects;
export const realProtection = words.realProtection;
export const builtForFamilies = words.builtForFamilies;
export const closingCallToAction = words.closingCallToAction;
export const notFound = words.notFound;
export const footer = words.footer;
export const privacyNotice = words.privacyNotice;
export const languageSwitch = words.languageSwitch;
