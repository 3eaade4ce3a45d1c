// Phone numbers as the text provider gives them (E.164) and as people typed them on the page.

/**
 * The E.164 form of a stored phone number (digits with an optional leading "+"). Without a "+",
 * ten digits are a US number (the page's hint asks others to type + and their country code), and
 * eleven starting with 1 are a US number with its country code.
 */
export function toE164(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  if (phone.trim().startsWith('+')) return `+${digits}`;
  if (digits.length === 10) return `+1${digits}`;
  return `+${digits}`;
}

/** Every way a number in E.164 form may have been typed on the page (and stored): with +, without, without a US 1. */
export function storedForms(e164: string): string[] {
  const digits = e164.replace(/[^\d]/g, '');
  const forms = new Set([`+${digits}`, digits]);
  if (digits.length === 11 && digits.startsWith('1')) forms.add(digits.slice(1));
  return [...forms];
}

/** The last four digits of a number, as every page and message names a number. */
export function phoneEnd(phone: string): string {
  return phone.replace(/\D/g, '').slice(-4);
}

/**
 * The last digits of two numbers, enough to tell them apart: four, or more when the last four are
 * the same ("change to •••• 74567, keep the number ending 34567"), up to seven.
 */
export function distinctEnds(next: string, current: string): { next: string; current: string } {
  const a = next.replace(/\D/g, '');
  const b = current.replace(/\D/g, '');
  let length = 4;
  while (length < 7 && a.slice(-length) === b.slice(-length)) length += 1;
  return { next: a.slice(-length), current: b.slice(-length) };
}
