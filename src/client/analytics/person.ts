// The sign-up's personal data, shaped for the providers allowed to receive it (spec sections 3 and 7).
import type { SignupPerson } from './analytics-provider';

/** Spec section 3: the name splits into a first and a last name at the first space. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  const space = trimmed.indexOf(' ');
  if (space === -1) return { firstName: trimmed, lastName: '' };
  return { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1) };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Spec section 7: the phone reduced to digits only ("+1 (555) 010-2233" is "15550102233"). */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

/** Meta Pixel's manual advanced matching keys; the pixel hashes them (SHA-256) before they leave the browser. */
export interface AdvancedMatching {
  em: string;
  ph: string;
  fn: string;
  ln?: string;
}

export function advancedMatching(person: SignupPerson): AdvancedMatching {
  const { firstName, lastName } = splitName(person.name);
  return {
    em: normaliseEmail(person.email),
    ph: phoneDigits(person.phone),
    // Meta asks for names in lower case.
    fn: firstName.toLowerCase(),
    ...(lastName ? { ln: lastName.toLowerCase() } : {}),
  };
}

/** PostHog person properties: who signed up, for the team reading a recording. */
export function personProperties(person: SignupPerson) {
  const { firstName, lastName } = splitName(person.name);
  return {
    name: person.name.trim(),
    first_name: firstName,
    last_name: lastName,
    email: normaliseEmail(person.email),
    phone: person.phone,
  };
}
