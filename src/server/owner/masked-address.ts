// A masked address from a redirect: what the owner's notices may show (messaging/mask-email.ts masks).

/**
 * A masked address from a redirect's query string ("ro•••@example.com", "a phone ending 4567"), or
 * undefined: a crafted link cannot make a notice say anything else.
 */
export function maskedOnly(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^[^\s•@]{0,2}•••@[^\s@]{1,253}$/.test(value) || /^a phone ending \d{4}$/.test(value) ? value : undefined;
}
