// The link pages' words: plain (about an 8th-grade reading level), all from linkPageWordsIn in the
// person's language (English and Spanish, issue 45), and anything stored about a person escaped.
import { describe, expect, it } from 'vitest';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../shared/languages.js';
import { linkPageWordsIn } from '../../messaging/message-words.js';
import { readingGradeIn } from '../../../shared/reading-grade.js';
import { signupMessagesIn } from '../../../shared/signup-schema.js';
import * as linkPages from './link-pages.js';
import { deleteQuestionPage, preferencesPage, type PreferencesPageProps } from './preferences-page.js';
import { LINK_PAGE_SCRIPT_PLACEHOLDER } from './link-page-layout.js';
import { TEXT_SIZE_HEAD_SCRIPT, TEXT_SIZES, textSizeWords } from '../../../shared/text-size.js';
import { shareLinks, shareWordsIn } from '../../../shared/share-content.js';

const words = linkPageWordsIn.en;
const shareWords = shareWordsIn.en;
const { preferences: text } = words;
const everything = { email: true, sms: true, beta: true };
const englishPerson: PreferencesPageProps = {
  language: 'en',
  preferences: everything,
  willSend: everything,
  email: 'ro•••@example.com',
  phoneEnd: '4567',
  left: false,
  smsStopped: false,
  path: '/preferences/token',
  shareUrl: 'https://scamsavvy.example/?ref=7kq2m9x4hz3p',
};
const person = englishPerson;
/** What was typed wrong, and what the sign-up form's own rules say of it in the page's language. */
const wrongDetailsIn = (language: Language) => ({
  name: 'R',
  phone: '12ab',
  errors: { name: signupMessagesIn[language].nameTooShort, phone: signupMessagesIn[language].phoneInvalid },
});

/** Every page in every state it can be in, as the server sends it, in one language. */
const pagesIn = (language: Language): Record<string, string> => {
  const { preferences: text } = linkPageWordsIn[language];
  const person = { ...englishPerson, language };
  return {
    badLink: linkPages.badLinkPage(language),
    nothingHeld: linkPages.noticePage(text.nothingHeldTitle, text.nothingHeld, language),
    deleted: linkPages.noticePage(text.deletedTitle, text.deleted, language),
    confirm: linkPages.confirmPage({ state: 'unconfirmed', preferencesUrl: '/preferences/token', language }),
    confirmed: linkPages.confirmPage({ state: 'confirmed', preferencesUrl: '/preferences/token', language }),
    confirmAfterLeaving: linkPages.confirmPage({ state: 'left', preferencesUrl: '/preferences/token', language }),
    preferences: preferencesPage(person),
    saved: preferencesPage({ ...person, done: 'saved' }),
    languageSaved: preferencesPage({ ...person, done: 'language' }),
    notConfirmed: preferencesPage({ ...person, notConfirmed: true }),
    smsStopped: preferencesPage({ ...person, preferences: { ...everything, sms: false }, smsStopped: true }),
    left: preferencesPage({
      ...person,
      preferences: { email: false, sms: false, beta: false },
      left: true,
      done: 'left',
    }),
    detailsSaved: preferencesPage({ ...person, done: 'details' }),
    phoneChanged: preferencesPage({ ...person, done: 'phone' }),
    phoneChangedNoTexts: preferencesPage({
      ...person,
      preferences: { ...everything, sms: false },
      willSend: { ...everything, sms: false },
      smsStopped: true,
      done: 'phone',
    }),
    detailsProblem: preferencesPage({ ...person, detailsForm: wrongDetailsIn(language) }),
    phoneChange: linkPages.phoneChangePage({ newEnd: '9876', currentEnd: '4567', language }),
    phoneChangeGone: linkPages.phoneChangeGonePage(language),
    deleteQuestion: deleteQuestionPage({ path: '/preferences/token', language }),
    unsubscribe: linkPages.unsubscribePage({ done: false, preferencesUrl: '/preferences/token', language }),
    unsubscribed: linkPages.unsubscribePage({ done: true, preferencesUrl: '/preferences/token', language }),
  };
};
const pages = pagesIn('en');
const pagesByLanguage = LANGUAGES.map((language) => [language, pagesIn(language)] as const);

/** The text a reader sees (and the tab's title), one string per text node. */
function visibleText(html: string): string[] {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<script>[\s\S]*?<\/script>/g, '')
    .split(/<[^>]*>/)
    .map((node) =>
      node
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
        .trim(),
    )
    .filter((node) => node !== '');
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

/** Ends a heading or label with a full stop, so the measure counts it as its own sentence. */
const sentence = (line: string) => (/[.!?]$/.test(line) ? line : `${line}.`);

describe.each(LANGUAGES)('the link pages’ words, in %s', (language) => {
  const words = linkPageWordsIn[language];
  const text = words.preferences;
  const shareWords = shareWordsIn[language];
  const pages = pagesIn(language);
  it('every visible word comes from linkPageWordsIn (no literal text in the pages)', () => {
    const { savedThings } = text;
    const phrases = [
      ...stringsIn(words),
      // The Text size control and the share panel (shared with the landing page), and the link itself.
      ...stringsIn(textSizeWords[language]),
      ...stringsIn(shareWords),
      person.shareUrl ?? '',
      // Each language's name, in its own words, on the choice of language.
      ...Object.values(LANGUAGE_NAMES).map((name) => name.own),
      ...TEXT_SIZES.map((size) => size.label),
      words.forAddress(person.email, person.phoneEnd),
      text.saved([savedThings.email, savedThings.sms, savedThings.beta]),
      text.phoneHint(person.phoneEnd),
      text.detailsSaved(person.phoneEnd),
      text.phoneChanged(person.phoneEnd),
      words.phoneChange.text('9876'),
      words.phoneChange.keep('4567'),
      `${text.detailsProblem} ${text.title}`,
      // The sign-up form's own messages, for what was typed wrong.
      ...Object.values(wrongDetailsIn(language).errors),
    ];
    const known = new Set([...phrases, ...phrases.map(words.pageTitle)]);
    for (const [name, html] of Object.entries(pages)) {
      for (const node of visibleText(html)) expect(known.has(node), `${name}: "${node}"`).toBe(true);
    }
  });

  it.each(Object.entries(pages))('%s reads at grade 8 or below', (_name, html) => {
    const lines = visibleText(html).slice(1); // not the tab's title: the h1 says it again
    expect(readingGradeIn(language, lines.map(sentence).join(' '))).toBeLessThanOrEqual(8);
  });
});

describe('the link pages’ words, in English', () => {
  it('the saved message restates what we will send, in a list the way people say it', () => {
    const { savedThings } = text;
    expect(text.saved([])).toBe('Saved. We will not send you anything.');
    expect(text.saved([savedThings.beta])).toBe('Saved. We will send you news about beta testing.');
    expect(text.saved([savedThings.email, savedThings.sms, savedThings.beta])).toBe(
      'Saved. We will send you an email when the app launches, a text message when the app launches and news about beta testing.',
    );
  });
});

describe('the details form', () => {
  it('keeps what was typed, says what is wrong beside each field, and ties the message to it', () => {
    const html = pages.detailsProblem!;
    expect(html).toContain('role="alert"');
    expect(html).toContain(text.detailsProblem);
    expect(html).toMatch(/<p class="field-error" id="name-error">Name must be at least 2 characters<\/p>/);
    const nameInput = html.match(/<input id="name"[^>]*>/)?.[0] ?? '';
    expect(nameInput).toContain('value="R"');
    expect(nameInput).toContain('aria-describedby="name-error name-hint"');
    expect(nameInput).toContain('aria-invalid="true"');
    const phoneInput = html.match(/<input id="phone"[^>]*>/)?.[0] ?? '';
    expect(phoneInput).toContain('value="12ab"');
    expect(phoneInput).toContain('aria-describedby="phone-error phone-hint"');
    expect(phoneInput).toContain('aria-invalid="true"');
    expect(html).toContain('<a href="#name">');
  });

  it('offers empty fields (never the name a stranger may have typed) with the last digits we hold', () => {
    const html = pages.preferences!.replace(/<style>[\s\S]*?<\/style>/, '');
    expect(html).toMatch(/id="name"[^>]*value=""/);
    expect(html).toMatch(/id="phone"[^>]*value=""/);
    expect(html).toContain(text.phoneHint('4567'));
    expect(html).not.toContain('aria-invalid');
  });

  it('after a change says what we hold and what texts will now do, from the rule', () => {
    expect(pages.detailsSaved).toContain(text.detailsSaved('4567'));
    expect(pages.detailsSaved).toContain(text.textsToNumber);
    expect(pages.phoneChangedNoTexts).toContain(text.phoneChanged('4567'));
    expect(pages.phoneChangedNoTexts).toContain(text.noTextsToNumber);
    expect(pages.phoneChangedNoTexts).toContain(text.smsStopped);
    expect(pages.phoneChangedNoTexts).not.toContain(text.textsToNumber);
  });
});

describe('the link pages’ markup', () => {
  it('escapes what is stored about a person: an email cannot add markup', () => {
    const html = preferencesPage({ ...person, email: 'ro•••@<img src=x onerror=alert(1)>"example.com' });
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;example.com');
  });

  it.each(pagesByLanguage)(
    'is a whole document in %s: doctype, language, viewport, noindex, one h1; no script but the text size line and the place for the pages script',
    (language, pages) => {
      for (const [name, html] of Object.entries(pages)) {
        expect(html, name).toMatch(new RegExp(`^<!doctype html><html lang="${language}">`));
        expect(html, name).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
        expect(html, name).toContain('<meta name="robots" content="noindex"/>');
        // The one inline script, in the head before anything is drawn; the page's own comes in at the placeholder.
        expect(html.match(/<script[\s\S]*?<\/script>/g), name).toEqual([`<script>${TEXT_SIZE_HEAD_SCRIPT}</script>`]);
        expect(html.indexOf('<script>'), name).toBeLessThan(html.indexOf('</head>'));
        expect(html, name).toContain(`${LINK_PAGE_SCRIPT_PLACEHOLDER}</body>`);
        expect(html, name).not.toMatch(/\son[a-z]+=/i);
        expect(html.match(/<h1>/g), name).toHaveLength(1);
      }
    },
  );

  it('offers "Tell a family member" on the preferences page, readable without script: the link written out, a text and an email', () => {
    const html = pages.preferences ?? '';
    const url = person.shareUrl ?? '';
    const links = shareLinks(url, shareWords);
    expect(html).toContain(`<h2 id="share-heading" class="share__prompt">${shareWords.prompt}</h2>`);
    // Without script the panel shows; the button (the phone's share sheet) and Copy wait for script.
    expect(html).toMatch(/<button type="button" class="button button--primary share__button"[^>]*hidden=""/);
    expect(html).toMatch(/<div id="share-panel" class="share__panel" data-share-panel="">/);
    expect(html).toContain(`<span class="share__url">${url}</span>`);
    expect(html).toContain(`href="${links.sms.replace(/&/g, '&amp;')}"`);
    expect(html).toContain(`href="${links.email.replace(/&/g, '&amp;')}"`);
    expect(decodeURIComponent(links.sms)).toContain(url);
    expect(decodeURIComponent(links.email)).toContain(url);
    expect(html).toMatch(/<li hidden="" data-share-copy-item="">/);
    // Someone who left is not asked to pass it on.
    expect(pages.left).not.toContain(shareWords.prompt);
  });

  it('says on the preferences page which boxes are ticked, each with its own label', () => {
    const html = preferencesPage({ ...person, preferences: { email: true, sms: false, beta: true } });
    expect(html).toContain(`<input type="checkbox" name="email" checked="" value="on"/><span>${text.choices.email}`);
    expect(html).toContain(`<input type="checkbox" name="sms" value="on"/><span>${text.choices.sms}`);
    expect(html).toContain(`<input type="checkbox" name="beta" checked="" value="on"/><span>${text.choices.beta}`);
  });

  it('offers no "Leave the list" to someone who has left, and says how to come back', () => {
    expect(pages.preferences).toContain(text.leave);
    expect(pages.left).not.toContain(`>${text.leave}</button>`);
    expect(pages.left).toMatch(
      /role="status"><p>You have left the list\. We will send you no launch news\. If your email is ever typed into our form again, we will ask you once, and nothing changes unless you say yes\.<\/p><p>If you change your mind/,
    );
  });
});
