// The one sign-up schema: the form validates with it, the server parses every body with it.
import { z } from 'zod';
import { attributionLimits } from './attribution-limits.js';
import { LANGUAGES, type Language, type Translated } from './languages.js';
import { isReferralCode } from './referral.js';

/**
 * The messages of spec section 5, plus the limits we added to keep the store sane. The Spanish page
 * shows its own words for each (client/signup-content-es.ts, by the same keys).
 */
export const signupMessages = {
  nameRequired: 'Name is required',
  nameTooShort: 'Name must be at least 2 characters',
  nameTooLong: 'Name must be 100 characters or fewer',
  phoneRequired: 'Phone number is required',
  phoneInvalid: 'Please enter a valid phone number',
  phoneNeedsAreaCode: 'Please include your area code',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  betaTestingInvalid: 'Beta testing must be yes or no',
  controlCharacters: 'Please remove hidden control characters',
  notText: 'Please enter text',
};

export type SignupMessageKey = keyof typeof signupMessages;

/** The same messages in each language (issue 45): the Spanish form and the Spanish preferences page say these. */
export const signupMessagesIn: Translated<Record<SignupMessageKey, string>> = {
  en: signupMessages,
  es: {
    nameRequired: 'Escriba su nombre',
    nameTooShort: 'El nombre debe tener al menos 2 letras',
    nameTooLong: 'El nombre debe tener 100 letras o menos',
    phoneRequired: 'Escriba su número de teléfono',
    phoneInvalid: 'Escriba un número de teléfono válido',
    phoneNeedsAreaCode: 'Incluya el código de área',
    emailRequired: 'Escriba su correo electrónico',
    emailInvalid: 'Escriba un correo electrónico válido',
    betaTestingInvalid: 'La versión de prueba debe ser sí o no',
    controlCharacters: 'Quite los caracteres de control ocultos',
    notText: 'Escriba un texto',
  },
};

/** A schema message in `language` (the schema itself speaks English). */
export function signupMessageIn(language: Language, message: string): string {
  const key = signupMessageKey(message);
  return key ? signupMessagesIn[language][key] : message;
}

/** Which of signupMessages a schema message is, so a page can say it in its own language. */
export function signupMessageKey(message: string): SignupMessageKey | undefined {
  return (Object.keys(signupMessages) as SignupMessageKey[]).find((key) => signupMessages[key] === message);
}

export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
/** Spec section 9: optional plus, a first digit 1-9, at most 15 further digits. */
export const PHONE_PATTERN = /^\+?[1-9]\d{0,15}$/;
/**
 * A practical email check that accepts addresses in any script (José@correo.es, 用户@例子.广告):
 * a local part without spaces or quotes that neither starts nor ends with a dot and has no "..",
 * then a domain of letter-or-digit labels ending in a top-level name of two or more letters.
 */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[^\s@"(),:;<>[\]\\]+(?<!\.)@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}$/u;
/** What a visitor may type between digits; removed before the rule is checked. */
const PHONE_SEPARATORS = /[\s\-.()]/g;
// C0 and C1 control characters (tab, newline, NUL…): never part of a name, phone or email.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS_GLOBAL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Counts characters as people see them (an emoji or accented letter is one), not UTF-16 units. */
function characterCount(value: string): number {
  return Array.from(value).length;
}

/** "+1 (555) 123-4567" becomes "+15551234567". */
export function normalisePhone(value: string): string {
  return value.replace(PHONE_SEPARATORS, '');
}

function requiredText(requiredMessage: string) {
  return z
    .string({
      error: (issue) => (issue.input === undefined || issue.input === null ? requiredMessage : signupMessages.notText),
    })
    .trim()
    .min(1, { error: requiredMessage, abort: true })
    .refine((value) => !CONTROL_CHARACTERS.test(value), {
      error: signupMessages.controlCharacters,
      abort: true,
    });
}

const name = requiredText(signupMessages.nameRequired)
  .refine((value) => characterCount(value) >= NAME_MIN_LENGTH, {
    error: signupMessages.nameTooShort,
    abort: true,
  })
  .refine((value) => characterCount(value) <= NAME_MAX_LENGTH, { error: signupMessages.nameTooLong });

const phone = requiredText(signupMessages.phoneRequired)
  .transform(normalisePhone)
  .refine((value) => PHONE_PATTERN.test(value), { error: signupMessages.phoneInvalid });

const email = requiredText(signupMessages.emailRequired)
  .max(EMAIL_MAX_LENGTH, { error: signupMessages.emailInvalid, abort: true })
  .regex(EMAIL_PATTERN, { error: signupMessages.emailInvalid });

const betaTesting = z.boolean({ error: signupMessages.betaTestingInvalid }).default(false);

/** The fields the visitor fills in: what the form validates. */
export const signupFieldsSchema = z.strictObject({ name, phone, email, betaTesting });

/** Which button opened the dialog (spec section 2: the click's section). */
export const signupButtons = ['hero_section', 'cta_section'] as const;
export type SignupButton = (typeof signupButtons)[number];

/**
 * Where a sign-up came from is the browser's account of it, not something the visitor typed, so a
 * long or odd value is tidied (control characters removed, cut to length) and never fails a sign-up.
 */
function attributionText(maxLength: number) {
  return z
    .string()
    .transform((value) => Array.from(value.replace(CONTROL_CHARACTERS_GLOBAL, '').trim()).slice(0, maxLength).join(''))
    .optional();
}

export const attributionSchema = z.strictObject({
  utmSource: attributionText(attributionLimits.utmSource),
  utmMedium: attributionText(attributionLimits.utmMedium),
  utmCampaign: attributionText(attributionLimits.utmCampaign),
  utmTerm: attributionText(attributionLimits.utmTerm),
  utmContent: attributionText(attributionLimits.utmContent),
  referrer: attributionText(attributionLimits.referrer),
  landingPath: attributionText(attributionLimits.landingPath),
  button: z.enum(signupButtons).optional(),
  /** The code of the family member's link the visit came through (?ref=); anything else is dropped. */
  referredBy: z
    .string()
    .transform((value) => (isReferralCode(value) ? value : undefined))
    .optional(),
});
export type Attribution = z.output<typeof attributionSchema>;
export { attributionLimits };

/**
 * The least time a person takes between the dialog opening and pressing submit, even with
 * autofill. The page waits it out before sending, so a quick person is never doubted; a quicker
 * submit is refused with 422 `not_accepted` and nothing is stored (decision 033).
 */
export const MIN_FORM_TIME_MS = 1500;

/** A version label of the consent text, such as "2026-11-22". */
export const CONSENT_VERSION_PATTERN = /^[\w.-]{1,40}$/;

/**
 * A sign-up as the browser sends it: the visitor's fields, where they came from, and which
 * version of the consent text they agreed to. Unknown keys are refused, so nothing extra (an id,
 * a timestamp) can be smuggled in.
 */
export const signupInputSchema = z.strictObject({
  ...signupFieldsSchema.shape,
  attribution: attributionSchema.optional(),
  consentVersion: z.string().regex(CONSENT_VERSION_PATTERN, { error: 'Unknown consent version' }).optional(),
  /** The hidden trap field: people never see it, so only a bot fills it in. */
  comments: z.string().max(1000).optional(),
  /** How long the dialog was open before this submit, measured by the page. */
  openedForMs: z.number().int().min(0).max(2_147_483_647).optional(),
  /** The language of the page they signed up on (issue 45): their messages go in it. Left out: English. */
  language: z.enum(LANGUAGES, { error: `Language must be one of: ${LANGUAGES.join(', ')}` }).optional(),
});

/**
 * A sign-up that a bot, not a person, sent: the trap field is filled in, or the form was submitted
 * faster than a person could (or by something that never opened it).
 */
export function looksAutomated(input: Pick<SignupInput, 'comments' | 'openedForMs'>): boolean {
  if (input.comments !== undefined && input.comments.trim() !== '') return true;
  return input.openedForMs === undefined || input.openedForMs < MIN_FORM_TIME_MS;
}

/** What the form holds while the visitor types. */
export type SignupFormValues = z.input<typeof signupFieldsSchema>;
/** The visitor's fields after normalisation: trimmed text, phone digits with an optional plus. */
export type SignupFields = z.output<typeof signupFieldsSchema>;
/** A valid sign-up body after normalisation. */
export type SignupInput = z.output<typeof signupInputSchema>;
export type SignupField = keyof SignupFields;

/**
 * The key two sign-ups are compared by: the email, trimmed, in one Unicode form, lowercased.
 * "Rosa@Example.com " and "rosa@example.com" are the same person.
 */
export function emailKey(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

/** A stored sign-up (spec section 3) as the owner's export shows it. */
export interface SignupRecord extends SignupFields {
  id: string;
  /** ISO 8601, UTC: when the first sign-up with this email was stored. */
  timestamp: string;
  /** ISO 8601, UTC: when this email last signed up (equal to timestamp if only once). */
  lastSeenAt: string;
  /** How many times this email has signed up. */
  signupCount: number;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  referrer: string | null;
  landingPath: string | null;
  button: SignupButton | null;
  consentVersion: string | null;
  /** ISO 8601, UTC: when they pressed the confirmation email's button; null if not (yet). */
  confirmedAt: string | null;
  /** When they turned launch email off (one-click unsubscribe, the preferences page, leaving). */
  emailOptOutAt: string | null;
  /** When they turned texts off (STOP, the preferences page, leaving). */
  smsOptOutAt: string | null;
  /** When the number replied YES (or START) to a text from us (decision 041); null while unproven. */
  smsConfirmedAt: string | null;
  /** When they left the list. */
  leftAt: string | null;
  /** Their own link's code (SITE_URL/?ref=CODE), made when they joined. */
  referralCode: string | null;
  /** The code of the link they came through, while its owner is on record; null otherwise. */
  referredBy: string | null;
  /** The language of the page they first signed up on; their messages go in it (the owner may change it). */
  language: Language;
}

/** Field messages, one per field (the first problem), as the API and the form both show them. */
export type SignupFieldErrors = Partial<Record<SignupField, string>>;

export interface SignupValidationFailure {
  fields: SignupFieldErrors;
  /** Keys that are not part of a sign-up, or a body that is not an object at all. */
  other: string[];
}

export function describeSignupIssues(error: z.ZodError): SignupValidationFailure {
  const fields: SignupFieldErrors = {};
  const other: string[] = [];
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length > 0 ? `${issue.path.join('.')}.` : '';
      const keys = issue.keys.map((unknown) => `${prefix}${unknown}`);
      other.push(`Unknown field${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`);
    } else if (typeof key === 'string' && key in signupFieldsSchema.shape) {
      fields[key as SignupField] ??= issue.message;
    } else {
      other.push(
        issue.path.length === 0 ? 'The sign-up must be a JSON object' : `${issue.path.join('.')}: ${issue.message}`,
      );
    }
  }
  return { fields, other };
}
