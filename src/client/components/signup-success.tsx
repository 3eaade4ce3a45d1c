// The dialog's success view: announced by moving focus to its heading.
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_RETENTION_DAYS } from '../../shared/public-config.js';
import { readPublicConfig } from '../analytics/read-public-config';
import { signupDialog } from '../signup-content';

export function SignupSuccess() {
  const heading = useRef<HTMLHeadingElement>(null);
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

  return (
    <div className="signup-success" role="status">
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
      <Dialog.Close className="button button--primary button--block">{signupDialog.success.button}</Dialog.Close>
    </div>
  );
}
