// Addresses as the owner's notices and the audit log show them: masked, never whole.
import { maskEmail } from '../messaging/mask-email.js';
import { phoneEnd } from '../messaging/phone.js';

/**
 * A masked address from a redirect's query string ("ro•••@example.com", "a phone ending 4567"), or
 * undefined: a crafted link cannot make a notice say anything else.
 */
export function maskedOnly(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^[^\s•@]{0,2}•••@[^\s@]{1,253}$/.test(value) || /^a phone ending \d{4}$/.test(value) ? value : undefined;
}

/** An email masked as on the link pages, or a phone number's last four digits. */
export function maskAddress(to: string): string {
  return to.includes('@') ? maskEmail(to) : `a phone ending ${phoneEnd(to)}`;
}
