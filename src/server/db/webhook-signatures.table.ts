// The signatures of provider requests that sign less than the whole body (Mailgun signs only its
// timestamp and token): each token used once, with the body it came with, until it expires (issue 42).
import type { Time } from './column-types.js';

export interface WebhookSignaturesTable {
  /** Which provider's (mailgun). */
  source: string;
  /** The signature's one-use token. */
  token: string;
  /** SHA-256 of the body it first came with: the same request again is a redelivery, another body a replay. */
  body_hash: string;
  /** After this the signed timestamp is too old anyway, and the row may go. */
  expires_at: Time;
}
