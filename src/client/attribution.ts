// Where this visit came from (UTM tags, referrer, landing path, the family member's link), kept for the
// visit in sessionStorage: no cookie.
import { attributionLimits } from '../shared/attribution-limits.js';
import { isReferralCode, REFERRAL_PARAMETER } from '../shared/referral.js';
import type { Attribution } from '../shared/signup-schema.js';

const STORAGE_KEY = 'scamsavvy.attribution';
/** The first address and referrer of the visit, noted by start.ts before this script loads. */
export const LANDING_STORAGE_KEY = 'scamsavvy.landing';
const UTM_PARAMETERS = {
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  utmTerm: 'utm_term',
  utmContent: 'utm_content',
} as const;

type VisitAttribution = Omit<Attribution, 'button'>;

/** Kept here too, for browsers where storage is blocked. */
let inMemory: VisitAttribution | undefined;

function clip(value: string | null | undefined, max: number): string | undefined {
  if (!value) return undefined;
  return Array.from(value).slice(0, max).join('');
}

export function attributionFromLocation(url: URL, referrer: string): VisitAttribution {
  const found: VisitAttribution = {};
  for (const [key, parameter] of Object.entries(UTM_PARAMETERS) as [keyof typeof UTM_PARAMETERS, string][]) {
    const value = clip(url.searchParams.get(parameter), attributionLimits[key]);
    if (value) found[key] = value;
  }
  // A referrer from our own site is a reload or in-page step, not where the visitor came from.
  const external = referrer && new URL(referrer, url).origin !== url.origin ? referrer : undefined;
  const cleanReferrer = clip(external, attributionLimits.referrer);
  if (cleanReferrer) found.referrer = cleanReferrer;
  found.landingPath = clip(url.pathname, attributionLimits.landingPath);
  const code = url.searchParams.get(REFERRAL_PARAMETER);
  if (isReferralCode(code)) found.referredBy = code;
  return found;
}

/**
 * Takes a family member's code (?ref=) out of the address bar, once noted: so it reaches no analytics
 * provider (which read the page's address), and a link copied from the address bar is not theirs.
 */
export function forgetReferralInAddress(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(REFERRAL_PARAMETER)) return;
  url.searchParams.delete(REFERRAL_PARAMETER);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** Where the visit landed: as start.ts noted it, or else this page's own address. */
function landing(): { url: URL; referrer: string } {
  try {
    const noted = JSON.parse(window.sessionStorage.getItem(LANDING_STORAGE_KEY) ?? 'null') as unknown;
    if (noted && typeof noted === 'object' && 'href' in noted && 'referrer' in noted) {
      const { href, referrer } = noted;
      if (typeof href === 'string' && typeof referrer === 'string') return { url: new URL(href), referrer };
    }
  } catch {
    // storage blocked, or the note damaged
  }
  return { url: new URL(window.location.href), referrer: document.referrer };
}

/** Records where the visit came from, once per visit: later page loads in the same tab keep the first. */
export function captureAttribution(): void {
  const { url, referrer } = landing();
  try {
    if (window.sessionStorage.getItem(STORAGE_KEY)) return;
    inMemory = attributionFromLocation(url, referrer);
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(inMemory));
  } catch {
    inMemory ??= attributionFromLocation(url, referrer);
  }
}

export function readAttribution(): VisitAttribution {
  try {
    const stored = window.sessionStorage.getItem(STORAGE_KEY);
    if (stored) return JSON.parse(stored) as VisitAttribution;
  } catch {
    // storage blocked or the entry is damaged: fall back to what this page load saw
  }
  return inMemory ?? {};
}
