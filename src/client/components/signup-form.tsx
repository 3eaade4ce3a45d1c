// The sign-up form: validated by the shared schema on submit, then again as the visitor corrects.
import { zodResolver } from '@hookform/resolvers/zod';
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  signupFieldsSchema,
  type SignupField,
  type SignupFields,
  type SignupFormValues,
} from '../../shared/signup-schema.js';
import { trackFormSubmission, trackSignup } from '../analytics/analytics';
import { privacyNotice } from '../content';
import { signupDialog } from '../signup-content';
import { signupBody, submitSignup } from '../signup-api';
import type { SignupButton as SignupSource } from '../../shared/signup-schema.js';
import { ErrorSummary, type ErrorSummaryItem } from './error-summary';
import { TextField } from './text-field';

const fieldIds: Record<SignupField, string> = {
  name: 'signup-name',
  phone: 'signup-phone',
  email: 'signup-email',
  betaTesting: 'signup-beta-testing',
};

const emptyForm: SignupFormValues = { name: '', phone: '', email: '', betaTesting: false };

export interface SignupFormProps {
  /** Which button opened the dialog, stored with the sign-up. */
  source: SignupSource;
  onSubmittingChange: (submitting: boolean) => void;
  onSuccess: () => void;
  /** The consent text's privacy link: the dialog closes and the notice in the footer opens. */
  onReadPrivacyNotice: () => void;
}

export function SignupForm({ source, onSubmittingChange, onSuccess, onReadPrivacyNotice }: SignupFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignupFormValues, unknown, SignupFields>({
    resolver: zodResolver(signupFieldsSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: emptyForm,
    shouldFocusError: false, // the error summary takes focus instead
  });
  const [failedSubmits, setFailedSubmits] = useState(0);
  // Our own flag, not react-hook-form's isSubmitting, which is also true while validating:
  // the spec enters "submitting" only on a valid submit.
  const [submitting, setSubmitting] = useState(false);
  const [saveFailed, setSaveFailed] = useState(false);
  const saveFailedMessage = useRef<HTMLParagraphElement>(null);
  const trap = useRef<HTMLInputElement>(null);
  // When the form appeared, for the bot check (a person takes longer than MIN_FORM_TIME_MS).
  const openedAt = useRef(0);
  useEffect(() => {
    openedAt.current = performance.now();
  }, []);

  useEffect(() => {
    if (saveFailed) saveFailedMessage.current?.focus();
  }, [saveFailed]);

  // The dialog hears about submitting in the same render as the form, so its close button and
  // Escape are blocked from the first moment.
  function setSubmittingEverywhere(value: boolean) {
    setSubmitting(value);
    onSubmittingChange(value);
  }

  async function save(values: SignupFields) {
    setSaveFailed(false);
    setSubmittingEverywhere(true);
    try {
      await submitSignup(
        signupBody(values, {
          button: source,
          openedForMs: performance.now() - openedAt.current,
          trap: trap.current?.value ?? '',
        }),
      );
    } catch (error) {
      // Spec section 8: logged, recorded as a failed submission, and the form stays as it was.
      console.error('Error submitting signup', error);
      trackFormSubmission(false);
      setSubmittingEverywhere(false);
      setSaveFailed(true);
      return;
    }
    trackSignup(values);
    trackFormSubmission(true);
    onSuccess();
  }

  const summary: ErrorSummaryItem[] = (['name', 'phone', 'email', 'betaTesting'] as const).flatMap((field) => {
    const message = errors[field]?.message;
    return message ? [{ fieldId: fieldIds[field], message }] : [];
  });

  return (
    <form
      className="signup-form"
      noValidate
      aria-busy={submitting}
      onSubmit={(event) => handleSubmit(save, () => setFailedSubmits((count) => count + 1))(event)}
    >
      <Dialog.Title className="dialog__title">{signupDialog.title}</Dialog.Title>
      <Dialog.Description className="dialog__subtitle">{signupDialog.subtitle}</Dialog.Description>

      <ErrorSummary items={summary} focusKey={failedSubmits} />
      {saveFailed && (
        <p className="save-failed" role="alert" tabIndex={-1} ref={saveFailedMessage}>
          {signupDialog.saveFailed}
        </p>
      )}

      <fieldset className="signup-form__fields" disabled={submitting}>
        <TextField
          id={fieldIds.name}
          label={signupDialog.fields.name.label}
          error={errors.name?.message}
          registration={register('name')}
          type="text"
          autoComplete="name"
          autoCapitalize="words"
          spellCheck={false}
        />
        <TextField
          id={fieldIds.phone}
          label={signupDialog.fields.phone.label}
          hint={signupDialog.fields.phone.hint}
          error={errors.phone?.message}
          registration={register('phone')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
        />
        <TextField
          id={fieldIds.email}
          label={signupDialog.fields.email.label}
          error={errors.email?.message}
          registration={register('email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
        />

        <div className="checkbox">
          <input
            className="checkbox__input"
            type="checkbox"
            id={fieldIds.betaTesting}
            aria-describedby={`${fieldIds.betaTesting}-help`}
            {...register('betaTesting')}
          />
          <label className="checkbox__label" htmlFor={fieldIds.betaTesting}>
            {signupDialog.betaTesting.label}
          </label>
          <p className="checkbox__help" id={`${fieldIds.betaTesting}-help`}>
            {signupDialog.betaTesting.help}
          </p>
        </div>

        {/* A trap for bots: off-screen, hidden from screen readers, out of the tab order. */}
        <div className="signup-form__trap" aria-hidden="true">
          <label htmlFor="signup-comments">{signupDialog.trapLabel}</label>
          <input id="signup-comments" name="comments" type="text" tabIndex={-1} autoComplete="off" ref={trap} />
        </div>

        <p className="signup-form__consent">
          {signupDialog.consent}{' '}
          <a
            href={`#${privacyNotice.id}`}
            onClick={(event) => {
              // The dialog locks the page's scrolling: it closes first, then shows the notice itself.
              event.preventDefault();
              onReadPrivacyNotice();
            }}
          >
            {signupDialog.privacyLink}
          </a>
        </p>

        <div className="signup-form__actions">
          <button type="submit" className="button button--primary button--block">
            {submitting ? signupDialog.submitting : signupDialog.submit}
          </button>
          <Dialog.Close className="button button--secondary button--block">{signupDialog.maybeLater}</Dialog.Close>
        </div>
      </fieldset>
    </form>
  );
}
