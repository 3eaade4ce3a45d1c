// "Tell a family member": the words, and the links a person passes on (their own ?ref= link, as a text
// message, an email or the phone's share sheet). With the rest of the page's words (docs/content.md),
// here because the success view, the preferences page and the confirmation email all say them.
import { REFERRAL_PARAMETER } from './referral.js';

export const shareWords = {
  prompt: 'Know someone who should hear about this?',
  button: 'Tell a family member',
  panelLabel: 'Ways to pass it on',
  sms: 'Send a text message',
  email: 'Send an email',
  copy: 'Copy the link',
  copied: 'Copied',
  copyFailed: 'Could not copy. Press and hold the link to copy it.',
  /** Before the link itself, where it is shown (the email, and the page without script). */
  yourLink: 'Your link to pass on:',
  /** What the phone's share sheet, the text message and the email carry, before the link. */
  title: 'ScamSavvy is coming',
  text: 'I joined the list to hear when ScamSavvy is ready. It is a phone app that helps older people spot scams by practising with safe, pretend ones. Have a look:',
  emailSubject: 'A phone app that helps spot scams',
} as const;

/** The link a person passes on: the site with their code, or the plain site without one. */
export function shareUrl(siteUrl: string, code: string | null | undefined): string {
  const base = `${siteUrl.replace(/\/+$/, '')}/`;
  return code ? `${base}?${REFERRAL_PARAMETER}=${encodeURIComponent(code)}` : base;
}

/** The text message and the email, ready to open in the phone's own apps (no server sends them). */
export function shareLinks(url: string): { sms: string; email: string } {
  const body = `${shareWords.text} ${url}`;
  return {
    // "?&body=": the form both iPhones and Android phones read.
    sms: `sms:?&body=${encodeURIComponent(body)}`,
    email: `mailto:?subject=${encodeURIComponent(shareWords.emailSubject)}&body=${encodeURIComponent(body)}`,
  };
}
