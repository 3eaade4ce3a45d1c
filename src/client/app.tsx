// The app's root: picks the page for the current path by the spec's routing rule.
import { useEffect } from 'react';
import { resolveRoute } from '../shared/routes.js';
import { LandingPage } from './pages/landing-page';
import { NotFoundPage } from './pages/not-found-page';
import { navigate, usePathname } from './router';

export function App() {
  const route = resolveRoute(usePathname());
  const redirectTo = route.kind === 'redirect' ? route.to : null;

  useEffect(() => {
    if (redirectTo !== null) navigate(redirectTo, { replace: true });
  }, [redirectTo]);

  if (route.kind === 'not-found') return <NotFoundPage route={route} />;
  return <LandingPage />;
}
