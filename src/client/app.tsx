// The app's root: picks the page for the current path by the spec's routing rule, and records each page view.
import { useEffect } from 'react';
import { pageNameOf, resolveRoute } from '../shared/routes.js';
import { trackPageView } from './analytics/analytics';
import { useScrollDepth } from './analytics/use-scroll-depth';
import { ConsentBanner } from './components/consent-banner';
import { notFoundTitle, site } from './content';
import { LandingPage } from './pages/landing-page';
import { NotFoundPage } from './pages/not-found-page';
import { navigate, usePathname } from './router';

export function App() {
  const pathname = usePathname();
  const route = resolveRoute(pathname);
  const redirectTo = route.kind === 'redirect' ? route.to : null;

  useEffect(() => {
    if (redirectTo !== null) navigate(redirectTo, { replace: true });
  }, [redirectTo]);

  // Spec section 2: every route change records a page view, with the page's own title.
  const pageName = route.kind === 'redirect' ? null : pageNameOf(route.path);
  useEffect(() => {
    if (pageName === null) return;
    document.title = pageName === 'home' ? site.title : notFoundTitle;
    trackPageView(pageName);
  }, [pathname, pageName]);
  useScrollDepth(pathname);

  return (
    <>
      {route.kind === 'not-found' ? <NotFoundPage route={route} /> : <LandingPage />}
      <ConsentBanner />
    </>
  );
}
