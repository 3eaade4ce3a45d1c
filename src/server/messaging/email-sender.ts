// Sends email through SMTP (nodemailer, pooled), every list email with its unsubscribe headers.
// TODO(helper A): implementation.

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The personal one-click unsubscribe link (HTTPS in production): List-Unsubscribe and List-Unsubscribe-Post. */
  unsubscribeUrl: string;
}

export interface SentEmail {
  messageId: string;
}

export interface EmailSender {
  send(email: OutgoingEmail): Promise<SentEmail>;
  close(): void;
}

export class EmailSendError extends Error {
  constructor(
    message: string,
    /** True when sending again cannot succeed (the server refused this address for good: SMTP 5xx). */
    readonly permanent: boolean,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'EmailSendError';
  }
}
