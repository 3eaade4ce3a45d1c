// Whose fault a failed text was: the one place Twilio's answers (HTTP status, Twilio error code, or
// no answer at all) are given a verdict, live or from a stored error text. The rules are data
// (TWILIO_RULES), in order; docs/messaging.md has them as a table, decision 026 says why.
import { withoutAddresses } from './log-safe.js';
import { KEEP_TRYING, type FailureKind, type FailureVerdict } from './send-failure.js';

/** What Twilio answered: its HTTP status and error code, or why no answer came. */
export interface TwilioAnswer {
  status?: number;
  /** Twilio's error code, e.g. 21211. */
  code?: number;
  /** Twilio's message for it. */
  message?: string;
  /** Set when Twilio could not be reached: what the network said. */
  networkError?: string;
}

/** One row of the table: which answers it covers, whose fault they are, and what to tell the owner. */
export interface TwilioRule {
  id: string;
  /** The answers it covers, in the words of the docs' table. */
  answer: string;
  kind: FailureKind;
  /** Twilio error codes it covers; checked before any rule's HTTP statuses. */
  codes?: readonly number[];
  /** HTTP statuses it covers when the error code is one no rule names. */
  statuses?: (status: number) => boolean;
  /** About this person for this send only (21408, 21608): skipped with the reason, nothing else changes. */
  skip?: true;
  /** Twilio 21610: the person replied STOP to our number. */
  stop?: true;
  reason(answer: TwilioAnswer): string;
}

/** "401, error 20003" for the reasons. */
function said({ status, code }: TwilioAnswer): string {
  return [status, code ? `error ${code}` : undefined].filter(Boolean).join(', ');
}

/** Twilio's message or the network's, addresses and numbers removed and cut short. */
function quote(text: string | undefined): string {
  const clean = withoutAddresses(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > 160 ? `${clean.slice(0, 159)}…` : clean;
}

const CHECK_CREDENTIALS = 'check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN, then resume.';

/** The rules, in order: every rule's codes first, then the statuses; none matching means unknown. */
export const TWILIO_RULES: readonly TwilioRule[] = [
  {
    id: 'credentials',
    answer: 'HTTP 401, error 20003 (authentication)',
    kind: 'sender',
    codes: [20003],
    statuses: (status) => status === 401,
    reason: () => `Twilio refused our credentials: ${CHECK_CREDENTIALS}`,
  },
  {
    id: 'no-such-account',
    answer: 'Error 20404 (the account or resource not found: a wrong SID)',
    kind: 'sender',
    codes: [20404],
    reason: () =>
      'Twilio does not know our account or the resource we asked for (20404): check TWILIO_ACCOUNT_SID and TWILIO_MESSAGING_SERVICE_SID, then resume.',
  },
  {
    id: 'from-number',
    answer: 'Errors 21606, 21659, 21660 (our From number not valid for this account)',
    kind: 'sender',
    codes: [21606, 21659, 21660],
    reason: (answer) =>
      `Twilio says our From number cannot send these texts (${answer.code}): check that TWILIO_FROM (or TWILIO_MESSAGING_SERVICE_SID) belongs to this account and can send texts, then resume.`,
  },
  {
    id: 'carrier-filtering',
    answer: 'Error 30007 (carriers filtering our texts)',
    kind: 'sender',
    codes: [30007],
    reason: () =>
      'Carriers are filtering our texts (Twilio 30007): register the number for A2P 10DLC or use a verified toll-free number (see the Twilio console), then resume.',
  },
  {
    id: 'unregistered-number',
    answer: 'Error 30034 (our number not registered for A2P 10DLC)',
    kind: 'sender',
    codes: [30034],
    reason: () =>
      'Carriers refuse texts from our number because it is not registered (Twilio 30034): register it for A2P 10DLC (see the Twilio console), then resume.',
  },
  {
    id: 'queue-overflow',
    answer: 'Error 30001 (queue overflow: we sent faster than the account takes)',
    kind: 'sender',
    codes: [30001],
    reason: () =>
      "Twilio's queue for our account overflowed (Twilio 30001): lower BROADCAST_SMS_RATE or raise the account's throughput in the Twilio console, then resume.",
  },
  {
    id: 'account-suspended',
    answer: 'Error 30002 (the account suspended)',
    kind: 'sender',
    codes: [30002],
    reason: () =>
      'Twilio says our account is suspended (Twilio 30002): see the Twilio console (billing, or a hold on the account), then resume.',
  },
  {
    id: 'max-price',
    answer: "Error 30010 (the price is over the account's maximum)",
    kind: 'sender',
    codes: [30010],
    reason: () =>
      'These texts cost more than the maximum price set for our account (Twilio 30010): raise or remove it in the Twilio console, then resume.',
  },
  {
    id: 'toll-free-unverified',
    answer: 'Error 30032 (our toll-free number not verified)',
    kind: 'sender',
    codes: [30032],
    reason: () =>
      'Carriers refuse texts from our toll-free number until it is verified (Twilio 30032): verify it in the Twilio console, then resume.',
  },
  {
    id: 'not-from-our-account',
    answer:
      "Errors 21408 (texts to this number's region not enabled for our account), 21608 (a trial account: the number is not verified)",
    kind: 'message',
    codes: [21408, 21608],
    skip: true,
    reason: (answer) =>
      answer.code === 21608
        ? 'We cannot text this number from our account: a Twilio trial account texts only numbers verified in it (21608). Skipped for this send; upgrade the account to reach everyone.'
        : "We cannot text this number from our account: texts to its country or region are not enabled (Twilio 21408). Skipped for this send; turn on that region in the Twilio console's Geo permissions to reach it.",
  },
  {
    id: 'invalid-number',
    answer: 'Error 21211 (not a valid phone number)',
    kind: 'recipient',
    codes: [21211],
    reason: () => 'Twilio says this is not a valid phone number (21211).',
  },
  {
    id: 'not-mobile',
    answer: 'Error 21614 (not a mobile number)',
    kind: 'recipient',
    codes: [21614],
    reason: () => 'Twilio says this number is not a mobile number, so it cannot get texts (21614).',
  },
  {
    id: 'replied-stop',
    answer: 'Error 21610 (the person replied STOP to our number)',
    kind: 'recipient',
    codes: [21610],
    stop: true,
    reason: () =>
      'This person replied STOP to our number, so Twilio will not text them (21610): recorded as their STOP.',
  },
  {
    id: 'cannot-route',
    answer: 'Error 21612 (Twilio cannot route a text to this number)',
    kind: 'recipient',
    codes: [21612],
    reason: () => 'Twilio cannot send a text to this number (21612).',
  },
  {
    id: 'unknown-handset',
    answer: 'Error 30005 (the number does not exist; reported after the send)',
    kind: 'recipient',
    codes: [30005],
    reason: () => 'The carrier says this number does not exist (Twilio 30005).',
  },
  {
    id: 'landline',
    answer: 'Error 30006 (a landline, or a carrier that cannot take texts; reported after the send)',
    kind: 'recipient',
    codes: [30006],
    reason: () => 'This number is a landline or its carrier cannot take texts (Twilio 30006).',
  },
  {
    id: 'unreachable-handset',
    answer: 'Error 30003 (the phone unreachable for now: off, or out of signal; reported after the send)',
    kind: 'message',
    codes: [30003],
    reason: () => 'The phone could not be reached for now (Twilio 30003): it may be off or out of signal.',
  },
  {
    id: 'forbidden',
    answer: 'HTTP 403 (our account may not do this)',
    kind: 'sender',
    statuses: (status) => status === 403,
    reason: (answer) =>
      `Twilio refused our account this request (${said(answer)}): see the account's status and permissions in the Twilio console, then resume.`,
  },
  {
    id: 'slow-down',
    answer: 'HTTP 429, error 20429 (too many requests)',
    kind: 'message',
    codes: [20429],
    statuses: (status) => status === 429,
    reason: () => `Twilio asked us to slow down (429)${KEEP_TRYING}`,
  },
  {
    id: 'twilio-trouble',
    answer: 'HTTP 5xx (a problem at Twilio)',
    kind: 'message',
    statuses: (status) => status >= 500,
    reason: (answer) => `Twilio had a problem on its side (${said(answer)})${KEEP_TRYING}`,
  },
];

/** Twilio could not be reached: the network, not anyone's address. */
function unreachable(answer: TwilioAnswer): FailureVerdict {
  const detail = quote(answer.networkError);
  return {
    kind: 'message',
    reason: `Twilio could not be reached${detail ? ` (${detail})` : ''}${KEEP_TRYING}`,
  };
}

/** The rule that covers this answer, if any: by error code first, then by HTTP status. */
export function twilioRuleFor(answer: TwilioAnswer): TwilioRule | undefined {
  if (answer.code !== undefined) {
    const byCode = TWILIO_RULES.find((rule) => rule.codes?.includes(answer.code ?? 0));
    if (byCode) return byCode;
  }
  const { status } = answer;
  if (status === undefined) return undefined;
  return TWILIO_RULES.find((rule) => rule.statuses?.(status));
}

export function classifyTwilioAnswer(answer: TwilioAnswer): FailureVerdict {
  if (answer.networkError !== undefined) return unreachable(answer);
  const rule = twilioRuleFor(answer);
  if (rule)
    return {
      kind: rule.kind,
      reason: rule.reason(answer),
      ...(rule.stop ? { stop: true } : {}),
      ...(rule.skip ? { skip: true } : {}),
    };
  const message = quote(answer.message);
  return {
    kind: 'unknown',
    reason: `We do not recognise Twilio's answer (${said(answer) || 'no status'}${message ? `: "${message}"` : ''}): we will try a few more times, then wait for you to read it and resume.`,
  };
}

/**
 * The verdict on a stored error text: "Twilio answered 401 (error 20003): Authenticate. …",
 * "Twilio could not be reached: fetch failed", or any text naming a Twilio error code.
 */
export function classifyTwilioText(text: string): FailureVerdict {
  const reached = text.match(/could not be reached:?\s*(.*)$/is);
  if (reached) return classifyTwilioAnswer({ networkError: reached[1] ?? '' });
  const answered = text.match(/Twilio answered (\d{3})(?: \(error (\d+)\))?(?::\s*([\s\S]*))?/i);
  if (answered)
    return classifyTwilioAnswer({
      status: Number(answered[1]),
      ...(answered[2] ? { code: Number(answered[2]) } : {}),
      ...(answered[3] ? { message: answered[3] } : {}),
    });
  const code = text.match(/\b(?:error|Twilio)\s+([23]\d{4})\b/i)?.[1];
  return classifyTwilioAnswer({ ...(code ? { code: Number(code) } : {}), message: text });
}

/** The verdict on the account's own status (GET /Accounts/{sid}.json), or undefined when it may send. */
export function accountStatusVerdict(status: string | undefined): FailureVerdict | undefined {
  if (status === 'suspended')
    return {
      kind: 'sender',
      reason:
        'The Twilio account is suspended: see the Twilio console (billing, or a hold on the account), then resume.',
    };
  if (status === 'closed')
    return {
      kind: 'sender',
      reason:
        'The Twilio account is closed: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN to an open account, then resume.',
    };
  return undefined;
}
