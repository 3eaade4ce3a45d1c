// A sign-up from another channel through the API (issue 56: a partner's page, a tablet at an event):
// the page's fields, and the evidence of the consent, which is required. The evidence is kept on the
// consent line as it came, so `consent:proof` can show who agreed, to which words, when and from where.
import { z } from 'zod';
import { LANGUAGES } from '../../shared/languages.js';
import {
  attributionSchema,
  CONSENT_VERSION_PATTERN,
  describeSignupIssues,
  signupFieldsSchema,
  type SignupInput,
} from '../../shared/signup-schema.js';
import type { SignupVia } from '../db/signup-writer.js';

/** The longest consent text kept: a page's whole consent paragraph fits many times over. */
export const CONSENT_WORDS_MAX = 2000;
/** How far in the future a consent's moment may be (clocks differ a little), and how far back. */
const CLOCK_SLACK_MS = 5 * 60_000;
const OLDEST_CONSENT_MS = 366 * 24 * 3_600_000;

// eslint-disable-next-line no-control-regex
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** What a consent without its words needs: the words, or the version of our own form's words it showed. */
export const WORDS_OR_VERSION =
  'consent.words: the exact words shown to the person, or consent.version naming a version of our own sign-up form’s words';

const consentEvidenceSchema = z.strictObject({
  /** The exact words the person was shown when they agreed (or, left out, our own form's by `version`). */
  words: z
    .string({ error: 'consent.words: the exact words shown to the person, as text' })
    .trim()
    .min(1, { error: WORDS_OR_VERSION })
    .max(CONSENT_WORDS_MAX, { error: `consent.words: at most ${CONSENT_WORDS_MAX} characters` })
    .refine((words) => !CONTROL_BUT_NEWLINE.test(words), { error: 'consent.words: remove hidden control characters' })
    .optional(),
  /** The channel's own label for that text, if it has one. */
  version: z
    .string()
    .regex(CONSENT_VERSION_PATTERN, { error: 'consent.version: letters, digits, . _ - (at most 40)' })
    .optional(),
  /** When they agreed: an ISO 8601 time with its offset. */
  at: z.iso.datetime({ offset: true, error: 'consent.at: an ISO 8601 time such as 2026-11-29T14:05:00Z' }),
  /** Where: the page's address, the event's name. */
  source: z
    .string({ error: 'consent.source: say where the person agreed (a page address, an event)' })
    .trim()
    .min(1, { error: 'consent.source: say where the person agreed (a page address, an event)' })
    .max(200, { error: 'consent.source: at most 200 characters' })
    .refine((source) => !CONTROL_BUT_NEWLINE.test(source) && !source.includes('\n'), {
      error: 'consent.source: one line, without control characters',
    }),
  /** The address their request came from, where the channel kept it. */
  ip: z.union([z.ipv4(), z.ipv6()], { error: 'consent.ip: an IPv4 or IPv6 address' }).optional(),
});

export const apiSignupSchema = z.strictObject({
  ...signupFieldsSchema.shape,
  language: z.enum(LANGUAGES, { error: `language: one of ${LANGUAGES.join(', ')}` }).optional(),
  attribution: attributionSchema.optional(),
  consent: consentEvidenceSchema,
});
export type ApiSignup = z.output<typeof apiSignupSchema>;

export type ApiSignupCheck =
  { ok: true; signup: ApiSignup } | { ok: false; fields: Record<string, string>; detail: string };

/** Checks a body; a consent's moment must be within the last year and not ahead of `now` by more than a few minutes. */
export function checkApiSignup(body: unknown, now: Date): ApiSignupCheck {
  const parsed = apiSignupSchema.safeParse(body);
  if (!parsed.success) {
    const { fields, other } = describeSignupIssues(parsed.error);
    const all: Record<string, string> = { ...fields };
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      if (path && !(path in all) && issue.code !== 'unrecognized_keys') all[path] = issue.message;
    }
    return { ok: false, fields: all, detail: ['Some details need attention.', ...other].join(' ') };
  }
  const at = Date.parse(parsed.data.consent.at);
  if (parsed.data.consent.words === undefined && parsed.data.consent.version === undefined)
    return { ok: false, fields: { 'consent.words': WORDS_OR_VERSION }, detail: 'Some details need attention.' };
  if (at > now.getTime() + CLOCK_SLACK_MS || at < now.getTime() - OLDEST_CONSENT_MS)
    return {
      ok: false,
      fields: { 'consent.at': 'consent.at: a time within the last year, not in the future' },
      detail: 'Some details need attention.',
    };
  return { ok: true, signup: parsed.data };
}

/** What the writer stores: the page's input (no bot checks: a key holder sent it) and the consent line's evidence. */
export function apiSignupInput(
  signup: ApiSignup & { consent: { words: string } },
  phone: string,
  keyName: string,
  receivedAt: Date,
): { input: SignupInput; via: SignupVia } {
  const { consent, attribution, language, ...fields } = signup;
  return {
    input: {
      ...fields,
      phone,
      ...(attribution ? { attribution } : {}),
      ...(consent.version ? { consentVersion: consent.version } : {}),
      ...(language ? { language } : {}),
    },
    via: {
      source: 'api',
      evidence: JSON.stringify({
        words: consent.words,
        ...(consent.version ? { version: consent.version } : {}),
        agreedAt: new Date(consent.at).toISOString(),
        source: consent.source,
        ...(consent.ip ? { ip: consent.ip } : {}),
        apiKey: keyName,
        receivedAt: receivedAt.toISOString(),
      }),
    },
  };
}
