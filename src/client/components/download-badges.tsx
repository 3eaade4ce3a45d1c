// 'Coming soon' store badges: each records a download intent (spec section 1) and opens the sign-up instead.
import { trackDownloadIntent } from '../analytics/analytics';
import { closingCallToAction } from '../content';
import { openSignup, preloadSignupDialog } from './signup-dialog-host';

export function DownloadBadges() {
  return (
    <ul className="download-badges" aria-label={closingCallToAction.badgesLabel}>
      {closingCallToAction.badges.map((badge) => (
        <li key={badge.platform}>
          <button
            type="button"
            className="button button--secondary download-badges__badge"
            onPointerEnter={preloadSignupDialog}
            onFocus={preloadSignupDialog}
            onClick={(event) => {
              trackDownloadIntent(badge.platform, 'cta_section', 'store_badge');
              openSignup('cta_section', event.currentTarget);
            }}
          >
            {badge.text}
          </button>
        </li>
      ))}
    </ul>
  );
}
