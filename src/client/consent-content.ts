// The cookie question's words in the build's language (consent-content-en.ts, consent-content-es.ts).
// Apart from content.ts so they load only on a site that asks (docs/content.md).
import * as en from './consent-content-en';
import * as es from './consent-content-es';
import { language } from './language';

export const consentBanner = language === 'es' ? es.consentBanner : en.consentBanner;
