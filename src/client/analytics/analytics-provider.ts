// The port every analytics provider implements (Google Analytics 4, PostHog, Meta Pixel).
import type { AnalyticsEvent } from '../../shared/analytics-events.js';
import type { Language } from '../../shared/languages.js';

/** Spec section 7: a page view's parameters (the page's title and address go to providers only). */
export interface PageView {
  page_name: string;
  /** The page's language (issue 45): 'en' at /, 'es' at /es/. */
  page_language: Language;
  page_title: string;
  page_location: string;
}

/** Events other than page views. */
export type TrackedEvent = Exclude<AnalyticsEvent, { name: 'page_view' }>;

/** Who signed up (spec section 3, "sign-up completion data used for tracking"). */
export interface SignupPerson {
  name: string;
  email: string;
  phone: string;
}

export interface AnalyticsProvider {
  /** For logs and the privacy notice ("Google Analytics"). */
  readonly name: string;
  /** Loads the provider's script from its own host; rejects if it cannot. */
  load(): Promise<void>;
  page(view: PageView): void;
  track(event: TrackedEvent): void;
  /** Only providers allowed to receive personal data implement this (never Google Analytics). */
  identify?(person: SignupPerson): void;
  /** The visitor withdrew consent: stop sending and forget what the provider stored. */
  disable?(): void;
}

/** Cookie and storage names a provider sets, so they can be removed when consent is withdrawn. */
export function removeProviderStorage(cookiePrefixes: string[], storagePrefixes: string[]): void {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim() ?? '';
    if (!cookiePrefixes.some((prefix) => name.startsWith(prefix))) continue;
    // Providers set cookies on the registrable domain or the host; expire both.
    const domains = ['', `; domain=${window.location.hostname}`, `; domain=.${window.location.hostname}`];
    for (const domain of domains) document.cookie = `${name}=; max-age=0; path=/${domain}`;
  }
  for (const store of [window.localStorage, window.sessionStorage]) {
    for (const key of Object.keys(store)) {
      if (storagePrefixes.some((prefix) => key.startsWith(prefix))) store.removeItem(key);
    }
  }
}
