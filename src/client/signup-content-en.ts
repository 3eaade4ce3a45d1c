// The sign-up dialog's words in English (Spanish: signup-content-es.ts; the dialog imports signup-content.ts).
import { SIGNUP_CONSENT_VERSION, signupConsentWords } from '../shared/consent-words.js';
import { signupMessages } from '../shared/signup-schema.js';
import { productName } from './content-en';

export const signupDialog = {
  title: `Get Notified When ${productName} Launches`,
  subtitle: 'Sign up to get early access for your family.',
  close: 'Close',
  fields: {
    name: { label: 'Your Name', hint: '' },
    phone: {
      label: 'Phone Number',
      hint: 'For example, 555 123 4567. Include + and your country code if outside the US.',
    },
    email: { label: 'Email Address', hint: '' },
  },
  betaTesting: {
    label: 'Check if you would like to participate in beta testing',
    help: 'Get early access to new features and help us improve the app.',
  },
  /** Each sign-up stores the version it agreed to (shared/consent-words.ts: change it with the words). */
  consentVersion: SIGNUP_CONSENT_VERSION,
  /**
   * The spec's consent line: it stays in view beside the submit button however small the screen or large
   * the text (the dialog's action area, decision 059).
   */
  consent: signupConsentWords.en.consent,
  consentDetails: signupConsentWords.en.consentDetails,
  /** Follows the consent text; it closes the form and opens the privacy notice at the foot of the page. */
  privacyLink: 'Read our privacy notice.',
  submit: 'Protect My Family - Notify Me!',
  submitting: 'Adding to Protection List...',
  maybeLater: 'Maybe Later',
  errorSummaryTitle: 'There is a problem',
  /** Never seen by people (the bot trap); said plainly in case a tool shows it anyway. */
  trapLabel: 'Leave this box empty',
  errorPrefix: 'Error:',
  /** What each field's problem is called (spec section 5's messages: the schema's own words). */
  validation: signupMessages,
  /** Not in the spec, which shows no message: see docs/decisions/005-tell-visitors-a-save-failed.md. */
  saveFailed: 'Sorry, we could not add you just now. Nothing you typed was lost. Please try again in a moment.',
  success: {
    title: "You're On the Protection List!",
    text: `Thank you. We will let you know the moment ${productName} launches.`,
    /**
     * Shown only when new sign-ups are asked to confirm by email (the server's EMAIL_CONFIRMATION). It
     * cannot say more for a repeat sign-up without telling a stranger who is on the list (decision 041).
     */
    /** `reminderDays`: the one reminder that comes first, when one will (CONFIRMATION_REMINDER_DAYS). */
    confirmEmail: (days: number, reminderDays?: number) =>
      reminderDays
        ? `If this email is new to our list, we are sending you an email now. Pressing the button in it is what keeps you on the list. If you do not press it, we will send you one reminder in ${reminderDays} ${reminderDays === 1 ? 'day' : 'days'} and delete your details after ${days} days. Nothing more comes unless this form is used with your email again.`
        : `If this email is new to our list, we are sending you an email now. Pressing the button in it is what keeps you on the list. If you do not press it, we will delete your details after ${days} days. Nothing more comes unless this form is used with your email again.`,
    button: 'Got it - Keep my family safe!',
  },
};
