// The cookie question's words in English (Spanish: consent-content-es.ts; the page imports consent-content.ts).

/** The question asked before any analytics or advertising cookie is set (CONSENT_MODE, docs/analytics.md). */
export const consentBanner = {
  label: 'Cookie choices',
  heading: 'May we use cookies?',
  /** `providers` lists only those switched on for this site, e.g. "Google Analytics and PostHog". */
  explanation: {
    'opt-in': (providers: string) =>
      `We would like to use cookies from ${providers} to learn how people use this page and to reach more families with our ads. Nothing is switched on unless you say yes.`,
    'opt-out': (providers: string) =>
      `We use cookies from ${providers} to learn how people use this page and to reach more families with our ads. You can say no, and we will switch them off.`,
  },
  /** Between the last two providers' names ("Google Analytics and PostHog"). */
  and: 'and',
  accept: 'Accept cookies',
  reject: 'Reject cookies',
  privacyLink: 'Read our privacy notice',
  current: {
    accepted: 'You said yes to cookies.',
    rejected: 'You said no to cookies.',
  },
};
