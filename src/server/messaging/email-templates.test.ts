import { senderLine } from '../../shared/public-config.js';
import { describe, expect, it } from 'vitest';
import { broadcastWords, linkPageWords, messageWords } from './message-words.js';
import { smsSegments } from '../../shared/sms-segments.js';
import { linksHidingWhereTheyGo, outlookMarkup } from '../test/email-links.js';
import { readingGrade } from '../../shared/reading-grade.js';
import {
  deletionDay,
  renderComeBackEmail,
  renderConfirmationEmail,
  renderPhoneChangeEmail,
  renderReminderEmail,
  shownAddress,
} from './email-templates.js';

const input = {
  language: 'en' as const,
  confirmUrl: 'https://scamsavvy.example/confirm/AAAA',
  preferencesUrl: 'https://scamsavvy.example/preferences/BBBB',
  unsubscribeUrl: 'https://scamsavvy.example/unsubscribe/BBBB',
  siteUrl: 'https://scamsavvy.example',
  deleteOn: 'December 24, 2026',
};
const urls = {
  confirm: input.confirmUrl,
  preferences: input.preferencesUrl,
  unsubscribe: input.unsubscribeUrl,
  site: input.siteUrl,
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

  it('asks whether they know someone who should hear, with their own link to pass on, in both parts; the reminder does not', () => {
    const shareUrl = 'https://scamsavvy.example/?ref=7kq2m9x4hz3p';
    const withShare = renderConfirmationEmail({ ...input, shareUrl });
    expect(withShare.text).toContain(`${messageWords.confirmation.share}\n\n${shareUrl}\n`);
    expect(withShare.html).toContain(messageWords.confirmation.share);
    expect(withShare.html).toContain(`href="${shareUrl}"`);
    expect(messageWords.confirmation.share).toContain('Know someone who should hear about this?');
    const reminder = renderReminderEmail({ ...input, shareUrl });
    expect(reminder.text).not.toContain(shareUrl);
    expect(reminder.html).not.toContain(shareUrl);
  });

  it('puts each link of the text part on a line of its own, in full', () => {
    const lines = email.text.split('\n');
    for (const url of Object.values(urls)) expect(lines).toContain(url);
  });

  it('links only to the URLs it was given, with real words on them', () => {
    const hrefs = [...email.html.matchAll(/href\s*=\s*["']?([^"'\s>]*)/gi)].map((match) => match[1]);
    expect(new Set(hrefs)).toEqual(new Set(Object.values(urls)));
    expect(email.html).toMatch(
      /<a [^>]*>Yes, keep me on the list<br><span [^>]*>scamsavvy\.example\/confirm\/AAAA<\/span><\/a>/,
    );
    expect(email.html).toMatch(
      /<a [^>]*>Change what we send you <span [^>]*>\(scamsavvy\.example\/preferences\/BBBB\)<\/span><\/a>/,
    );
    expect(email.html).toMatch(
      /<a [^>]*>Stop all emails <span [^>]*>\(scamsavvy\.example\/unsubscribe\/BBBB\)<\/span><\/a>/,
    );
    expect(`${email.text}${email.html}`).not.toMatch(/click here/i);
  });

  it('needs no image, and declares its language and light colours', () => {
    expect(email.html).not.toMatch(/<img|background-image|url\(/i);
    expect(email.html).toMatch(/^<!doctype html>\n<html lang="en"[ >]/);
    expect(email.html).toContain('<meta name="color-scheme" content="light">');
    expect(email.html).toContain(`<title>${email.subject}</title>`);
  });

  it('sets no text smaller than 18px, and the body at 20px', () => {
    const sizes = [...email.html.matchAll(/font-size:\s*(\d+)px/g)].map((match) => Number(match[1]));
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(18);
    expect(email.html).toMatch(/<p style="[^"]*font-size:20px;line-height:1\.5;/);
  });

  it('says that pressing the button (opening the link, in the plain text) keeps them on the list, and the day their details go without it', () => {
    const kept = renderConfirmationEmail({ ...input, deleteOn: deletionDay('2026-11-24T10:00:00.000Z', 14) });
    const rest =
      'we will delete your details on December 8, 2026. Nothing more comes unless our form is used with this email again.';
    expect(kept.html).toContain(`Pressing the button is what keeps you on the list. If it is not pressed, ${rest}`);
    expect(kept.text.replace(/\s+/g, ' ')).toContain(
      `Opening the link is what keeps you on the list. If it is not opened, ${rest}`,
    );
  });

  it('says the one reminder that will come, when one will, instead of "we will not write to you again"', () => {
    const kept = renderConfirmationEmail({
      ...input,
      deleteOn: deletionDay('2026-11-24T10:00:00.000Z', 14),
      reminderInDays: 7,
    });
    const rest =
      'we will send you one reminder in 7 days, and we will delete your details on December 8, 2026. Nothing more comes unless our form is used with this email again.';
    expect(kept.html).toContain(`Pressing the button is what keeps you on the list. If it is not pressed, ${rest}`);
    expect(kept.text.replace(/\s+/g, ' ')).toContain(
      `Opening the link is what keeps you on the list. If it is not opened, ${rest}`,
    );
    expect(`${kept.text}${kept.html}`).not.toContain('we will not write to you again');
  });

  it('greets no one by name: it repeats nothing a visitor typed', () => {
    // @ts-expect-error: it takes no name, so a sign-up's words cannot reach the email
    const withName = renderConfirmationEmail({ ...input, name: 'Spammy Name visit evil.example' });
    expect(`${withName.text}${withName.html}`).not.toMatch(/Spammy|evil\.example/);
    expect(`${email.text}${email.html}`).not.toMatch(/\b(Dear|Hi|Hello)\b/);
  });

  it('escapes what it puts into the HTML', () => {
    const odd = renderConfirmationEmail({ ...input, confirmUrl: 'https://scamsavvy.example/confirm/"><script>' });
    expect(odd.html).not.toContain('"><script>');
  });
});

describe('texts', () => {
  const site = 'https://scamsavvy.example';
  const { sms } = messageWords;
  const texts = {
    help: sms.help('hello@scamsavvy.example').join('\n'),
    helpWithAddress: sms.help('hello@scamsavvy.example', senderLine('100 Example Street, Springfield, IL 62701')),
    stopped: sms.stopped,
    started: sms.started,
    confirmed: sms.confirmed,
    joiningReply: sms.joining.reply,
    joiningNotice: sms.joining.notice,
    launch: broadcastWords.launch.sms(site),
    beta: broadcastWords.beta.sms(site),
  };
  it.each(
    Object.entries(texts).flatMap(([name, text]) => (Array.isArray(text) ? text : [text]).map((one) => [name, one])),
  )('%s is one GSM-7 segment of plain ASCII: %s', (_name, text) => {
    expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(text).toMatch(/^[\x20-\x7e\n]+$/);
  });
  it('HELP, START and the joining texts say who we are, how often texts come, the cost, and how to stop', () => {
    for (const text of [texts.help, texts.started, texts.joiningReply, texts.joiningNotice, texts.confirmed]) {
      expect(text).toMatch(/^ScamSavvy\b/);
      expect(text).toMatch(/\b2 (texts )?max\b/);
      expect(text).toContain('Msg&data rates may apply.');
      expect(text).toMatch(/Reply STOP to end/);
    }
    expect(texts.help).toContain('hello@scamsavvy.example');
  });
  it('HELP names the sender on a line of its own when it fits in one text, and in a second text only when it does not', () => {
    expect(texts.helpWithAddress).toEqual([`${texts.help}\nScamSavvy, 100 Example Street, Springfield, IL 62701`]);
    const longAddress = senderLine(
      'Suite 1200, 1000 North Example Boulevard, Springfield Gardens, Illinois 62701-1234, USA',
    );
    const split = sms.help('hello@scamsavvy.example', longAddress);
    expect(split).toEqual([texts.help, longAddress]);
    for (const text of split) expect(smsSegments(text).segments).toBe(1);
  });
});

describe('plain language (about an 8th-grade reading level)', () => {
  const { confirmation } = messageWords;
  const texts = {
    confirmationEmail: [
      confirmation.intro,
      confirmation.ask,
      confirmation.askText,
      confirmation.keeps('December 24, 2026'),
      confirmation.notYou,
      confirmation.footerWhy,
    ].join(' '),
    reminderEmail: [messageWords.reminder.intro, messageWords.reminder.once].join(' '),
    helpReply: messageWords.sms.help('hello@scamsavvy.example').join(' '),
    textReplies: [messageWords.sms.stopped, messageWords.sms.started].join(' '),
    confirmPage: [
      linkPageWords.confirm.text,
      linkPageWords.confirm.doneText(true, true),
      linkPageWords.confirm.doneNothing,
      linkPageWords.confirm.doneLaunched,
    ].join(' '),
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

  it('names who sends, and where (MAIL_POSTAL_ADDRESS), at the foot of both parts; nothing when it is unset', () => {
    const address = '100 Example Street, Springfield, IL 62701';
    const withAddress = renderConfirmationEmail({ ...input, postalAddress: address });
    expect(withAddress.text).toContain(`ScamSavvy, ${address}`);
    expect(withAddress.html).toContain(`ScamSavvy, ${address}`);
    expect(renderConfirmationEmail(input).text).not.toContain('Example Street');
  });
});

/** Every email about a sign-up, with tokens as long as real ones. */
function everyEmailAboutASignup() {
  const token = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';
  const real = {
    ...input,
    confirmUrl: `https://scamsavvy.example/confirm/${token}`,
    preferencesUrl: `https://scamsavvy.example/preferences/${token}`,
    unsubscribeUrl: `https://scamsavvy.example/unsubscribe/${token}`,
  };
  return [
    renderConfirmationEmail({ ...real, reminderInDays: 7 }),
    renderReminderEmail(real),
    ...(['left', 'email_off', 'deleted'] as const).map((because) => renderComeBackEmail({ ...real, because })),
    renderPhoneChangeEmail({
      language: 'en',
      changeUrl: `https://scamsavvy.example/change-phone/${token}`,
      siteUrl: real.siteUrl,
      newEnd: '4567',
      currentEnd: '1234',
      until: 'December 1, 2026',
      preferencesUrl: real.preferencesUrl,
      unsubscribeUrl: real.unsubscribeUrl,
    }),
  ];
}

describe('the HTML part of every email about a sign-up', () => {
  it('shows where every link and button goes, in its own words: the site and the path, never the token', () => {
    for (const email of everyEmailAboutASignup()) {
      expect(linksHidingWhereTheyGo(email.html), email.subject).toEqual([]);
      expect(email.html).toMatch(/scamsavvy\.example\/(confirm|change-phone)</);
      expect(email.html).toContain('(scamsavvy.example/unsubscribe)');
      expect(email.html).not.toMatch(/>[^<]*A1b2C3d4/);
    }
    expect(shownAddress('https://scamsavvy.example/app/ios?utm=x')).toBe('scamsavvy.example/app/ios');
    expect(shownAddress('https://scamsavvy.example')).toBe('scamsavvy.example');
  });

  it("keeps its layout in Outlook for Windows: a 600 px table in Outlook's own markup, each button a padded cell", () => {
    for (const email of everyEmailAboutASignup()) {
      const outlook = outlookMarkup(email.html);
      expect(outlook.width, email.subject).toBe(true);
      expect(outlook.buttons, email.subject).toBe(1);
    }
  });
});

describe('the plain-text part of every email about a sign-up', () => {
  it('has a link where the HTML has a button, and never speaks of a button or of pressing', () => {
    const texts = [
      renderConfirmationEmail({ ...input, reminderInDays: 7 }),
      renderReminderEmail(input),
      ...(['left', 'email_off', 'deleted'] as const).map((because) => renderComeBackEmail({ ...input, because })),
      renderPhoneChangeEmail({
        language: 'en',
        changeUrl: 'https://scamsavvy.example/change-phone/CCCC',
        siteUrl: input.siteUrl,
        newEnd: '4567',
        currentEnd: '1234',
        until: 'December 1, 2026',
        preferencesUrl: input.preferencesUrl,
        unsubscribeUrl: input.unsubscribeUrl,
      }),
    ].map((email) => email.text);
    for (const text of texts) {
      expect(text).toMatch(/https:\/\/scamsavvy\.example\/(confirm|change-phone)\//);
      expect(text).not.toMatch(/button|press/i);
    }
  });
});

describe('the words of every email, text and link page', () => {
  /** Every string in them, and the text of every function that builds one. */
  const texts = (value: unknown): string[] =>
    typeof value === 'string' || typeof value === 'function'
      ? [String(value)]
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(texts)
        : [];

  it('are in US spelling, as the page is ("practice", never "practise")', () => {
    const british =
      /\b(practis(e|ed|es|ing)|colour|favour|honour|behaviour|neighbour|organis|recognis|realis|apologis|centre|programme)/i;
    const found = texts({ messageWords, broadcastWords, linkPageWords }).filter((text) => british.test(text));
    expect(found).toEqual([]);
  });
});
