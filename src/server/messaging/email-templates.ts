// The confirmation email's two parts: plain text, and simple, accessible HTML (large text, strong
// contrast, real words on links, no images, only our own links). It takes no name on purpose.
import { DATE_LOCALES, LANGUAGE_TAGS, type Language } from '../../shared/languages.js';
import { senderLine } from '../../shared/public-config.js';
import { messageWordsIn } from './message-words.js';

export interface ConfirmationEmailInput {
  /** The person's language (signups.language): the email is written in it. */
  language: Language;
  confirmUrl: string;
  preferencesUrl: string;
  unsubscribeUrl: string;
  siteUrl: string;
  /** The day the details are deleted unless confirmed, in words ("December 24, 2026"). */
  deleteOn: string;
  /** MAIL_POSTAL_ADDRESS, for the footer. */
  postalAddress?: string | undefined;
  /** The one reminder will come this many days after this email, unless they press it (the confirmation email only). */
  reminderInDays?: number | undefined;
  /** Their own link to pass on ("Tell a family member"; the confirmation email only). */
  shareUrl?: string | undefined;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const INK = '#1b2a3a';
const TEAL = '#0b5563';
const CREAM = '#fff9f0';

export function renderConfirmationEmail(input: ConfirmationEmailInput): RenderedEmail {
  const words = messageWordsIn[input.language].confirmation;
  return askToConfirm(input, {
    subject: words.subject,
    heading: words.heading,
    opening: [{ paragraph: words.intro }],
    closing: [
      { paragraph: words.notYou },
      ...(input.shareUrl ? [{ paragraph: words.share }, { link: { url: input.shareUrl, label: input.shareUrl } }] : []),
    ],
  });
}

/** The one "come back?" email to someone who said no (decision 041): their choice stands unless they press. */
export function renderComeBackEmail(
  input: Omit<ConfirmationEmailInput, 'reminderInDays' | 'shareUrl'> & {
    because: 'left' | 'email_off' | 'deleted';
    /** The button is an emailed one (issue 54): it works for this many hours. */
    buttonHours?: number;
  },
): RenderedEmail {
  const words = messageWordsIn[input.language].comeBack;
  const { text, html } = renderEmailParts({
    language: input.language,
    subject: words.subject,
    heading: words.heading,
    body: [
      { paragraph: words.intro },
      { paragraph: words.because[input.because] },
      { paragraph: words.ask, text: words.askText },
      {
        button: {
          url: input.confirmUrl,
          label: words.button,
          ...(input.buttonHours ? { shown: buttonShown(input.confirmUrl) } : {}),
        },
      },
      ...(input.buttonHours ? [{ paragraph: messageWordsIn[input.language].button.works(input.buttonHours) }] : []),
      ...(input.because === 'deleted'
        ? [{ paragraph: words.deleteOn(input.deleteOn), text: words.deleteOnText(input.deleteOn) }]
        : []),
      { paragraph: words.notYou },
    ],
    signature: messageWordsIn[input.language].confirmation.signature,
    footer: personalFooter(input),
  });
  return { subject: words.subject, text, html };
}

/**
 * The button emailed the moment a person asks, on their own page, for something only they may do
 * (issue 54). `does` says what pressing does; `buttonLabel` is the button's words.
 */
export function renderButtonEmail(
  input: Pick<
    ConfirmationEmailInput,
    'language' | 'preferencesUrl' | 'unsubscribeUrl' | 'siteUrl' | 'postalAddress'
  > & {
    action: 'on' | 'back' | 'delete';
    buttonUrl: string;
    does: string;
    buttonLabel: string;
    hours: number;
  },
): RenderedEmail {
  const words = messageWordsIn[input.language].button;
  const subject = words.subject[input.action];
  const { text, html } = renderEmailParts({
    language: input.language,
    subject,
    heading: words.heading[input.action],
    body: [
      { paragraph: words.intro },
      { paragraph: input.does },
      { button: { url: input.buttonUrl, label: input.buttonLabel, shown: buttonShown(input.buttonUrl) } },
      { paragraph: words.works(input.hours) },
      { paragraph: words.notYou },
    ],
    signature: messageWordsIn[input.language].confirmation.signature,
    footer: personalFooter(input),
  });
  return { subject, text, html };
}

/** Where an emailed button goes, as shown under it: the site and /button (its code and time are noise to a reader). */
function buttonShown(url: string): string {
  return shownAddress(`${new URL(url).origin}/button`);
}

/** The one reminder: the same button, the day the details go, and that no other reminder follows. */
export function renderReminderEmail(input: ConfirmationEmailInput): RenderedEmail {
  const words = messageWordsIn[input.language].reminder;
  return askToConfirm(input, {
    subject: words.subject,
    heading: words.heading,
    opening: [{ paragraph: words.intro }],
    closing: [{ paragraph: messageWordsIn[input.language].confirmation.notYou }, { paragraph: words.once }],
  });
}

export interface PhoneChangeEmailInput {
  /** The person's language (signups.language). */
  language: Language;
  changeUrl: string;
  preferencesUrl: string;
  unsubscribeUrl: string;
  siteUrl: string;
  /** The last four digits of the number asked for, and of the one we keep without the button. */
  newEnd: string;
  currentEnd: string;
  /** The last day the button works, in words. */
  until: string;
  postalAddress?: string | undefined;
}

/** A repeat sign-up gave another phone number: the address on record says yes by pressing a button (decision 031). */
export function renderPhoneChangeEmail(input: PhoneChangeEmailInput): RenderedEmail {
  const words = messageWordsIn[input.language].phoneChange;
  const { text, html } = renderEmailParts({
    language: input.language,
    subject: words.subject,
    heading: words.heading,
    body: [
      { paragraph: words.intro(input.newEnd), text: words.introText(input.newEnd) },
      { paragraph: words.where },
      { button: { url: input.changeUrl, label: words.button } },
      { paragraph: words.until(input.until), text: words.untilText(input.until) },
      { paragraph: words.notYou(input.currentEnd) },
    ],
    signature: messageWordsIn[input.language].confirmation.signature,
    footer: personalFooter(input),
  });
  return { subject: words.subject, text, html };
}

/** The later of two ISO times (either may be missing). */
export function latest(a: string, b: string | null | undefined): string {
  return b && Date.parse(b) > Date.parse(a) ? b : a;
}

/** The day `days` after `from`, in the words the emails use ("December 24, 2026"; "24 de diciembre de 2026"). */
export function deletionDay(from: string, days: number, language: Language = 'en'): string {
  const day = new Date(Date.parse(from) + days * 86_400_000);
  return dayFormat(language).format(day);
}

/** One formatter per language: making one costs more than the email it dates (a launch-day rush writes thousands). */
const dayFormats = new Map<Language, Intl.DateTimeFormat>();
function dayFormat(language: Language): Intl.DateTimeFormat {
  let format = dayFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(DATE_LOCALES[language], { dateStyle: 'long', timeZone: 'UTC' });
    dayFormats.set(language, format);
  }
  return format;
}

function askToConfirm(
  input: ConfirmationEmailInput,
  parts: { subject: string; heading: string; opening: EmailLayout['body']; closing: EmailLayout['body'] },
): RenderedEmail {
  const words = messageWordsIn[input.language].confirmation;
  const { text, html } = renderEmailParts({
    language: input.language,
    subject: parts.subject,
    heading: parts.heading,
    body: [
      ...parts.opening,
      { paragraph: words.ask, text: words.askText },
      { button: { url: input.confirmUrl, label: words.button } },
      {
        paragraph: words.keeps(input.deleteOn, input.reminderInDays),
        text: words.keepsText(input.deleteOn, input.reminderInDays),
      },
      ...parts.closing,
    ],
    signature: words.signature,
    footer: personalFooter(input),
  });
  return { subject: parts.subject, text, html };
}

/** The foot of a message about someone's own sign-up: why they got it, their two links, who sends from where. */
function personalFooter(
  input: Pick<ConfirmationEmailInput, 'preferencesUrl' | 'unsubscribeUrl' | 'siteUrl' | 'postalAddress' | 'language'>,
): EmailLayout['footer'] {
  const words = messageWordsIn[input.language].confirmation;
  return {
    why: words.footerWhy,
    links: [
      { url: input.preferencesUrl, label: words.preferencesLink },
      { url: input.unsubscribeUrl, label: words.unsubscribeLink },
    ],
    siteUrl: input.siteUrl,
    sender: senderLine(input.postalAddress),
  };
}

export interface EmailLink {
  url: string;
  label: string;
  /** Where it goes, as shown beside its words: `shownAddress(url)` unless given (a URL filled in later). */
  shown?: string;
}

/** What goes in an email, top to bottom. */
export interface EmailLayout {
  /** The language it is written in (the html's lang). */
  language: Language;
  subject: string;
  heading: string;
  /** Paragraphs (with other words for the plain-text part where the HTML says "press") and buttons. */
  body: ({ paragraph: string; text?: string } | { button: EmailLink } | { link: EmailLink })[];
  signature: string;
  /** Why they got it, their links (preferences, unsubscribe), and the site. */
  /** `sender`: who sends, where (senderLine of MAIL_POSTAL_ADDRESS; '' when unset). */
  footer: { why: string; links: EmailLink[]; siteUrl: string; sender?: string };
}

/**
 * Where a link goes, as a reader can check it: the site and the path, up to any token (a path part of
 * 16 characters or more) and without the query: `scamsavvy.example/app/ios`, `scamsavvy.example/confirm`.
 */
export function shownAddress(url: string): string {
  const { host, pathname } = new URL(url);
  const path: string[] = [];
  for (const part of pathname.split('/').filter(Boolean)) {
    if (part.length >= 16) break;
    path.push(part);
  }
  return [host, ...path].join('/');
}

/** Both parts of an email from one layout. */
export function renderEmailParts(layout: EmailLayout): { text: string; html: string } {
  return { text: emailText(layout), html: emailHtml(layout) };
}

/**
 * The plain-text part: a button becomes its words and its link, each link on a line of its own and
 * in full, so every mail program makes it one thing to tap.
 */
function emailText(layout: EmailLayout): string {
  const body = layout.body.flatMap((block) =>
    'button' in block
      ? [`${block.button.label}:`, block.button.url, '']
      : 'link' in block
        ? [block.link.url, '']
        : [block.text ?? block.paragraph, ''],
  );
  return [
    layout.heading,
    '',
    ...body,
    layout.signature,
    '',
    '',
    // No "-- " line: mail programs fold what follows one away as a signature, links and all.
    layout.footer.why,
    '',
    ...layout.footer.links.flatMap((link) => [`${link.label}:`, link.url, '']),
    layout.footer.siteUrl,
    '',
    ...(layout.footer.sender ? [layout.footer.sender, ''] : []),
  ].join('\n');
}

/**
 * The HTML part: large text, strong contrast, no images, light colours even in dark-mode mail
 * programs, real words on every link.
 */
function emailHtml(layout: EmailLayout): string {
  const site = { url: layout.footer.siteUrl, label: layout.footer.siteUrl.replace(/^https?:\/\//, '') };
  const paragraph = (content: string) =>
    `<p style="margin:0 0 20px;font-size:20px;line-height:1.5;color:${INK};">${escapeHtml(content)}</p>`;
  // A button is a table cell, so Outlook for Windows (which ignores a link's padding and rounding) still
  // draws it whole (mso-padding-alt); under its words, where it goes, as a scam-wary reader checks.
  const button = ({ url, label, shown = shownAddress(url) }: EmailLink) =>
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px;border-collapse:separate;"><tr><td bgcolor="${TEAL}" style="background:${TEAL};border-radius:8px;mso-padding-alt:14px 20px;"><a href="${escapeHtml(url)}" style="display:inline-block;color:#ffffff;font-size:20px;font-weight:700;line-height:1.4;text-align:center;padding:14px 20px;border-radius:8px;text-decoration:none;">${escapeHtml(label)}<br><span style="font-size:18px;font-weight:400;">${escapeHtml(shown)}</span></a></td></tr></table>`;
  // Padded to a 44 px target, like the link pages: small links are hard to hit with an unsteady hand.
  const link = ({ url, label, shown = shownAddress(url) }: EmailLink) => {
    const where = shown === label ? '' : ` <span style="white-space:nowrap;">(${escapeHtml(shown)})</span>`;
    return `<p style="margin:0;"><a href="${escapeHtml(url)}" style="display:inline-block;padding:9px 0;color:${TEAL};text-decoration:underline;">${escapeHtml(label)}${where}</a></p>`;
  };
  const body = layout.body.map((block) =>
    'button' in block
      ? button(block.button)
      : 'link' in block
        ? `<p style="margin:-12px 0 20px;font-size:20px;line-height:1.5;"><a href="${escapeHtml(block.link.url)}" style="color:${TEAL};text-decoration:underline;overflow-wrap:anywhere;">${escapeHtml(block.link.label.replace(/^https?:\/\//, ''))}</a></p>`
        : paragraph(block.paragraph),
  );
  return `<!doctype html>
<html lang="${LANGUAGE_TAGS[layout.language]}" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">
<head>
<meta charset="utf-8">
<!--[if mso]><noscript><xml><o:OfficeDocumentSettings><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml></noscript><![endif]-->
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(layout.subject)}</title>
</head>
<body style="margin:0;padding:0;background:${CREAM};">
<!--[if mso]><table role="presentation" width="600" align="center" cellpadding="0" cellspacing="0" border="0"><tr><td style="font-family:'Segoe UI',Arial,sans-serif;"><![endif]-->
<div role="article" aria-label="${escapeHtml(layout.subject)}" lang="${LANGUAGE_TAGS[layout.language]}" style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:${INK};">
<p style="margin:0 0 24px;font-size:22px;font-weight:700;color:${INK};">${escapeHtml(messageWordsIn[layout.language].product)}</p>
<div style="background:#ffffff;border-radius:12px;padding:28px 20px;">
<h1 style="margin:0 0 20px;font-size:28px;line-height:1.25;color:${INK};">${escapeHtml(layout.heading)}</h1>
${body.join('\n')}
<p style="margin:0;font-size:20px;line-height:1.5;color:${INK};">${escapeHtml(layout.signature)}</p>
</div>
<div style="padding:24px 8px 0;font-size:18px;line-height:1.5;color:${INK};">
<p style="margin:0 0 8px;">${escapeHtml(layout.footer.why)}</p>
${[...layout.footer.links, site].map(link).join('\n')}
${layout.footer.sender ? `<p style="margin:8px 0 0;">${escapeHtml(layout.footer.sender)}</p>` : ''}
</div>
</div>
<!--[if mso]></td></tr></table><![endif]-->
</body>
</html>
`;
}
