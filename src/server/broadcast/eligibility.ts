// Who may get a broadcast's message on a channel: the one contact rule (consent/contact-rule.ts),
// used when the broadcast is created (and topped up) and again right before each message goes out,
// with the suppression list read a page of people at a time (Subscriptions.suppressionsFor).
export { EXCLUSION_WORDS, EXCLUSIONS, exclusionOf, type Audience, type Exclusion } from '../consent/contact-rule.js';
