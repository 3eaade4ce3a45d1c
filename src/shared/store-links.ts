// Our own addresses that send a visitor on to the app's store (src/server/site/app-link-routes.ts): the
// launched page's buttons and the launch messages link here, never to a store directly.
import type { DownloadPlatform } from './analytics-constants.js';

/** Picks the store by the phone's User-Agent; the launched page when it cannot tell. */
export const APP_LINK_PATH = '/app';

export const STORE_LINK_PATHS: Record<DownloadPlatform, string> = {
  ios: '/app/ios',
  android: '/app/android',
};

/** The beta testers' links (TestFlight, Google Play testing), and the one that picks by phone. */
export const BETA_LINK_PATH = '/beta';

export const BETA_LINK_PATHS: Record<DownloadPlatform, string> = {
  ios: '/beta/ios',
  android: '/beta/android',
};
