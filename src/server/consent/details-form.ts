// The name and phone number a person (their own page) or the owner (the person's page) types to
// correct a record: checked by the sign-up form's own rules, so a record never holds what the form
// would have refused. An empty phone number keeps the one on record.
import { signupFieldsSchema } from '../../shared/signup-schema.js';

export type DetailsCheck =
  | { ok: true; details: { name: string; phone?: string } }
  | { ok: false; errors: { name?: string; phone?: string } };

export function checkDetails(typed: { name: string; phone: string }): DetailsCheck {
  const { name, phone } = signupFieldsSchema.shape;
  const errors: { name?: string; phone?: string } = {};
  const checkedName = name.safeParse(typed.name);
  if (!checkedName.success) errors.name = checkedName.error.issues[0]?.message ?? 'Please check the name';
  const keepPhone = typed.phone.trim() === '';
  const checkedPhone = keepPhone ? undefined : phone.safeParse(typed.phone);
  if (checkedPhone && !checkedPhone.success)
    errors.phone = checkedPhone.error.issues[0]?.message ?? 'Please enter a valid phone number';
  if (!checkedName.success || (checkedPhone && !checkedPhone.success)) return { ok: false, errors };
  return {
    ok: true,
    details: { name: checkedName.data, ...(checkedPhone?.success ? { phone: checkedPhone.data } : {}) },
  };
}
