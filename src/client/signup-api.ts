// Sends a sign-up to our server; any answer but 2xx counts as a failed save, and a refusal that names
// a field (a number without its area code) says which.
import { isReferralCode } from '../shared/referral.js';
import {
  signupMessageKey,
  type SignupField,
  type SignupFields,
  type SignupInput,
  type SignupMessageKey,
} from '../shared/signup-schema.js';
import { readAttribution } from './attribution';
import { language } from './language';
import type { SignupSource } from './signup-source';
import { signupDialog } from './signup-content';

/** Long enough for a slow phone connection, short enough that nobody waits forever. */
const SAVE_TIMEOUT_MS = 20_000;

export interface SubmitContext {
  /** Which button opened the dialog. */
  button: SignupSource;
  /** How long the dialog has been open. */
  openedForMs: number;
  /** What the hidden trap field holds (empty for every person). */
  trap: string;
}

/**
 * The visitor's fields, plus where the visit came from, which button opened the form, the consent
 * text's version, and the two bot checks (the trap field and the time the form was open).
 */
export function signupBody(fields: SignupFields, { button, openedForMs, trap }: SubmitContext): SignupInput {
  return {
    ...fields,
    attribution: { ...readAttribution(), button },
    consentVersion: signupDialog.consentVersion,
    language,
    openedForMs: Math.round(openedForMs),
    ...(trap ? { comments: trap } : {}),
  };
}

/**
 * The server read the fields and found one the form's own rule lets through that it cannot keep (a
 * number without its area code): the form shows each message beside its field, in the page's words.
 */
export class SignupRefusedError extends Error {
  constructor(readonly fields: Partial<Record<SignupField, SignupMessageKey>>) {
    super(`The sign-up was refused: ${Object.keys(fields).join(', ')}`);
    this.name = 'SignupRefusedError';
  }
}

/** A 400's field messages that the form knows (by the shared schema's keys), or undefined for none. */
async function fieldMessages(response: Response): Promise<SignupRefusedError['fields'] | undefined> {
  try {
    const body = (await response.json()) as { error?: { fields?: Record<string, unknown> } };
    const found: SignupRefusedError['fields'] = {};
    for (const field of ['name', 'phone', 'email'] as const) {
      const message = body.error?.fields?.[field];
      const key = typeof message === 'string' ? signupMessageKey(message) : undefined;
      if (key) found[field] = key;
    }
    return Object.keys(found).length > 0 ? found : undefined;
  } catch {
    return undefined;
  }
}

/** Saves the sign-up; the person's own link code from the answer (null if it carries none we can use). */
export async function submitSignup(input: SignupInput): Promise<string | null> {
  const response = await fetch('/api/signups', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
    // AbortSignal.timeout is missing on older phones (Safari before 16): there, no time limit.
    signal: typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(SAVE_TIMEOUT_MS) : undefined,
  });
  if (response.status === 400) {
    const fields = await fieldMessages(response);
    if (fields) throw new SignupRefusedError(fields);
  }
  if (!response.ok) throw new Error(`The sign-up was not saved: HTTP ${response.status}`);
  // Saved: the answer is read only as success (spec section 7), then for the code if it has one.
  try {
    const { referralCode } = (await response.json()) as { referralCode?: unknown };
    return isReferralCode(referralCode) ? referralCode : null;
  } catch {
    return null;
  }
}
