import { describe, expect, it } from 'vitest';
import { linkPageWords, messageWords } from '../../shared/messaging-content.js';
import { readingGrade } from '../../shared/reading-grade.js';
import { renderConfirmationEmail } from './email-templates.js';

const input = {
  confirmUrl: 'https://scamsavvy.example/confirm/AAAA',
  preferencesUrl: 'https://scamsavvy.example/preferences/BBBB',
  unsubscribeUrl: 'https://scamsavvy.example/unsubscribe/BBBB',
  siteUrl: 'https://scamsavvy.example',
  retentionDays: 30,
};

describe('the confirmation email', () => {
  const email = renderConfirmationEmail(input);

  it('has the subject the issue names', () => {
    expect(email.subject).toBe('Please confirm you want launch news from ScamSavvy');
  });

  it('carries the confirm, preferences and unsubscribe links in both parts', () => {
    for (const url of [input.confirmUrl, input.preferencesUrl, input.unsubscribeUrl]) {
      expect(email.text).toContain(url);
      expect(email.html).toContain(`href="${url}"`);
    }
  });

  it('links only to our own site, with real words, and needs no image', () => {
    const hrefs = [...email.html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
    expect(hrefs.length).toBeGreaterThanOrEqual(4);
    for (const href of hrefs) expect(href?.startsWith(`${input.siteUrl}`)).toBe(true);
    expect(email.html).not.toMatch(/<img|background-image|url\(/i);
    expect(email.html).toMatch(/<a [^>]*>Yes, keep me on the list<\/a>/);
    expect(email.html).not.toMatch(/click here/i);
    expect(email.html).toMatch(/<html lang="en">/);
    expect(email.html).toMatch(/font-size:20px/);
  });

  it('says how long unconfirmed details are kept', () => {
    expect(renderConfirmationEmail({ ...input, retentionDays: 14 }).text).toContain('in 14 days');
  });

  it('greets no one by name: it repeats nothing a visitor typed', () => {
    expect(`${email.text}${email.html}`).not.toMatch(/\b(Dear|Hi|Hello)\b/);
  });

  it('escapes what it puts into the HTML', () => {
    const odd = renderConfirmationEmail({ ...input, confirmUrl: 'https://scamsavvy.example/confirm/"><script>' });
    expect(odd.html).not.toContain('"><script>');
  });
});

describe('text replies', () => {
  const replies = {
    help: messageWords.sms.help('hello@scamsavvy.example'),
    stopped: messageWords.sms.stopped,
    started: messageWords.sms.started,
  };
  it.each(Object.entries(replies))('%s is one plain-ASCII text of 160 characters or fewer', (_name, text) => {
    expect(text.length).toBeLessThanOrEqual(160);
    expect(text).toMatch(/^[\x20-\x7e]+$/);
  });
  it('HELP says who we are, how often, the cost, how to stop, and how to reach us', () => {
    expect(replies.help).toMatch(/ScamSavvy/);
    expect(replies.help).toMatch(/a few texts/);
    expect(replies.help).toMatch(/Msg & data rates may apply/);
    expect(replies.help).toMatch(/STOP/);
    expect(replies.help).toContain('hello@scamsavvy.example');
  });
});

describe('plain language (about an 8th-grade reading level)', () => {
  const { confirmation } = messageWords;
  const texts = {
    confirmationEmail: [confirmation.intro, confirmation.ask, confirmation.notYou(30), confirmation.footerWhy].join(
      ' ',
    ),
    textReplies: [messageWords.sms.stopped, messageWords.sms.started].join(' '),
    confirmPage: [linkPageWords.confirm.text, linkPageWords.confirm.doneText].join(' '),
    preferencesPage: [
      linkPageWords.preferences.intro,
      linkPageWords.preferences.leaveText,
      linkPageWords.preferences.deleteText,
      linkPageWords.preferences.deleteAskText,
      linkPageWords.preferences.deleted,
      linkPageWords.preferences.left,
      linkPageWords.preferences.smsStopped,
    ].join(' '),
    unsubscribePage: [linkPageWords.unsubscribe.text, linkPageWords.unsubscribe.doneText].join(' '),
    badLink: linkPageWords.badLink.text,
  };
  it.each(Object.entries(texts))('%s reads at grade 8 or below', (_name, text) => {
    expect(readingGrade(text)).toBeLessThanOrEqual(8);
  });
});
