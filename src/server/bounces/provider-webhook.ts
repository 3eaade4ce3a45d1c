// The port every provider's webhook implements (one file per provider beside this one): verify the
// request before reading a word of it, then turn it into FeedbackEvents. The routes
// (webhook-routes.ts) store each event once and act on it (feedback.ts).
import type { IncomingHttpHeaders } from 'node:http';
import type { SignatureToken } from '../db/webhook-signatures-repository.js';
import type { FeedbackEvent, FeedbackSource } from './report-event.js';

/** A webhook request as it arrived: the body's exact bytes (signatures are over them), never parsed first. */
export interface WebhookRequest {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  /** The full URL the provider called, as it signed it (SITE_URL + path + query). */
  url: string;
}

export type WebhookVerdict =
  /** Verified: these events (maybe none: a test ping, an event kind we do not act on). */
  | {
      ok: true;
      events: FeedbackEvent[];
      /** Amazon SNS: a subscription to confirm, by GETting this URL (checked to be SNS's own host). */
      confirmSubscriptionUrl?: string;
      /**
       * A signature that does not cover the body (Mailgun's): its token is to be used once, with
       * this body. The reports' batch checks it and remembers it (act-on-reports.ts) before a word of
       * the request is believed; a token used before with another body is refused (403).
       */
      signature?: SignatureToken;
    }
  /** Refused: 401 (no or bad credentials/signature), 403 (signed, but not for us: a topic we did not ask for, too old; a replayed one-use signature is refused by the reports' batch, also 403), 400 (not readable after verifying), 503 (cannot be checked just now: the provider sends it again). */
  | { ok: false; status: 400 | 401 | 403 | 503; reason: string };

export interface FeedbackWebhook {
  readonly source: FeedbackSource;
  /** Verifies, then parses. Never throws on a bad request: it answers a verdict. */
  handle(request: WebhookRequest): Promise<WebhookVerdict>;
  /**
   * The headers that make this provider hand our message token back with each event (Postmark's
   * metadata, Mailgun's variables, SendGrid's unique args, SES's message tags …), added to every
   * email while this webhook is on.
   */
  tagHeaders?(token: string): Record<string, string>;
}

/** The body read as JSON; undefined where it is not JSON at all (each webhook says what it expected). */
export function jsonBody(request: WebhookRequest): unknown {
  try {
    return JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A field of a provider's JSON as text: a non-empty string, else undefined. */
export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
