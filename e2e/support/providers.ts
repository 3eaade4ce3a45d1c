// Stands in for the analytics providers' hosts, so nothing leaves the machine: every request to
// them is answered here and written down. Our own code and server are never faked.
import type { BrowserContext, Route } from '@playwright/test';

export const TEST_IDS = {
  GA_MEASUREMENT_ID: 'G-E2ETEST01',
  POSTHOG_KEY: 'phc_e2etestkeye2etestkeye2etestkey',
  POSTHOG_HOST: 'https://us.i.posthog.com',
  META_PIXEL_ID: '123456789012345',
} as const;

export const PROVIDER_SCRIPTS = {
  ga4: /^https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=G-E2ETEST01$/,
  posthog: /^https:\/\/us-assets\.i\.posthog\.com\/static\/array\.js$/,
  metaPixel: /^https:\/\/connect\.facebook\.net\/en_US\/fbevents\.js$/,
};

export interface ProviderTraffic {
  /** Every request the page made to a host that is not ours, in order. */
  requests: string[];
  /** Makes one provider's script fail to load, as an ad blocker or a dropped connection would. */
  failScript: (pattern: RegExp) => void;
}

/**
 * Answers every request that leaves 127.0.0.1. The providers' scripts are answered with an empty
 * script, so each provider's official stub (window.dataLayer, fbq.queue, the posthog array) keeps
 * the calls our code made, in order, for the test to read.
 */
export async function interceptProviders(context: BrowserContext): Promise<ProviderTraffic> {
  const requests: string[] = [];
  const failing: RegExp[] = [];
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, async (route: Route) => {
    const url = route.request().url();
    requests.push(url);
    if (failing.some((pattern) => pattern.test(url))) return route.abort('blockedbyclient');
    if (Object.values(PROVIDER_SCRIPTS).some((pattern) => pattern.test(url))) {
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: '/* provider script stand-in */' });
    }
    return route.fulfill({ status: 204, body: '' });
  });
  return { requests, failScript: (pattern) => failing.push(pattern) };
}
