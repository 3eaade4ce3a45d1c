// The app's root: picks the page for the current path by the spec's routing rule, and records each page view.
import { lazy, Suspense, useEffect } from 'react';
import { pageNameOf, resolveRoute } from '../shared/routes.js';
import { trackPageView } from './analytics/analytics';
import { useScrollDepth } from './analytics/use-scroll-depth';
import { useConsentState } from './analytics/consent';
import { replayEarlyPress } from './early-press';
import { notFoundTitle, site } from './content';
import { launchedSite } from './launch-content';
import { LandingPage } from './pages/landing-page';
import { NotFoundPage } from './pages/not-found-page';
import { navigate, usePathname } from './router';
import { launched } from './site-mode';

// Only a site with an analytics provider asks about cookies: the question's code loads only there.
const ConsentBanner = lazy(async () => ({ default: (await import('./components/consent-banner')).ConsentBanner }));

export function App() {
  const pathname = usePathname();
  const route = resolveRoute(pathname);
  const redirectTo = route.kind === 'redirect' ? route.to : null;

  useEffect(() => {
    if (redirectTo !== null) navigate(redirectTo, { replace: true });
  }, [redirectTo]);

  // The page is React's now: a button pressed while it was still loading is pressed again.
  useEffect(replayEarlyPress, []);

  // Spec section 2: every route change records a page view, with the page's own title.
  const pageName = route.kind === 'redirect' ? null : pageNameOf(route.path);
  useEffect(() => {
    if (pageName === null) return;
    const homeTitle = launched ? launchedSite.title : site.title;
    document.title = pageName === 'home' ? homeTitle : notFoundTitle(homeTitle);
    trackPageView(pageName);
  }, [pathname, pageName]);
  useScrollDepth(pathname);
  const asksAboutCookies = useConsentState().providers.length > 0;

  return (
    <>
      {route.kind === 'not-found' ? <NotFoundPage route={route} /> : <LandingPage />}
      {asksAboutCookies && (
        <Suspense fallback={null}>
          <ConsentBanner />
        </Suspense>
      )}
    </>
  );
}
