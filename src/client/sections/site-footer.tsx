// Spec section 2: the footer with its copyright line.
import { footer } from '../content';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container">
        <p className="site-footer__trust">{footer.trust}</p>
        {/* The year is the visitor's, so a page built last December still says this year. */}
        <p className="site-footer__copyright" suppressHydrationWarning>
          {footer.copyright(new Date().getFullYear())}
        </p>
      </div>
    </footer>
  );
}
