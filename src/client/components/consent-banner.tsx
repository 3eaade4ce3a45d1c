// The cookie question: two equal buttons, plain words, a link to the privacy notice. Shown only when a provider is switched on.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { chooseConsent, useConsentState } from '../analytics/consent';
import { consentBanner } from '../consent-content';
import { privacyNotice } from '../content';
import { openPrivacyNotice } from './privacy-notice';

/** "A", "A and B", "A, B and C" (in Spanish "A, B y C": the page's own word for "and"). */
export function listNames(names: string[], and = consentBanner.and): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${and} ${names.at(-1)}`;
}

export function ConsentBanner() {
  const { providers, bannerOpen, mode, choice, focusRequested } = useConsentState();
  const banner = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = bannerOpen && providers.length > 0;

  // Opened from the footer's link: take the visitor to it. Shown on arrival: never steal focus.
  useEffect(() => {
    if (shown && focusRequested) heading.current?.focus();
  }, [shown, focusRequested]);

  // The banner sits over the bottom of the page: keep a focused control from hiding behind it
  // (WCAG 2.4.11). The page reserves the banner's height when it scrolls to a control, and gains
  // as much room at its end, so the footer's last links can scroll clear of it.
  useLayoutEffect(() => {
    const element = banner.current;
    if (!shown || !element) return;
    const root = document.documentElement;
    const reserve = () => root.style.setProperty('--consent-banner-height', `${element.offsetHeight}px`);
    reserve();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(reserve) : undefined;
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--consent-banner-height');
    };
  }, [shown]);

  if (!shown) return null;
  return (
    <section className="consent-banner" aria-labelledby="consent-banner-heading" ref={banner}>
      <div className="container consent-banner__inner">
        <h2 className="consent-banner__heading" id="consent-banner-heading" tabIndex={-1} ref={heading}>
          {consentBanner.heading}
        </h2>
        {choice && <p className="consent-banner__current">{consentBanner.current[choice]}</p>}
        <p className="consent-banner__text">
          {consentBanner.explanation[mode](listNames(providers))}{' '}
          <a href={`#${privacyNotice.id}`} onClick={openPrivacyNotice}>
            {consentBanner.privacyLink}
          </a>
        </p>
        <div className="consent-banner__actions">
          <button type="button" className="button button--primary" onClick={() => chooseConsent('accepted')}>
            {consentBanner.accept}
          </button>
          <button type="button" className="button button--primary" onClick={() => chooseConsent('rejected')}>
            {consentBanner.reject}
          </button>
        </div>
      </div>
    </section>
  );
}
