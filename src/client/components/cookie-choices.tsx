// The footer's way back to the cookie question: only on a site with an analytics provider.
import { openConsentChoices, useConsentState } from '../analytics/consent';
import { footer } from '../content';

export function CookieChoices() {
  const { providers } = useConsentState();
  if (providers.length === 0) return null;
  return (
    <p>
      <button type="button" className="link-button" onClick={openConsentChoices}>
        {footer.cookieChoices}
      </button>
    </p>
  );
}
