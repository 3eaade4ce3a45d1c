// The owner's sign-in email: one link, through the same SMTP server as every other message
// (SMTP_URL, MAIL_FROM). Not a list email: no unsubscribe headers, and no DKIM of our own (the
// provider signs; the list's key is for the list).
import type { EmailConfig } from '../messaging-config.js';
import { renderEmailParts } from '../messaging/email-templates.js';
import { openMailTransport } from '../messaging/email-sender.js';
import { ownerWords } from './owner-words.js';

export interface SignInMailer {
  send(to: string, link: string): Promise<void>;
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

export function createSignInMailer(config: EmailConfig, siteUrl: string): SignInMailer {
  // Not pooled, not signed with the list's key; written to the folder too in a rehearsal.
  const transport = openMailTransport(config, { pool: false });
  return {
    async send(to, link) {
      const { subject, text, html } = signInEmail(link, siteUrl);
      await transport.sendMail({ from: config.from, to, subject, text, html });
    },
    close: () => transport.close(),
  };
}
