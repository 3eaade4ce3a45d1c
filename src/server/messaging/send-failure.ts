// Whose fault a failed send is: the one shape every provider's answer is turned into (by
// smtp-answers.ts and twilio-answers.ts), and that every sender (the confirmation mailer, a
// broadcast's senders, `broadcast test`) acts on. docs/messaging.md has the table.
import type { FailureKind } from '../db/outbox.table.js';

/**
 * recipient: this person's address or number, for good (no such mailbox, not a mobile): their row
 *   fails and the address is marked undeliverable.
 * message: this message, for now (4xx, timeouts, dropped connections, 429, 5xx): retried with back-off.
 * sender: us, not the recipient (credentials, From not allowed, account suspended, TLS, DNS): nobody's
 *   row fails; the channel pauses with the reason until the owner resumes.
 * unknown: an answer the tables do not know: retried like "message" a few times, then the channel
 *   pauses with the answer quoted. Never the person's fault.
 */
export type { FailureKind };

export interface FailureVerdict {
  kind: FailureKind;
  /**
   * What happened and what to do, in plain words for the owner, e.g. "The mail server refused our
   * sign-in: check SMTP_URL, then resume." Never holds an address.
   */
  reason: string;
  /** Twilio 21610: the person replied STOP to this sender; record it as their STOP. */
  stop?: boolean;
  /**
   * Refused for our sending by a receiving server (block list, reputation, volume, spam policy):
   * tried again like "message", never the person's; the channel pauses when they mount up.
   */
  refused?: true;
  /**
   * About this person for this send only (their own server's policy, Twilio 21408/21608): the
   * message is skipped with the reason and the send goes on; nothing changes for the person.
   */
  skip?: true;
}

/**
 * What a verdict does to the message, the same for every sender (a broadcast's and the outbox's one
 * sender of the product's own messages): the one judge's ruling, which each sender carries out with
 * its own means (a broadcast pauses a channel, the outbox sender makes its batch wait).
 * - fails: the person's address or number, for good: the message fails, the address is marked;
 * - skipped: this person's own server's policy, for this send only: skipped with the reason, the
 *   send goes on, nothing changes for the person;
 * - ours: our setup (credentials, From, account): nobody's message counts it; it waits for us;
 * - again: for now, or unknown: tried again with back-off; never the person's fault.
 */
export type VerdictStep = 'fails' | 'skipped' | 'ours' | 'again';

export function verdictStep(verdict: Pick<FailureVerdict, 'kind' | 'skip'>): VerdictStep {
  if (verdict.kind === 'recipient') return 'fails';
  if (verdict.skip) return 'skipped';
  if (verdict.kind === 'sender') return 'ours';
  return 'again';
}

/** How a "for now" reason ends while a sender goes on trying: the rules end such reasons with it. */
export const KEEP_TRYING = ': we will keep trying.';

/**
 * A reason as said where nobody will try again (a one-off send such as `broadcast test`, a message
 * given up): without the promise to keep trying, and with `after` in its place.
 */
export function reasonWithoutRetry(verdict: Pick<FailureVerdict, 'reason'>, after = '.'): string {
  const { reason } = verdict;
  return reason.endsWith(KEEP_TRYING) ? `${reason.slice(0, -KEEP_TRYING.length)}${after}` : reason;
}

/** A send that failed: the provider's answer (the message, addresses removed by whoever logs it) and its verdict. */
export class SendFailure extends Error {
  constructor(
    message: string,
    readonly verdict: FailureVerdict,
    /** The provider's own code: the SMTP reply code, or Twilio's error code. */
    readonly code?: string | number,
  ) {
    super(message);
    this.name = 'SendFailure';
  }

  get kind(): FailureKind {
    return this.verdict.kind;
  }

  /** True when sending again cannot succeed for this person (the recipient kind). */
  get permanent(): boolean {
    return this.verdict.kind === 'recipient';
  }
}

/** The verdict of any error a send threw: a SendFailure's own, else an unknown answer. */
export function verdictOf(error: unknown): FailureVerdict {
  if (error instanceof SendFailure) return error.verdict;
  return {
    kind: 'unknown',
    reason: `Sending failed with an answer we do not recognise: "${(error as Error)?.message ?? String(error)}".`,
  };
}
