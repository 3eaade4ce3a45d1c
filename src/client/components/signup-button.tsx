// A button that opens the sign-up dialog, and loads the dialog's code as soon as a visitor shows intent.
import { trackSignupInterest } from '../analytics/analytics';
import type { SignupSource } from '../signup-source';
import { openSignup, preloadSignupDialog } from './signup-dialog-host';

export function SignupButton({ source, label }: { source: SignupSource; label: string }) {
  return (
    <button
      type="button"
      className="button button--primary button--large"
      onPointerEnter={preloadSignupDialog}
      onFocus={preloadSignupDialog}
      onTouchStart={preloadSignupDialog}
      onClick={(event) => {
        trackSignupInterest(source); // spec section 2: the click, with its section
        openSignup(source, event.currentTarget);
      }}
    >
      {label}
    </button>
  );
}
