// Provider errors often quote the address they refused ("550 <rosa@example.com>: no such user",
// "The 'To' number +15551234567 is not valid"): logs keep what went wrong, never whom it was for.

export function withoutAddresses(text: string): string {
  // The lookbehind starts an address only where a run of such characters starts: a long run with no @
  // is read once, not once from each of its characters.
  return text
    .replace(/(?<![^\s<>"'():;,])[^\s<>"'():;,]+@[^\s<>"'():;,]+/g, '[redacted]')
    .replace(/\+?\d(?:[\s-]?\d){6,}/g, '[redacted]');
}
