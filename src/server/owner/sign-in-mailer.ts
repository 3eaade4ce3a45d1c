// The owner's sign-in email: one link, through the same SMTP server as every other message
// (SMTP_URL, MAIL_FROM). Not a list email: no unsubscribe headers, and no DKIM of our own (the
// provider signs; the list's key is for the list).
// Like every message, it leaves through the one outbox (issue 54): a row of kind `owner_sign_in`
// naming the owner, ended by what the one judge makes of the mail server's answer. It is sent at
// once and never retried: only the link's hash is kept, so a later try could not write the link.
import type { EmailConfig } from '../messaging-config.js';
import { SENT_AT_ONCE, type OutboxClaims } from '../db/outbox-claims.js';
import { renderEmailParts } from '../messaging/email-templates.js';
import { openMailTransport } from '../messaging/email-sender.js';
import { withoutAddresses } from '../messaging/log-safe.js';
import { reasonWithoutRetry } from '../messaging/send-failure.js';
import { classifySmtpError } from '../messaging/smtp-answers.js';
import { ownerWords } from './owner-words.js';

/** What became of a sign-in email: sent; busy (another is being sent to this owner this moment); or why not. */
export type SignInSend = { sent: true } | { sent: false; busy: true } | { sent: false; busy?: false; reason: string };

export interface SignInMailer {
  send(owner: { id: number; email: string }, link: string): Promise<SignInSend>;
  close(): void;
}

export function signInEmail(link: string, siteUrl: string): { subject: string; text: string; html: string } {
  const words = ownerWords.signInEmail;
  // The owner's words stay in English (issue 45: the dashboard and commands are English).
  const parts = renderEmailParts({
    language: 'en',
    subject: words.subject,
    heading: words.heading,
    body: [{ paragraph: words.intro }, { button: { url: link, label: words.button } }, { paragraph: words.notYou }],
    signature: words.signature,
    footer: { why: words.why, links: [], siteUrl },
  });
  return { subject: words.subject, ...parts };
}

export function createSignInMailer(
  config: EmailConfig,
  siteUrl: string,
  queue: Pick<OutboxClaims, 'beginOwnerSignIn' | 'record'>,
): SignInMailer {
  // Not pooled, not signed with the list's key; written to the folder too in a rehearsal.
  const transport = openMailTransport(config, { pool: false });
  return {
    async send(owner, link) {
      // The gate for it is the owner's record alone, read by the caller: a restore's hold is not
      // theirs (the owner signs in to settle it), and an owner is not on the list.
      const row = await queue.beginOwnerSignIn(owner.id);
      if (row === undefined) return { sent: false, busy: true };
      const { subject, text, html } = signInEmail(link, siteUrl);
      try {
        await transport.sendMail({ from: config.from, to: owner.email, subject, text, html });
      } catch (error) {
        const verdict = classifySmtpError(error);
        const answer = withoutAddresses((error as Error)?.message ?? String(error));
        const reason = reasonWithoutRetry(verdict, ': ask for another link, or use sudo scamsavvy owner:link.');
        await queue.record(SENT_AT_ONCE, [
          verdict.kind === 'recipient'
            ? { id: row, result: 'permanent', error: answer, kind: 'recipient' }
            : { id: row, result: 'skipped', error: `not sent (${verdict.kind}): ${answer}` },
        ]);
        return { sent: false, reason };
      }
      await queue.record(SENT_AT_ONCE, [{ id: row, result: 'sent' }]);
      return { sent: true };
    },
    close: () => transport.close(),
  };
}
