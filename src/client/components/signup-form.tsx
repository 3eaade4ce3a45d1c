// The sign-up form: validated by the shared schema on submit, then again as the visitor corrects.
import { zodResolver } from '@hookform/resolvers/zod';
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import {
  signupFieldsSchema,
  signupMessageKey,
  type SignupFields,
  type SignupFormValues,
} from '../../shared/signup-schema.js';
import { useSignupSubmit } from '../hooks/use-signup-submit';
import { signupDialog } from '../signup-content';
import type { SignupSource } from '../signup-source';
import { ErrorSummary, type ErrorSummaryItem } from './error-summary';
import { SignupFormActions, SignupFormFields, signupFieldIds } from './signup-form-fields';

/** The schema's messages in the page's language (signupDialog.validation, by the same keys). */
function inPageLanguage(
  resolver: Resolver<SignupFormValues, unknown, SignupFields>,
): Resolver<SignupFormValues, unknown, SignupFields> {
  return async (...args) => {
    const result = await resolver(...args);
    for (const error of Object.values(result.errors) as { message?: string }[]) {
      const key = error?.message === undefined ? undefined : signupMessageKey(error.message);
      if (key) error.message = signupDialog.validation[key];
    }
    return result;
  };
}

const emptyForm: SignupFormValues = { name: '', phone: '', email: '', betaTesting: false };

export interface SignupFormProps {
  /** Which button opened the dialog, stored with the sign-up. */
  source: SignupSource;
  onSubmittingChange: (submitting: boolean) => void;
  /** With the person's own link code, when the server's answer carries one. */
  onSuccess: (referralCode: string | null) => void;
  /** The consent text's privacy link: the dialog closes and the notice in the footer opens. */
  onReadPrivacyNotice: () => void;
}

export function SignupForm({ source, onSubmittingChange, onSuccess, onReadPrivacyNotice }: SignupFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SignupFormValues, unknown, SignupFields>({
    resolver: inPageLanguage(zodResolver(signupFieldsSchema)),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: emptyForm,
    shouldFocusError: false, // the error summary takes focus instead
  });
  const [failedSubmits, setFailedSubmits] = useState(0);
  const { submitting, saveFailed, trap, save } = useSignupSubmit({
    source,
    onSubmittingChange,
    onSuccess,
    // A refusal the server explains (a number without its area code) shows beside its field, and the
    // summary takes focus as for the form's own checks; correcting the field clears it.
    onRefused: (fields) => {
      for (const [field, key] of Object.entries(fields))
        setError(field as keyof SignupFields, { type: 'server', message: signupDialog.validation[key] });
      setFailedSubmits((count) => count + 1);
    },
  });
  const saveFailedMessage = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (saveFailed) saveFailedMessage.current?.focus();
  }, [saveFailed]);

  const summary: ErrorSummaryItem[] = (['name', 'phone', 'email', 'betaTesting'] as const).flatMap((field) => {
    const message = errors[field]?.message;
    return message ? [{ fieldId: signupFieldIds[field], message }] : [];
  });

  return (
    <form
      className="signup-form"
      noValidate
      aria-busy={submitting}
      onSubmit={(event) => handleSubmit(save, () => setFailedSubmits((count) => count + 1))(event)}
    >
      {/* The part that scrolls. While every control is disabled (submitting), it stays reachable, so a
          keyboard can still scroll it. */}
      <div className="dialog__body" tabIndex={submitting ? 0 : undefined}>
        <Dialog.Title className="dialog__title">{signupDialog.title}</Dialog.Title>
        <Dialog.Description className="dialog__subtitle">{signupDialog.subtitle}</Dialog.Description>

        <ErrorSummary items={summary} focusKey={failedSubmits} />
        {saveFailed && (
          <p className="save-failed" role="alert" tabIndex={-1} ref={saveFailedMessage}>
            {signupDialog.saveFailed}
          </p>
        )}

        <SignupFormFields
          register={register}
          errors={errors}
          submitting={submitting}
          trap={trap}
          onReadPrivacyNotice={onReadPrivacyNotice}
        />
      </div>
      <SignupFormActions submitting={submitting} />
    </form>
  );
}
