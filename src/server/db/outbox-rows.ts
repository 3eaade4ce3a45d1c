// What the outbox's rows are to the code: a claimed message, what became of it (its outcome and
// failure marks), a failed one the owner's retry may queue again, the counts by state, and one
// person's messages of every kind.
import type { FailureKind, MessageKind, MessageState, PauseMark, TextWaitReason } from './outbox.table.js';
import type { Channel } from './message-channels.js';

export interface ClaimedMessage {
  id: number;
  kind: MessageKind;
  signupId: string;
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  /** Its last failure paused the channel (its pause mark): the first tried after a resume. */
  pausedTheChannel?: boolean;
}

/** What a failure records beside its answer: its pause mark, and whether it was refused for our sending. */
export interface FailureMarks {
  mark?: PauseMark | undefined;
  refused?: boolean | undefined;
}

/**
 * What became of one claimed message, of any kind (db/outbox-claims.ts records it). temporary: tried
 * again at `retryAt` (null: it gave up, and only the owner's `retry` queues it again); permanent:
 * this person's address, for good; requeue: not the person's failure at all (ours, as a wrong
 * password): back in the queue as if never tried, due `at` (now when not said); skipped: not sent,
 * and why.
 */
export type Outcome =
  /** token: the message's record in the message log, given its state and the provider's ids in the same write. */
  | {
      id: number;
      result: 'sent';
      providerId?: string | undefined;
      messageId?: string | undefined;
      token?: string | undefined;
    }
  | ({
      id: number;
      result: 'temporary';
      error: string;
      retryAt: Date | null;
      kind: 'message' | 'unknown' | 'sender';
      /** The trouble is ours, not the person's: the claim's attempt is given back, so their back-off does not grow. */
      ours?: boolean | undefined;
    } & FailureMarks)
  | { id: number; result: 'permanent'; error: string; kind: 'recipient' }
  /** token: the message never left, so its row in the message log goes. */
  | ({
      id: number;
      result: 'requeue';
      error: string;
      kind: FailureKind | null;
      at?: Date | undefined;
      token?: string | undefined;
    } & FailureMarks)
  | { id: number; result: 'skipped'; error: string }
  /**
   * A message that may not go yet (a text before daytime where the person is, or over a state's cap):
   * back in the queue, untried (the attempt does not count), until `until`; token: it was entered in
   * the message log just before, so its record there goes.
   */
  | { id: number; result: 'wait'; until: Date; why?: TextWaitReason | undefined; token?: string | undefined };

/** A failed message the owner's `retry` may queue again. */
export interface FailedMessage {
  id: number;
  signupId: string;
  channel: Channel;
  state: 'failed_temporary' | 'failed_permanent';
  /** Null before release 7: the kind is then read from `error`. */
  failureKind: FailureKind | null;
  /** The answer it got, as it came (addresses removed). */
  error: string | null;
  /** Held: it paused its channel twice, and waits for `retry --held`. */
  held: boolean;
}

export type StateCounts = Record<MessageState, number> & {
  /** Of failed_temporary: how many will be tried again (the rest gave up after the last attempt). */
  retrying: number;
  total: number;
};

/** Error texts kept on outbox rows are short. */
export const ERROR_LENGTH = 300;

/** One message to one person, of any kind, as the owner's page for that person shows it. */
export interface PersonMessage {
  id: number;
  kind: MessageKind;
  /** The broadcast's name, for a broadcast's message. */
  broadcast: string | null;
  channel: Channel;
  state: MessageState;
  attempts: number;
  sentAt: string | null;
  /** When it goes, or is tried again (waiting, or failed for now). */
  nextAttemptAt: string | null;
  /** Why it did not go (or not yet): the provider's answer, or the reason it was skipped. */
  error: string | null;
}
