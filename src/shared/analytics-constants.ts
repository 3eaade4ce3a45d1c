// The fixed values of the spec's analytics events (section 7), kept free of zod so the page's first script stays small.

/** Spec section 9: scroll tracking fires only at multiples of 25 percent above 0. */
export const SCROLL_THRESHOLDS = [25, 50, 75, 100] as const;
export type ScrollPercentage = (typeof SCROLL_THRESHOLDS)[number];

export const SIGNUP_METHOD = 'modal';
export const SIGNUP_FORM_NAME = 'signup_modal';
export const SIGNUP_INTEREST_BUTTON = 'signup_interest';
export const DOWNLOAD_SOURCE = 'landing_page';
export const DOWNLOAD_PLATFORMS = ['ios', 'android'] as const;
export type DownloadPlatform = (typeof DOWNLOAD_PLATFORMS)[number];
export const BUTTON_SECTIONS = ['hero_section', 'cta_section'] as const;
/** The spec's element_name (section 3): which kind of control was pressed. */
export const ELEMENT_NAMES = ['signup_button', 'store_badge', 'store_button'] as const;
export type ElementName = (typeof ELEMENT_NAMES)[number];
/** How a person passed their link on ("Tell a family member"): the phone's share sheet, a text, an email, a copy. */
export const SHARE_METHODS = ['native', 'sms', 'email', 'copy'] as const;
export type ShareMethod = (typeof SHARE_METHODS)[number];

/** Where the page sends its first-party events (POST, a JSON `{ events }` batch). */
export const EVENTS_ENDPOINT = '/api/events';

/** What a page name or section id may hold: a URL path as the browser percent-encodes it, never free text. */
export const EVENT_TEXT_PATTERN = /^[\p{L}\p{N}._~/%!$&'()*+,;=:@-]+$/u;
/** The characters outside that pattern, for replacing in a name the page is about to send. */
export const EVENT_TEXT_DISALLOWED = /[^\p{L}\p{N}._~/%!$&'()*+,;=:@-]/gu;

/** The id of the JSON data block the server writes into every page (data, never run as a script). */
export const PUBLIC_CONFIG_ELEMENT_ID = 'public-config';

/** Analytics calls kept while waiting for consent: a long visit without an answer does not grow without end. */
export const ANALYTICS_QUEUE_LIMIT = 200;

/** The one warning logged when analytics turns off (spec section 4: unsupported, so never replayed). */
export function analyticsOffMessage(reason: string): string {
  return `Analytics is off: ${reason}. No events are sent to analytics providers.`;
}
