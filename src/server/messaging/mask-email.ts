// How an email address is shown where a stranger might read it: the link pages, the owner's pages
// and the audit log show "ro•••@example.com", never the whole address.

/** "ro•••@example.com": enough for someone to know it is theirs, not enough for a stranger to read it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '•••';
  const local = [...email.slice(0, at)];
  // Never the whole name before the @, however short.
  return `${local.slice(0, Math.min(2, local.length - 1)).join('')}•••${email.slice(at)}`;
}
