// The sign-up dialog (spec sections 2 and 4): the form, then the success view.
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { signupDialog } from '../signup-content';
import type { SignupSource } from './signup-dialog-host';
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
  const [succeeded, setSucceeded] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  function close() {
    if (submitting) return; // spec section 4: attempts to close are ignored while submitting
    setSucceeded(false); // closing at any time resets the success flag; the form unmounts and resets
    onClose();
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
          // While every control is disabled (submitting), the dialog itself stays reachable, so a
          // keyboard can still scroll it.
          tabIndex={submitting ? 0 : -1}
          onEscapeKeyDown={ignoreWhileSubmitting}
          onPointerDownOutside={ignoreWhileSubmitting}
          onInteractOutside={ignoreWhileSubmitting}
          onCloseAutoFocus={(event) => {
            // Radix returns focus only to its own trigger; ours are the page's sign-up buttons.
            event.preventDefault();
            opener?.focus();
          }}
        >
          <Dialog.Close className="dialog__close" aria-label={signupDialog.close} disabled={submitting}>
            <svg aria-hidden="true" viewBox="0 0 24 24" width="28" height="28">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
            </svg>
          </Dialog.Close>
          {succeeded ? (
            <SignupSuccess />
          ) : (
            <SignupForm
              source={source ?? 'hero_section'}
              onSubmittingChange={setSubmitting}
              onSuccess={() => {
                setSubmitting(false); // the form unmounts before it could report that itself
                setSucceeded(true);
              }}
            />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
