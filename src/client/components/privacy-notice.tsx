// The privacy notice (what is collected, why, by whom, how to be removed), folded into every page's footer.
import type { MouseEvent } from 'react';
import { POSTAL_ADDRESS_PLACEHOLDER, PRIVACY_EMAIL_PLACEHOLDER } from '../../shared/page-placeholders.js';
import { useConsentState } from '../analytics/consent';
import { privacyNotice } from '../content';
import { launchedPrivacySections } from '../launch-content';
import { launched } from '../site-mode';

/** For links to the notice: unfold it, then let the browser jump to it. */
export function openPrivacyNotice(_event?: MouseEvent<HTMLAnchorElement>): void {
  const details = document.getElementById(privacyNotice.id);
  if (details instanceof HTMLDetailsElement) details.open = true;
}

export function PrivacyNotice() {
  const { known, configured } = useConsentState();
  // Until the page knows which providers are on (and in the prerendered HTML), all three are described.
  const providers = known ? configured : Object.keys(privacyNotice.cookies.providers);
  const { cookies } = privacyNotice;
  // Once launched, the page takes no sign-ups: the notice speaks of them in the past.
  const sections = launched ? launchedPrivacySections() : privacyNotice.sections;
  return (
    <details className="privacy-notice" id={privacyNotice.id}>
      <summary className="privacy-notice__summary">{privacyNotice.summary}</summary>
      <div className="privacy-notice__body">
        {sections.slice(0, 2).map((section) => (
          <PrivacySection key={section.heading} heading={section.heading} paragraphs={section.paragraphs} />
        ))}
        {providers.length > 0 && (
          <PrivacySection
            heading={cookies.heading}
            paragraphs={[
              ...providers.flatMap((name) => (cookies.providers[name] ? [cookies.providers[name]] : [])),
              ...(providers.some((name) => name !== 'Google Analytics') ? [cookies.globalPrivacyControl] : []),
            ]}
          />
        )}
        {sections.slice(2).map((section) => (
          <PrivacySection key={section.heading} heading={section.heading} paragraphs={section.paragraphs} />
        ))}
        <p>
          {/* The server writes PRIVACY_EMAIL in (site-routes.ts, site-facts.ts). */}
          {privacyNotice.contactLabel}{' '}
          <a href={`mailto:${PRIVACY_EMAIL_PLACEHOLDER}`} suppressHydrationWarning>
            {PRIVACY_EMAIL_PLACEHOLDER}
          </a>
        </p>
        {/* Who sends, from where: the server writes MAIL_POSTAL_ADDRESS in (site-routes.ts). */}
        <p suppressHydrationWarning>{POSTAL_ADDRESS_PLACEHOLDER}</p>
      </div>
    </details>
  );
}

function PrivacySection({ heading, paragraphs }: { heading: string; paragraphs: string[] }) {
  return (
    <>
      <h2 className="privacy-notice__heading">{heading}</h2>
      {paragraphs.map((paragraph) => (
        // Settings only the server knows ({{UNCONFIRMED_RETENTION_DAYS}}) are written into the page by
        // the server (site-routes.ts); the page keeps the server's words rather than its placeholders.
        <p key={paragraph} suppressHydrationWarning>
          {paragraph}
        </p>
      ))}
    </>
  );
}
