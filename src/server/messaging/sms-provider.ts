// The port every text-message provider implements: send one text, and read and verify the provider's
// inbound webhook (replies such as STOP and HELP). Twilio is the one implementation today; a second
// provider is one new file beside twilio-sms-provider.ts.
import { SendFailure, type FailureVerdict } from './send-failure.js';

export interface OutgoingText {
  /** E.164, e.g. +15551234567. */
  to: string;
  body: string;
  /** Where the provider reports what became of the text (Twilio's StatusCallback): message-log.ts. */
  statusCallback?: string;
}

export interface SentText {
  /** The provider's id for the message. */
  id: string;
}

/** An inbound webhook request as the route received it. */
export interface InboundRequest {
  /** The full URL the provider called, as it signed it (SITE_URL + path + query). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The form fields of the POST body. */
  params: Record<string, string>;
}

export interface InboundText {
  /** The sender's number, E.164. */
  from: string;
  body: string;
  /** The provider's id for this text (Twilio's MessageSid): a text seen twice is acted on once. */
  id?: string;
}

export interface SmsProvider {
  readonly name: string;
  /** Sends one text. Rejects with SmsSendError, whose verdict says whose fault the failure was. */
  send(text: OutgoingText): Promise<SentText>;
  /**
   * Asks the provider, sending nothing, whether our account may send: resolves when it may, rejects
   * with an SmsSendError saying why not (wrong credentials, a suspended account: the sender's fault).
   */
  checkAccount(): Promise<void>;
  /** True only when the request carries the provider's valid signature for this URL and these fields. */
  verifyInbound(request: InboundRequest): boolean;
  /** The sender and text of a verified inbound request, or undefined if it is not an incoming text. */
  parseInbound(params: Record<string, string>): InboundText | undefined;
  /** What to answer the webhook with when the reply (if any) is sent separately through `send`. */
  readonly emptyInboundAnswer: { contentType: string; body: string };
}

/** A text that was not sent: the provider's answer, its own error code, and whose fault it was. */
export class SmsSendError extends SendFailure {
  constructor(message: string, verdict: FailureVerdict, code?: string | number) {
    super(message, verdict, code);
    this.name = 'SmsSendError';
  }
}
