// Spec section 2: the footer with its copyright line, the privacy notice and the way back to the cookie choice.
import { openConsentChoices, useConsentState } from '../analytics/consent';
import { PrivacyNotice } from '../components/privacy-notice';
import { footer } from '../content';

export function SiteFooter() {
  const { providers } = useConsentState();
  return (
    <footer className="site-footer">
      <div className="container">
        <p className="site-footer__trust">{footer.trust}</p>
        <PrivacyNotice />
        {providers.length > 0 && (
          <p>
            <button type="button" className="link-button" onClick={openConsentChoices}>
              {footer.cookieChoices}
            </button>
          </p>
        )}
        {/* The year is the visitor's, so a page built last December still says this year. */}
        <p className="site-footer__copyright" suppressHydrationWarning>
          {footer.copyright(new Date().getFullYear())}
        </p>
      </div>
    </footer>
  );
}
