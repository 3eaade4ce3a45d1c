// What the page calls to record the spec's events (section 7): to our own server always, to the providers once allowed.
import {
  DOWNLOAD_SOURCE,
  EVENT_TEXT_DISALLOWED,
  ANALYTICS_QUEUE_LIMIT,
  analyticsOffMessage,
  PUBLIC_CONFIG_ELEMENT_ID,
  SIGNUP_FORM_NAME,
  SIGNUP_INTEREST_BUTTON,
  SIGNUP_METHOD,
  type DownloadPlatform,
  type ShareMethod,
  type ScrollPercentage,
} from '../../shared/analytics-constants.js';
import type { AnalyticsEvent } from '../../shared/analytics-events.js';
import type { SignupButton } from '../../shared/signup-schema.js';
import type { SignupPerson, TrackedEvent } from './analytics-provider';
import { initialiseConsent, readStoredChoice } from './consent';
import type { AnalyticsCall, AnalyticsQueue } from './event-queue';
import { createFirstPartyEvents } from './first-party-events';
import { language } from '../language';

/** Longest page name or section sent (the server refuses longer ones). */
const TEXT_LIMIT = 120;

/** A page name or section id the server accepts: odd characters (a path nobody encoded) become "_". */
export function eventText(value: string): string {
  // Cut at TEXT_LIMIT UTF-16 units (the server's measure), never inside a surrogate pair.
  const clipped = value
    .replace(EVENT_TEXT_DISALLOWED, '_')
    .slice(0, TEXT_LIMIT)
    .replace(/[\uD800-\uDBFF]$/, '');
  return clipped || '_';
}

/**
 * Calls for the providers wait here until analytics starts; then the queue (in the boot code, which
 * loads only where a provider is configured) takes them over, or they are dropped when it is off.
 */
const pending: AnalyticsCall[] = [];
let queue: AnalyticsQueue | 'off' | undefined;

function push(call: AnalyticsCall): void {
  if (queue === 'off') return;
  if (queue) queue.push(call);
  else if (pending.length < ANALYTICS_QUEUE_LIMIT) pending.push(call);
}

function turnOff(reason: string): void {
  if (typeof queue === 'object') {
    queue.turnOff(reason);
    return;
  }
  if (queue === undefined) console.warn(analyticsOffMessage(reason));
  queue = 'off';
  pending.length = 0;
}
const firstParty = createFirstPartyEvents();
let pageName = 'home';

/** Analytics never gets in the visitor's way: whatever goes wrong here is logged and forgotten. */
function safely(action: () => void): void {
  try {
    action();
  } catch (error) {
    console.warn('Analytics: an event could not be recorded.', error);
  }
}

/** Every event says which language its page is in (issue 45): the funnel splits by it. */
function record(unlabelled: AnalyticsEvent): void {
  const event = { ...unlabelled, params: { ...unlabelled.params, page_language: language } } as AnalyticsEvent;
  safely(() => {
    firstParty.add(event);
    if (event.name !== 'page_view') push({ kind: 'track', event: event as TrackedEvent });
  });
}

/** Spec section 2: every route change records a page view ('home' for '/', else the path without its slash). */
export function trackPageView(name: string): void {
  pageName = eventText(name);
  record({ name: 'page_view', params: { page_name: pageName } });
  safely(() =>
    push({
      kind: 'page',
      view: {
        page_name: pageName,
        page_language: language,
        page_title: document.title,
        page_location: window.location.href,
      },
    }),
  );
}

export function trackScrollDepth(percentage: ScrollPercentage, section: string): void {
  record({
    name: 'scroll_depth',
    params: { page_name: pageName, scroll_percentage: percentage, section: eventText(section) },
  });
}

/** A sign-up button was pressed, in the hero or the closing call to action. */
export function trackSignupInterest(section: SignupButton): void {
  record({
    name: 'button_click',
    params: {
      page_name: pageName,
      button_name: SIGNUP_INTEREST_BUTTON,
      section,
      location: section,
      element_name: 'signup_button',
    },
  });
}

/** The sign-up dialog opened. */
export function trackSignupStart(): void {
  record({ name: 'sign_up_start', params: { page_name: pageName, method: SIGNUP_METHOD } });
}

/**
 * A sign-up was saved. Who signed up goes only to the providers allowed personal data (PostHog as
 * person properties, the Meta Pixel as advanced matching), never to Google Analytics or our events.
 */
export function trackSignup(person: SignupPerson & { betaTesting: boolean }): void {
  safely(() => push({ kind: 'identify', person: { name: person.name, email: person.email, phone: person.phone } }));
  record({ name: 'sign_up', params: { page_name: pageName, method: SIGNUP_METHOD, beta_testing: person.betaTesting } });
}

/** After every save attempt, successful or not. */
export function trackFormSubmission(success: boolean): void {
  record({ name: 'form_submission', params: { page_name: pageName, form_name: SIGNUP_FORM_NAME, success } });
}

/** A person passed their link on, and how (never the link itself, nor its code). */
export function trackShare(method: ShareMethod): void {
  record({ name: 'share', params: { page_name: pageName, method } });
}

/** Spec section 1: a download intent for a platform, recorded only as an event. */
export function trackDownloadIntent(
  platform: DownloadPlatform,
  location: SignupButton,
  element: 'store_badge' | 'store_button',
): void {
  record({
    name: 'download_intent',
    params: { page_name: pageName, platform, source: DOWNLOAD_SOURCE, location, element_name: element },
  });
}

/**
 * Whether the server's settings in the page name any provider: a first look only, so the page's
 * first script need not carry the full check, which the boot code makes (read-public-config.ts).
 */
function pageNamesAProvider(): boolean {
  const text = document.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.textContent ?? '';
  return /"(ga4|posthog|metaPixel)":/.test(text);
}

/**
 * Starts analytics once the page is interactive. The providers' code loads after the page's own,
 * never on its critical path, and not at all when no provider is configured.
 */
export function startAnalytics(): void {
  firstParty.flushWhenHidden();
  const boot = () => {
    if (!pageNamesAProvider()) {
      const stored = readStoredChoice();
      initialiseConsent({
        configured: [],
        providers: [],
        choice: stored === 'unavailable' ? null : stored,
        mode: 'opt-in',
      });
      turnOff('no analytics provider is configured');
      return;
    }
    import('./analytics-boot')
      .then(({ AnalyticsQueue, bootAnalytics }) => {
        const live = new AnalyticsQueue();
        for (const call of pending.splice(0)) live.push(call);
        queue = live;
        bootAnalytics(live);
      })
      .catch((error: unknown) => turnOff(`its code could not load (${String(error)})`));
  };
  const whenIdle = () =>
    'requestIdleCallback' in window ? window.requestIdleCallback(boot, { timeout: 3000 }) : setTimeout(boot, 1);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
