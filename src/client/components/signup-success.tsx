// The dialog's success view: announced by moving focus to its heading.
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState } from 'react';
import { readPublicConfig } from '../analytics/read-public-config';
import { signupDialog } from '../signup-content';

export function SignupSuccess() {
  const heading = useRef<HTMLHeadingElement>(null);
  // The server says in the page whether new sign-ups are asked to confirm by email.
  const [emailConfirmation] = useState(() => readPublicConfig().emailConfirmation === true);
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
      {emailConfirmation && <p className="dialog__subtitle">{signupDialog.success.confirmEmail}</p>}
      <Dialog.Close className="button button--primary button--block">{signupDialog.success.button}</Dialog.Close>
    </div>
  );
}
