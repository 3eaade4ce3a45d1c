// The sign-up dialog (spec sections 2 and 4): the form, then the success view.
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import { privacyNotice } from '../content';
import { signupDialog } from '../signup-content';
import type { SignupSource } from '../signup-source';
import { openPrivacyNotice } from './privacy-notice';
import { SignupForm } from './signup-form';
import { SignupSuccess } from './signup-success';

export interface SignupDialogProps {
  open: boolean;
  /** Which button opened it (null while closed). */
  source: SignupSource | null;
  onClose: () => void;
  /** The button that opened the dialog: focus goes back to it on close. */
  opener: HTMLElement | null;
}

export function SignupDialog({ open, source, onClose, opener }: SignupDialogProps) {
  // After a save: the person's own link code, for "Tell a family member" (null if the answer had none).
  const [succeeded, setSucceeded] = useState<{ referralCode: string | null } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Set by the consent text's privacy link: on closing, focus goes to the notice, not back to the opener.
  const readingPrivacyNotice = useRef(false);

  function close() {
    if (submitting) return; // spec section 4: attempts to close are ignored while submitting
    setSucceeded(null); // closing at any time resets the success flag; the form unmounts and resets
    onClose();
  }

  function closeForPrivacyNotice() {
    if (submitting) return;
    readingPrivacyNotice.current = true;
    close();
  }

  function ignoreWhileSubmitting(event: Event) {
    if (submitting) event.preventDefault();
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          onEscapeKeyDown={ignoreWhileSubmitting}
          onPointerDownOutside={ignoreWhileSubmitting}
          onInteractOutside={ignoreWhileSubmitting}
          onCloseAutoFocus={(event) => {
            // Radix returns focus only to its own trigger; ours are the page's sign-up buttons.
            event.preventDefault();
            if (readingPrivacyNotice.current) {
              readingPrivacyNotice.current = false;
              showPrivacyNotice();
            } else {
              opener?.focus();
            }
          }}
        >
          <Dialog.Close className="dialog__close" aria-label={signupDialog.close} disabled={submitting}>
            <svg aria-hidden="true" viewBox="0 0 24 24" width="28" height="28">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
            </svg>
          </Dialog.Close>
          {succeeded ? (
            <div className="dialog__body">
              <SignupSuccess referralCode={succeeded.referralCode} />
            </div>
          ) : (
            <SignupForm
              source={source ?? 'hero_section'}
              onSubmittingChange={setSubmitting}
              onReadPrivacyNotice={closeForPrivacyNotice}
              onSuccess={(referralCode) => {
                setSubmitting(false); // the form unmounts before it could report that itself
                setSucceeded({ referralCode });
              }}
            />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Unfolds the footer's privacy notice, brings it to the top of the screen and focuses its heading line. */
function showPrivacyNotice() {
  openPrivacyNotice();
  const summary = document.getElementById(privacyNotice.id)?.querySelector('summary');
  if (!summary) return;
  summary.focus({ preventScroll: true });
  summary.scrollIntoView({ block: 'start' });
}
