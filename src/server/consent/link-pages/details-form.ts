// The name and phone number a person (their own page) or the owner (the person's page) types to
// correct a record: checked by the sign-up form's own rules, so a record never holds what the form
// would have refused. An empty phone number keeps the one on record; on the person's own page an
// empty name does too (that page never shows the name: it is whatever was typed on the form).
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
  }: { emptyName?: 'keep' | 'refuse'; nothingTyped?: string; language?: Language } = {},
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
  if (errors.name || errors.phone) return { ok: false, errors };
  return {
    ok: true,
    details: {
      ...(checkedName?.success ? { name: checkedName.data } : {}),
      ...(checkedPhone?.success ? { phone: checkedPhone.data } : {}),
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
