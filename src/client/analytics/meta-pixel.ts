// The Meta Pixel with the official fbq snippet, from Facebook's host: page views and the completed sign-up.
import type { AnalyticsProvider } from './analytics-provider';
import { removeProviderStorage } from './analytics-provider';
import { loadScript } from './load-script';
import { advancedMatching } from './person';

type Fbq = ((...args: unknown[]) => void) & {
  callMethod?: (...args: unknown[]) => void;
  queue: unknown[];
  push: Fbq;
  loaded: boolean;
  version: string;
  disablePushState?: boolean;
};

declare global {
  interface Window {
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

export const FBEVENTS_SCRIPT = 'https://connect.facebook.net/en_US/fbevents.js';

/** Spec section 7: the Lead event's parameters. */
export const LEAD_PARAMETERS = {
  content_name: 'signup',
  content_category: 'user_registration',
  value: 2,
  currency: 'USD',
} as const;

/** Meta's base code, unminified: fbq queues calls (as Arguments objects) until fbevents.js takes over. */
function installFbq(): void {
  if (window.fbq) return;
  const fbq = function (this: unknown) {
    // Meta's snippet passes the Arguments object on as it is; fbevents.js relies on that.
    // eslint-disable-next-line prefer-rest-params, prefer-spread
    if (fbq.callMethod) fbq.callMethod.apply(fbq, arguments as unknown as unknown[]);
    // eslint-disable-next-line prefer-rest-params
    else fbq.queue.push(arguments);
  } as Fbq;
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = '2.0';
  fbq.queue = [];
  window.fbq = fbq;
  window._fbq ??= fbq;
}

function fbq(...args: unknown[]): void {
  window.fbq?.(...args);
}

export function metaPixel(pixelId: string): AnalyticsProvider {
  let loading: Promise<void> | undefined;
  return {
    name: 'Meta Pixel',
    load() {
      if (loading) {
        fbq('consent', 'grant');
        return loading;
      }
      installFbq();
      // Page views are ours (one per route change), not the pixel's guess from history changes,
      // and the pixel does not read the page for buttons and metadata by itself.
      if (window.fbq) window.fbq.disablePushState = true;
      fbq('set', 'autoConfig', false, pixelId);
      fbq('init', pixelId);
      loading = loadScript(FBEVENTS_SCRIPT);
      return loading;
    },
    page(view) {
      fbq('track', 'PageView', { page_name: view.page_name, page_language: view.page_language });
    },
    track(event) {
      if (event.name !== 'sign_up') return; // the advertiser needs only the conversion
      fbq('track', 'Lead', { ...LEAD_PARAMETERS });
      fbq('track', 'CompleteRegistration');
    },
    identify(person) {
      // Manual advanced matching belongs to init; a second init with the same ID adds the user data.
      fbq('init', pixelId, advancedMatching(person));
    },
    disable() {
      fbq('consent', 'revoke');
      removeProviderStorage(['_fbp', '_fbc'], []);
    },
  };
}
