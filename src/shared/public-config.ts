// What the server tells the page at run time: the analytics providers' public IDs and the consent mode.
import { z } from 'zod';

export const CONSENT_MODES = ['opt-in', 'opt-out'] as const;
export type ConsentMode = (typeof CONSENT_MODES)[number];

/** The id of the JSON data block the server writes into every page (data, never run as a script). */
export const PUBLIC_CONFIG_ELEMENT_ID = 'public-config';

export const GA_MEASUREMENT_ID_PATTERN = /^G-[A-Z0-9]{4,20}$/;
export const POSTHOG_KEY_PATTERN = /^phc_[A-Za-z0-9]{20,80}$/;
export const META_PIXEL_ID_PATTERN = /^\d{6,20}$/;

export const publicConfigSchema = z.strictObject({
  consentMode: z.enum(CONSENT_MODES),
  ga4: z.strictObject({ measurementId: z.string().regex(GA_MEASUREMENT_ID_PATTERN) }).optional(),
  posthog: z
    .strictObject({ key: z.string().regex(POSTHOG_KEY_PATTERN), host: z.url({ protocol: /^https?$/ }) })
    .optional(),
  metaPixel: z.strictObject({ pixelId: z.string().regex(META_PIXEL_ID_PATTERN) }).optional(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

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
