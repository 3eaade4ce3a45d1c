// Browser entry (start.ts loads it once the page has painted): hydrates the prerendered page's islands
// alone (decisions/038), then starts what the page does as a whole: its page view, the 404's console
// error, scroll depth, the cookie question, and analytics.
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { pageNameOf, resolveRoute } from '../shared/routes.js';
import { startAnalytics, trackPageView } from './analytics/analytics';
import { startScrollDepth } from './analytics/scroll-depth';
import { captureAttribution, forgetReferralInAddress } from './attribution';
import { mountConsentBanner } from './components/consent-banner-host';
import { preloadSignupDialogOnFirstMove } from './components/signup-dialog-host';
import { markHydrating } from './early-press';
import { hydrateIslands } from './islands/hydrate-islands';
import { launched } from './site-mode';
import { wireTextSize } from './text-size';
import './styles/global.css';

// Before the address can change (the /index.html redirect below), note where the visit came from;
// then the family member's code leaves the address, before anything could read it.
captureAttribution();
forgetReferralInAddress();

// '/index.html' replaces itself with '/' (spec section 2: no new history entry).
const first = resolveRoute(window.location.pathname);
if (first.kind === 'redirect') {
  window.history.replaceState(null, '', `${first.to}${window.location.search}${window.location.hash}`);
}
const route = resolveRoute(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
markHydrating();
if (root.firstElementChild) {
  hydrateIslands();
  wireTextSize();
} else if (import.meta.env.DEV) {
  // `npm run dev` serves an empty page: render it whole (a built page carries none of this code), with
  // what the build puts in the head (scripts/prerender.mjs).
  void Promise.all([import('./app'), import('../shared/page-styles.js')]).then(([{ App }, styles]) => {
    const style = document.createElement('style');
    style.textContent = styles.SHARED_PAGE_STYLES;
    document.head.append(style);
    document.documentElement.setAttribute('data-text-size', 'normal');
    flushSync(() =>
      createRoot(root).render(
        <StrictMode>
          <App path={window.location.pathname} />
        </StrictMode>,
      ),
    );
    wireTextSize();
  });
}

if (route.kind === 'not-found') {
  console.error(`404 Error: User attempted to access non-existent route: ${window.location.pathname}`);
}
// Spec section 2: a page view for each page, 'home' for '/', else the path without its slash.
trackPageView(pageNameOf(route.path));
startScrollDepth();
mountConsentBanner(root);
if (!launched && route.kind === 'home') preloadSignupDialogOnFirstMove();

// Providers load after the page is interactive, and only as the visitor's choice allows.
startAnalytics();
