// The sign-up form's save: sends the valid fields with the bot checks, tells the dialog while it waits, records the outcome.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { MIN_FORM_TIME_MS, type SignupFields } from '../../shared/signup-schema.js';
import { trackFormSubmission, trackSignup } from '../analytics/analytics';
import { SignupRefusedError, signupBody, submitSignup } from '../signup-api';
import type { SignupSource } from '../signup-source';

export interface SignupSubmitOptions {
  /** Which button opened the dialog, stored with the sign-up. */
  source: SignupSource;
  onSubmittingChange: (submitting: boolean) => void;
  /** With the person's own link code, when the server's answer carries one. */
  onSuccess: (referralCode: string | null) => void;
  /** The server refused a field the form's rule let through: its message, by the shared schema's key. */
  onRefused: (fields: SignupRefusedError['fields']) => void;
}

export interface SignupSubmit {
  submitting: boolean;
  /** The last save failed; the form keeps what the visitor typed. */
  saveFailed: boolean;
  /** The hidden trap field, read when saving. */
  trap: RefObject<HTMLInputElement | null>;
  /** For react-hook-form's handleSubmit: runs only with valid fields. */
  save: (values: SignupFields) => Promise<void>;
}

export function useSignupSubmit({
  source,
  onSubmittingChange,
  onSuccess,
  onRefused,
}: SignupSubmitOptions): SignupSubmit {
  // Our own flag, not react-hook-form's isSubmitting, which is also true while validating:
  // the spec enters "submitting" only on a valid submit.
  const [submitting, setSubmitting] = useState(false);
  const [saveFailed, setSaveFailed] = useState(false);
  const trap = useRef<HTMLInputElement>(null);
  // When the form appeared, for the bot check (a person takes longer than MIN_FORM_TIME_MS).
  const openedAt = useRef(0);
  useEffect(() => {
    openedAt.current = performance.now();
  }, []);

  // The dialog hears about submitting in the same render as the form, so its close button and
  // Escape are blocked from the first moment.
  function setSubmittingEverywhere(value: boolean) {
    setSubmitting(value);
    onSubmittingChange(value);
  }

  async function save(values: SignupFields) {
    setSaveFailed(false);
    setSubmittingEverywhere(true);
    // A person whose browser filled the form in and who pressed at once is not a bot: the page waits
    // out the server's minimum (MIN_FORM_TIME_MS) rather than send a submit it would doubt.
    const early = MIN_FORM_TIME_MS + 50 - (performance.now() - openedAt.current);
    if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
    let referralCode: string | null;
    try {
      referralCode = await submitSignup(
        signupBody(values, {
          button: source,
          openedForMs: performance.now() - openedAt.current,
          trap: trap.current?.value ?? '',
        }),
      );
    } catch (error) {
      // Spec section 8: logged, recorded as a failed submission, and the form stays as it was. A
      // refusal that names a field is shown beside that field, not as "try again" (which would fail again).
      console.error('Error submitting signup', error);
      trackFormSubmission(false);
      setSubmittingEverywhere(false);
      if (error instanceof SignupRefusedError) onRefused(error.fields);
      else setSaveFailed(true);
      return;
    }
    trackSignup(values);
    trackFormSubmission(true);
    onSuccess(referralCode);
  }

  return { submitting, saveFailed, trap, save };
}
