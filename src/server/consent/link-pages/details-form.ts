// The name and phone number a person (their own page) or the owner (the person's page) types to
// correct a record: checked by the sign-up form's own rules, so a record never holds what the form
// would have refused, and a number is kept as E.164 (issue 54: every number is one number; one the
// numbering plan cannot read is refused, never stored and never texted). An empty phone number keeps
// the one on record; on the person's own page an empty name does too (that page never shows the
// name: it is whatever was typed on the form).
import type { Language } from '../../../shared/languages.js';
import { signupFieldsSchema, signupMessageIn, signupMessagesIn } from '../../../shared/signup-schema.js';

export interface DetailsErrors {
  name?: string;
  phone?: string;
}

export type DetailsCheck =
  { ok: true; details: { name?: string; phone?: string } } | { ok: false; errors: DetailsErrors };

export function checkDetails(
  typed: { name: string; phone: string },
  {
    emptyName = 'refuse',
    nothingTyped,
    language = 'en',
    readNumber,
  }: {
    emptyName?: 'keep' | 'refuse';
    nothingTyped?: string;
    language?: Language;
    /** The number as E.164, or undefined when the numbering plan cannot read it (Subscriptions.e164). */
    readNumber: (typed: string) => string | undefined;
  },
): DetailsCheck {
  const { name, phone } = signupFieldsSchema.shape;
  const errors: DetailsErrors = {};
  const keepName = emptyName === 'keep' && typed.name.trim() === '';
  const keepPhone = typed.phone.trim() === '';
  if (keepName && keepPhone)
    return { ok: false, errors: { name: nothingTyped ?? signupMessagesIn[language].nameRequired } };
  const checkedName = keepName ? undefined : name.safeParse(typed.name);
  const checkedPhone = keepPhone ? undefined : phone.safeParse(typed.phone);
  // In the page's language (the person's own page speaks theirs; the owner's is English).
  const said = (message: string | undefined) =>
    message === undefined ? undefined : signupMessageIn(language, message);
  if (checkedName && !checkedName.success) errors.name = said(checkedName.error.issues[0]?.message);
  if (checkedPhone && !checkedPhone.success) errors.phone = said(checkedPhone.error.issues[0]?.message);
  const e164 = checkedPhone?.success ? readNumber(checkedPhone.data) : undefined;
  if (checkedPhone?.success && e164 === undefined) errors.phone = signupMessagesIn[language].phoneNeedsAreaCode;
  if (errors.name || errors.phone) return { ok: false, errors };
  return {
    ok: true,
    details: {
      ...(checkedName?.success ? { name: checkedName.data } : {}),
      ...(e164 !== undefined ? { phone: e164 } : {}),
    },
  };
}

/** The two fields as a form body carries them ('' when absent; the first of a repeated field). */
export function typedDetails(body: unknown): { name: string; phone: string } {
  const field = (name: string) => {
    if (typeof body !== 'object' || body === null) return '';
    const value = (body as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
  };
  return { name: field('name'), phone: field('phone') };
}
