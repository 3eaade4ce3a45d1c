// The dialog's success view: announced by moving focus to its heading; then "Tell a family member".
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_RETENTION_DAYS } from '../../shared/public-config.js';
import { shareUrl, shareWordsIn } from '../../shared/share-content.js';
import { SharePanel } from '../../shared/share-panel.js';
import { trackShare } from '../analytics/analytics';
import { readPublicConfig } from '../analytics/read-public-config';
import { language } from '../language';
import { wireShare } from '../share';
import { signupDialog } from '../signup-content';

/** The site's address as the server wrote it into the page (SITE_URL), else this page's own. */
function siteUrl(): string {
  const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
  return canonical ? new URL(canonical).origin : window.location.origin;
}

export function SignupSuccess({ referralCode }: { referralCode: string | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const share = useRef<HTMLDivElement>(null);
  const [url] = useState(() => shareUrl(siteUrl(), referralCode, language));
  // The server says in the page whether new sign-ups are asked to confirm by email.
  const [confirmation] = useState(() => {
    const config = readPublicConfig();
    return config.emailConfirmation === true
      ? {
          days: config.unconfirmedRetentionDays ?? DEFAULT_RETENTION_DAYS,
          reminderDays: config.confirmationReminderDays,
        }
      : undefined;
  });
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    const panel = share.current?.querySelector('[data-share]');
    if (panel) wireShare(panel, trackShare);
  }, []);

  return (
    <div className="signup-success">
      <div role="status">
        <svg className="signup-success__icon" aria-hidden="true" viewBox="0 0 48 48" width="64" height="64">
          <circle cx="24" cy="24" r="22" fill="currentColor" />
          <path
            d="M14 25l7 7 13-15"
            fill="none"
            stroke="#fff"
            strokeWidth="4"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <Dialog.Title className="dialog__title" ref={heading} tabIndex={-1}>
          {signupDialog.success.title}
        </Dialog.Title>
        <Dialog.Description className="dialog__subtitle">{signupDialog.success.text}</Dialog.Description>
        {confirmation && (
          <p className="dialog__subtitle">
            {signupDialog.success.confirmEmail(confirmation.days, confirmation.reminderDays)}
          </p>
        )}
      </div>
      <div ref={share}>
        <SharePanel url={url} headingLevel={3} scripted words={shareWordsIn[language]} />
      </div>
      <Dialog.Close className="button button--primary button--block">{signupDialog.success.button}</Dialog.Close>
    </div>
  );
}
