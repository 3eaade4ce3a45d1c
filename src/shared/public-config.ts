// What the server tells the page at run time: the analytics providers' public IDs, the consent mode,
// and whether new sign-ups are asked to confirm by email.
// Free of zod on purpose: the page reads this in its first script, which must stay small (docs/performance.md).

export const CONSENT_MODES = ['opt-in', 'opt-out'] as const;
export type ConsentMode = (typeof CONSENT_MODES)[number];

export { PUBLIC_CONFIG_ELEMENT_ID } from './analytics-constants.js';

export const GA_MEASUREMENT_ID_PATTERN = /^G-[A-Z0-9]{4,20}$/;
export const POSTHOG_KEY_PATTERN = /^phc_[A-Za-z0-9]{20,80}$/;
export const META_PIXEL_ID_PATTERN = /^\d{6,20}$/;

export interface PublicConfig {
  consentMode: ConsentMode;
  ga4?: { measurementId: string };
  posthog?: { key: string; host: string };
  metaPixel?: { pixelId: string };
  /** Present only when new sign-ups get a confirmation email (the success view then says so). */
  emailConfirmation?: true;
  /** With emailConfirmation: days until an unconfirmed sign-up is deleted (UNCONFIRMED_RETENTION_DAYS). */
  unconfirmedRetentionDays?: number;
  /** With emailConfirmation: the one reminder comes this many days after the email (absent: none will). */
  confirmationReminderDays?: number;
  /** Who sends, where (MAIL_POSTAL_ADDRESS): the privacy notice names it. */
  postalAddress?: string;
}

/** Who sends, and where, as the privacy notice and every list email's footer name it; nothing when unset. */
export function senderLine(postalAddress: string | undefined): string {
  return postalAddress ? `ScamSavvy, ${postalAddress}` : '';
}

/** The retention the page states when the server says nothing (confirmation off: nobody is deleted for it). */
export const DEFAULT_RETENTION_DAYS = 30;

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Exactly these keys, each a string matching its test; anything else is refused. */
function stringsOnly(value: unknown, tests: Record<string, (text: string) => boolean>): boolean {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === Object.keys(tests).length &&
    keys.every((key) => {
      const field = value[key];
      const test = tests[key];
      return test !== undefined && typeof field === 'string' && test(field);
    })
  );
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * Checks settings read back from a page: the shape `serialisePublicConfig` writes, nothing more.
 * Returns the reason when they are not valid (a damaged or hand-edited page).
 */
export function parsePublicConfig(value: unknown): { config: PublicConfig } | { problem: string } {
  if (!isObject(value)) return { problem: 'not an object' };
  const known = [
    'consentMode',
    'ga4',
    'posthog',
    'metaPixel',
    'emailConfirmation',
    'unconfirmedRetentionDays',
    'confirmationReminderDays',
    'postalAddress',
  ];
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length > 0) return { problem: `unknown settings: ${unknown.join(', ')}` };
  const {
    consentMode,
    ga4,
    posthog,
    metaPixel,
    emailConfirmation,
    unconfirmedRetentionDays,
    confirmationReminderDays,
    postalAddress,
  } = value;
  if (!CONSENT_MODES.includes(consentMode as ConsentMode)) return { problem: 'consentMode is not opt-in or opt-out' };
  const config: PublicConfig = { consentMode: consentMode as ConsentMode };
  if (ga4 !== undefined) {
    if (!stringsOnly(ga4, { measurementId: (text) => GA_MEASUREMENT_ID_PATTERN.test(text) }))
      return { problem: 'ga4 is not valid' };
    config.ga4 = ga4 as PublicConfig['ga4'];
  }
  if (posthog !== undefined) {
    if (!stringsOnly(posthog, { key: (text) => POSTHOG_KEY_PATTERN.test(text), host: isHttpUrl }))
      return { problem: 'posthog is not valid' };
    config.posthog = posthog as PublicConfig['posthog'];
  }
  if (metaPixel !== undefined) {
    if (!stringsOnly(metaPixel, { pixelId: (text) => META_PIXEL_ID_PATTERN.test(text) }))
      return { problem: 'metaPixel is not valid' };
    config.metaPixel = metaPixel as PublicConfig['metaPixel'];
  }
  if (emailConfirmation !== undefined) {
    // Written only when on, so `true` is the one value a page may hold.
    if (emailConfirmation !== true) return { problem: 'emailConfirmation is not true' };
    config.emailConfirmation = true;
  }
  if (unconfirmedRetentionDays !== undefined) {
    if (
      typeof unconfirmedRetentionDays !== 'number' ||
      !Number.isInteger(unconfirmedRetentionDays) ||
      unconfirmedRetentionDays < 1 ||
      unconfirmedRetentionDays > 3650
    )
      return { problem: 'unconfirmedRetentionDays is not a whole number of days' };
    config.unconfirmedRetentionDays = unconfirmedRetentionDays;
  }
  if (confirmationReminderDays !== undefined) {
    if (
      typeof confirmationReminderDays !== 'number' ||
      !Number.isInteger(confirmationReminderDays) ||
      confirmationReminderDays < 1 ||
      confirmationReminderDays > 3650
    )
      return { problem: 'confirmationReminderDays is not a whole number of days' };
    config.confirmationReminderDays = confirmationReminderDays;
  }
  if (postalAddress !== undefined) {
    if (typeof postalAddress !== 'string' || postalAddress.length < 10 || postalAddress.length > 300)
      return { problem: 'postalAddress is not valid' };
    config.postalAddress = postalAddress;
  }
  return { config };
}

/** True when at least one provider is switched on (otherwise the page loads no analytics code at all). */
export function hasProvider(config: PublicConfig): boolean {
  return Boolean(config.ga4 ?? config.posthog ?? config.metaPixel);
}

/** The page's configuration before the server has said anything (prerendering, tests): no providers. */
export const NO_ANALYTICS: PublicConfig = { consentMode: 'opt-in' };

/** JSON that is safe inside a <script type="application/json"> block: no "</script>" can close it early. */
export function serialisePublicConfig(config: PublicConfig): string {
  return JSON.stringify(config)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The origins each provider's scripts come from and send to, for the Content-Security-Policy.
 * gtag.js: *.googletagmanager.com, then hits to *.google-analytics.com and *.analytics.google.com.
 * PostHog: the API host, and its "-assets" twin for array.js and the recorder (the official snippet's rule).
 * Meta Pixel: connect.facebook.net for fbevents.js and its config, www.facebook.com/tr for hits.
 */
export function providerOrigins(config: PublicConfig): { script: string[]; connect: string[]; image: string[] } {
  const script: string[] = [];
  const connect: string[] = [];
  const image: string[] = [];
  if (config.ga4) {
    // Google's own list for GA4 under a CSP (developers.google.com/tag-platform/security/guides/csp).
    script.push('https://*.googletagmanager.com');
    connect.push('https://*.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com');
    image.push('https://*.googletagmanager.com', 'https://*.google-analytics.com');
  }
  if (config.posthog) {
    const api = new URL(config.posthog.host).origin;
    const assets = posthogAssetsOrigin(config.posthog.host);
    script.push(...new Set([api, assets]));
    connect.push(...new Set([api, assets]));
  }
  if (config.metaPixel) {
    script.push('https://connect.facebook.net');
    connect.push('https://connect.facebook.net', 'https://www.facebook.com');
    image.push('https://www.facebook.com');
  }
  return { script, connect, image };
}

/** PostHog Cloud serves its scripts from "us-assets.i.posthog.com" for "us.i.posthog.com"; a self-hosted or proxied host serves its own. */
export function posthogAssetsOrigin(host: string): string {
  return new URL(host).origin.replace('.i.posthog.com', '-assets.i.posthog.com');
}
