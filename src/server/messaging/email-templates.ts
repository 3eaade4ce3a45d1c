// The confirmation email's two parts: plain text, and simple, accessible HTML (large text, strong
// contrast, real words on links, no images, only our own links). It takes no name on purpose.
import { messageWords } from '../../shared/messaging-content.js';

export interface ConfirmationEmailInput {
  confirmUrl: string;
  preferencesUrl: string;
  unsubscribeUrl: string;
  siteUrl: string;
  retentionDays: number;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const INK = '#1b2a3a';
const TEAL = '#0b5563';
const CREAM = '#fff9f0';

export function renderConfirmationEmail(input: ConfirmationEmailInput): RenderedEmail {
  const words = messageWords.confirmation;
  const site = input.siteUrl.replace(/^https?:\/\//, '');
  const text = [
    words.heading,
    '',
    words.intro,
    '',
    words.askText,
    '',
    `${words.button}:`,
    input.confirmUrl,
    '',
    words.notYou(input.retentionDays),
    '',
    words.signature,
    '',
    '',
    // No "-- " line: mail programs fold what follows one away as a signature, links and all.
    words.footerWhy,
    '',
    `${words.preferencesLink}:`,
    input.preferencesUrl,
    '',
    `${words.unsubscribeLink}:`,
    input.unsubscribeUrl,
    '',
    input.siteUrl,
    '',
  ].join('\n');

  const paragraph = (content: string) =>
    `<p style="margin:0 0 20px;font-size:20px;line-height:1.5;color:${INK};">${escapeHtml(content)}</p>`;
  // Padded to a 44 px target, like the link pages: small links are hard to hit with an unsteady hand.
  const link = (url: string, label: string) =>
    `<a href="${escapeHtml(url)}" style="display:inline-block;padding:9px 0;color:${TEAL};text-decoration:underline;">${escapeHtml(label)}</a>`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(words.subject)}</title>
</head>
<body style="margin:0;padding:0;background:${CREAM};">
<div role="article" aria-label="${escapeHtml(words.subject)}" lang="en" style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:${INK};">
<p style="margin:0 0 24px;font-size:22px;font-weight:700;color:${INK};">${escapeHtml(messageWords.product)}</p>
<div style="background:#ffffff;border-radius:12px;padding:28px 20px;">
<h1 style="margin:0 0 20px;font-size:28px;line-height:1.25;color:${INK};">${escapeHtml(words.heading)}</h1>
${paragraph(words.intro)}
${paragraph(words.ask)}
<p style="margin:0 0 24px;"><a href="${escapeHtml(input.confirmUrl)}" style="display:inline-block;background:${TEAL};color:#ffffff;font-size:20px;font-weight:700;line-height:1.4;text-align:center;padding:14px 20px;border-radius:8px;text-decoration:none;">${escapeHtml(words.button)}</a></p>
${paragraph(words.notYou(input.retentionDays))}
<p style="margin:0;font-size:20px;line-height:1.5;color:${INK};">${escapeHtml(words.signature)}</p>
</div>
<div style="padding:24px 8px 0;font-size:18px;line-height:1.5;color:${INK};">
<p style="margin:0 0 8px;">${escapeHtml(words.footerWhy)}</p>
<p style="margin:0;">${link(input.preferencesUrl, words.preferencesLink)}</p>
<p style="margin:0;">${link(input.unsubscribeUrl, words.unsubscribeLink)}</p>
<p style="margin:0;">${link(input.siteUrl, site)}</p>
</div>
</div>
</body>
</html>
`;
  return { subject: words.subject, text, html };
}
