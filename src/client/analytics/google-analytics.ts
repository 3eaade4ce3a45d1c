// Google Analytics 4 through gtag.js, from Google's host. It never receives personal data (its terms forbid it).
import type { AnalyticsProvider } from './analytics-provider';
import { removeProviderStorage } from './analytics-provider';
import { loadScript } from './load-script';

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

export const GTAG_SCRIPT = 'https://www.googletagmanager.com/gtag/js';

/** gtag.js reads Arguments objects from the dataLayer, not arrays: this is Google's own snippet, typed. */
function gtag(..._args: unknown[]): void {
  // eslint-disable-next-line prefer-rest-params
  window.dataLayer?.push(arguments);
}

export function googleAnalytics(measurementId: string): AnalyticsProvider {
  let loading: Promise<void> | undefined;
  const disableFlag = `ga-disable-${measurementId}`;

  return {
    name: 'Google Analytics',
    load() {
      if (loading) {
        (window as unknown as Record<string, unknown>)[disableFlag] = false; // consent given again
        return loading;
      }
      window.dataLayer = window.dataLayer ?? [];
      window.gtag = gtag;
      // Measurement only: nothing of this site's visitors goes to Google's advertising.
      gtag('consent', 'default', {
        analytics_storage: 'granted',
        ad_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
      });
      gtag('js', new Date());
      gtag('config', measurementId, {
        send_page_view: false, // page views are ours, one per route change
        allow_google_signals: false,
        allow_ad_personalization_signals: false,
      });
      loading = loadScript(`${GTAG_SCRIPT}?id=${encodeURIComponent(measurementId)}`);
      return loading;
    },
    page(view) {
      gtag('event', 'page_view', view);
    },
    track(event) {
      gtag('event', event.name, event.params);
    },
    disable() {
      (window as unknown as Record<string, unknown>)[disableFlag] = true;
      removeProviderStorage(['_ga', '_gid', '_gat'], []);
    },
  };
}
