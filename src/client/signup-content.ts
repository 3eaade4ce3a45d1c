// The sign-up dialog's words in the build's language (signup-content-en.ts, signup-content-es.ts).
// Apart from content.ts so they load with the dialog, not with the page (docs/content.md).
import { language } from './language';
import * as en from './signup-content-en';
import * as es from './signup-content-es';

export const signupDialog = language === 'es' ? es.signupDialog : en.signupDialog;
