// The landing page: the spec's visible sections, then the ones kept in the page but hidden.
// Once launched (SITE_MODE=launched) it has no sign-up button and no sign-up dialog at all. Static
// HTML but for its islands (decisions/038), which the browser hydrates one by one.
import { site } from '../content';
import { BuiltForFamilies } from '../sections/built-for-families';
import { ClosingCallToAction } from '../sections/closing-call-to-action';
import { DownloadCallToAction } from '../sections/download-call-to-action';
import { FounderStory } from '../sections/founder-story';
import { Hero } from '../sections/hero';
import { RealProtection } from '../sections/real-protection';
import { ScamStatistics } from '../sections/scam-statistics';
import { SimpleSafeLearning } from '../sections/simple-safe-learning';
import { SiteFooter } from '../sections/site-footer';
import { SiteHeader } from '../sections/site-header';
import { Island } from '../islands/island';
import { launched } from '../site-mode';

export function LandingPage() {
  return (
    <>
      <a className="skip-link" href="#main">
        {site.skipLink}
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1}>
        <Hero />
        <ScamStatistics />
        <SimpleSafeLearning />
        <FounderStory />
        <Island name="how-it-protects" />
        <RealProtection />
        <BuiltForFamilies />
        {launched ? <DownloadCallToAction /> : <ClosingCallToAction />}
      </main>
      <SiteFooter />
    </>
  );
}
