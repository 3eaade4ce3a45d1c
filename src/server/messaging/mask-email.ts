// How an email address is shown where a stranger might read it: the link pages, the owner's pages
// and the audit log show "ro•••@example.com", never the whole address.
import { phoneEnd } from './phone.js';

/** "ro•••@example.com": enough for someone to know it is theirs, not enough for a stranger to read it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '•••';
  const local = [...email.slice(0, at)];
  // Never the whole name before the @, however short.
  return `${local.slice(0, Math.min(2, local.length - 1)).join('')}•••${email.slice(at)}`;
}

/** An email masked as on the link pages, or a phone number's last four digits. */
export function maskAddress(to: string): string {
  return to.includes('@') ? maskEmail(to) : `a phone ending ${phoneEnd(to)}`;
}
