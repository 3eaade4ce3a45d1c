// The cookie question, in a root of its own (nothing of it is prerendered): its code loads only on a
// site with an analytics provider, once the page knows there is one.
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { useConsentState } from '../analytics/consent';

const ConsentBanner = lazy(async () => ({ default: (await import('./consent-banner')).ConsentBanner }));

function ConsentBannerHost() {
  const asksAboutCookies = useConsentState().providers.length > 0;
  if (!asksAboutCookies) return null;
  return (
    <Suspense fallback={null}>
      <ConsentBanner />
    </Suspense>
  );
}

/** Adds the question's place at the end of `parent` (the page's root, so it follows the footer). */
export function mountConsentBanner(parent: HTMLElement): void {
  const element = document.createElement('div');
  parent.append(element);
  createRoot(element).render(
    <StrictMode>
      <ConsentBannerHost />
    </StrictMode>,
  );
}
