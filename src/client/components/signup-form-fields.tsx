// The sign-up form's fields and the consent's details (they scroll), then its action area: the consent line
// and the two buttons, always in view at the foot of the dialog (decision 059). The form validates and saves.
import * as Dialog from '@radix-ui/react-dialog';
import type { Ref } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { SignupField, SignupFormValues } from '../../shared/signup-schema.js';
import { privacyNotice } from '../content';
import { signupDialog } from '../signup-content';
import { TextField } from './text-field';

/** Each field's element id: the error summary links to them. */
export const signupFieldIds: Record<SignupField, string> = {
  name: 'signup-name',
  phone: 'signup-phone',
  email: 'signup-email',
  betaTesting: 'signup-beta-testing',
};

export interface SignupFormFieldsProps {
  register: UseFormRegister<SignupFormValues>;
  errors: FieldErrors<SignupFormValues>;
  /** While saving, every control is disabled and the submit button says so. */
  submitting: boolean;
  /** The hidden trap field for bots. */
  trap: Ref<HTMLInputElement>;
  /** The consent text's privacy link: the dialog closes and the notice in the footer opens. */
  onReadPrivacyNotice: () => void;
}

export function SignupFormFields({ register, errors, submitting, trap, onReadPrivacyNotice }: SignupFormFieldsProps) {
  /** What every text field takes from its name: its id, label, error and registration. */
  const field = (name: 'name' | 'phone' | 'email') => ({
    id: signupFieldIds[name],
    label: signupDialog.fields[name].label,
    error: errors[name]?.message,
    registration: register(name),
  });
  return (
    <fieldset className="signup-form__fields" disabled={submitting}>
      <TextField {...field('name')} type="text" autoComplete="name" autoCapitalize="words" spellCheck={false} />
      <TextField
        {...field('phone')}
        hint={signupDialog.fields.phone.hint}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
      />
      <TextField
        {...field('email')}
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
          id={signupFieldIds.betaTesting}
          aria-describedby={`${signupFieldIds.betaTesting}-help`}
          {...register('betaTesting')}
        />
        <label className="checkbox__label" htmlFor={signupFieldIds.betaTesting}>
          {signupDialog.betaTesting.label}
        </label>
        <p className="checkbox__help" id={`${signupFieldIds.betaTesting}-help`}>
          {signupDialog.betaTesting.help}
        </p>
      </div>

      {/* A trap for bots: off-screen, hidden from screen readers, out of the tab order. */}
      <div className="signup-form__trap" aria-hidden="true">
        <label htmlFor="signup-comments">{signupDialog.trapLabel}</label>
        <input id="signup-comments" name="comments" type="text" tabIndex={-1} autoComplete="off" ref={trap} />
      </div>

      <p className="signup-form__consent-details">
        {signupDialog.consentDetails}{' '}
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
    </fieldset>
  );
}

/**
 * The foot of the dialog, outside its scrolling part: what the visitor agrees to, and the buttons. Its own
 * fieldset, so saving disables it with the fields.
 */
export function SignupFormActions({ submitting }: { submitting: boolean }) {
  return (
    <fieldset className="signup-form__actions" disabled={submitting}>
      <p className="signup-form__consent">{signupDialog.consent}</p>
      <div className="signup-form__buttons">
        <button type="submit" className="button button--primary">
          {submitting ? signupDialog.submitting : signupDialog.submit}
        </button>
        <Dialog.Close className="button button--secondary">{signupDialog.maybeLater}</Dialog.Close>
      </div>
    </fieldset>
  );
}
