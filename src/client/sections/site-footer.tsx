// Spec section 2: the footer with its copyright line, the privacy notice and the way back to the cookie choice.
import { footer } from '../content';
import { Island } from '../islands/island';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container">
        <p className="site-footer__trust">{footer.trust}</p>
        <Island name="privacy-notice" />
        <Island name="cookie-choices" />
        {/* The year the page was built; the build runs at every release. */}
        <p className="site-footer__copyright">{footer.copyright(new Date().getFullYear())}</p>
      </div>
    </footer>
  );
}
