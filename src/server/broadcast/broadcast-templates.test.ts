import { describe, expect, it } from 'vitest';
import { broadcastWords, broadcastWordsIn } from '../messaging/message-words.js';
import { readingGrade, readingGradeIn } from '../../shared/reading-grade.js';
import {
  BROADCAST_TEMPLATES,
  PERSONAL_LINK_TOKENS,
  personalise,
  renderBroadcast,
  renderBroadcastContent,
  templateProblems,
} from './broadcast-templates.js';
import { contentIn } from '../db/broadcasts-repository.js';
import { smsSegments } from '../../shared/sms-segments.js';
import { linksHidingWhereTheyGo, outlookMarkup } from '../test/email-links.js';

const siteUrl = 'https://scamsavvy.example';
const mine = {
  preferencesUrl: `${siteUrl}/preferences/AAAA.bbbb`,
  unsubscribeUrl: `${siteUrl}/unsubscribe/AAAA.bbbb`,
};
const stores = { launch: ['/app/ios', '/app/android'], beta: ['/beta/ios', '/beta/android'] };

describe.each(BROADCAST_TEMPLATES)('the %s broadcast', (template) => {
  const content = renderBroadcast(template, { siteUrl });
  const email = personalise(content, mine);
  const links = [
    ...stores[template].map((path) => `${siteUrl}${path}`),
    mine.preferencesUrl,
    mine.unsubscribeUrl,
    siteUrl,
  ];

  it('shows where every link and button goes in its own words, and keeps its layout in Outlook for Windows', () => {
    const real = personalise(content, {
      preferencesUrl: `${siteUrl}/preferences/A1b2C3d4E5f6G7h8I9j0`,
      unsubscribeUrl: `${siteUrl}/unsubscribe/A1b2C3d4E5f6G7h8I9j0`,
    });
    expect(linksHidingWhereTheyGo(real.html)).toEqual([]);
    for (const path of stores[template]) expect(real.html).toContain(`scamsavvy.example${path}</span>`);
    expect(outlookMarkup(real.html)).toMatchObject({ width: true, buttons: 2 });
  });

  it('links only to our own site: the store pages, their own links and the home page', () => {
    const hrefs = [...email.html.matchAll(/href\s*=\s*["']?([^"'\s>]*)/gi)].map((match) => match[1]);
    expect(new Set(hrefs)).toEqual(new Set(links));
    const textUrls = email.text.match(/https?:\/\/\S+/g) ?? [];
    expect(new Set(textUrls)).toEqual(new Set(links));
  });

  it('puts each link of the text part on a line of its own and says to open it, never "click"', () => {
    const lines = email.text.split('\n');
    for (const url of links) expect(lines).toContain(url);
    expect(email.text).toMatch(/Open the link for your phone/);
    expect(`${email.text}${email.html}`).not.toMatch(/click/i);
  });

  it('has real words on its buttons, no images, and text no smaller than 18px', () => {
    const words = broadcastWords[template];
    expect(email.html).toMatch(new RegExp(`<a [^>]*>${words.ios}<br><span [^>]*>scamsavvy\\.example/`));
    expect(email.html).toMatch(new RegExp(`<a [^>]*>${words.android}<br><span [^>]*>scamsavvy\\.example/`));
    expect(email.html).toMatch(/<a [^>]*>Stop all emails <span [^>]*>\(scamsavvy\.example\/unsubscribe\)<\/span><\/a>/);
    expect(email.html).not.toMatch(/<img|background-image|url\(/i);
    const sizes = [...email.html.matchAll(/font-size:\s*(\d+)px/g)].map((match) => Number(match[1]));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(18);
  });

  it('leaves no personal-link token behind once personalised', () => {
    expect(content.text).toContain(PERSONAL_LINK_TOKENS.unsubscribe);
    expect(content.html).toContain(PERSONAL_LINK_TOKENS.preferences);
    expect(`${email.text}${email.html}`).not.toContain('{{');
  });

  it('reads at grade 8 or below', () => {
    const words = broadcastWords[template];
    const prose = [
      words.intro,
      words.about,
      words.askText,
      words.once,
      broadcastWords.safety,
      broadcastWords.footerWhy,
    ];
    expect(readingGrade(prose.join(' '))).toBeLessThanOrEqual(8);
  });

  it('fits its text message in one GSM-7 segment, with our link and how to stop', () => {
    const longSite = 'https://www.scamsavvy-launch.example.org';
    for (const url of [siteUrl, longSite]) {
      const sms = renderBroadcast(template, { siteUrl: url }).sms;
      expect(smsSegments(sms)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      expect(sms).toContain(`${url}/${template === 'launch' ? 'app' : 'beta'} `);
      expect(sms).toMatch(/Reply STOP to stop\.$/);
    }
  });
});

describe('personalising', () => {
  it('escapes a link for the HTML part and leaves the text part as it is', () => {
    const content = {
      text: `x ${PERSONAL_LINK_TOKENS.preferences}`,
      html: `<a href="${PERSONAL_LINK_TOKENS.preferences}">`,
    };
    const email = personalise(content, { preferencesUrl: 'https://a.example/p?x=1&y=2', unsubscribeUrl: 'u' });
    expect(email.text).toBe('x https://a.example/p?x=1&y=2');
    expect(email.html).toBe('<a href="https://a.example/p?x=1&amp;y=2">');
  });
});

describe('what each template needs', () => {
  it('names the store links the launch news needs, and the test links the beta invitation needs', () => {
    expect(templateProblems('launch', { mode: 'coming-soon' })).toEqual(['APP_STORE_URL', 'PLAY_STORE_URL']);
    expect(templateProblems('beta', { mode: 'coming-soon', betaIosUrl: 'https://b.example/i' })).toEqual([
      'BETA_ANDROID_URL',
    ]);
    expect(
      templateProblems('launch', {
        mode: 'launched',
        appStoreUrl: 'https://apps.apple.com/app/id1',
        playStoreUrl: 'https://play.google.com/store/apps/details?id=x',
      }),
    ).toEqual([]);
  });
});

// Issue 45: the broadcast is rendered in every language at create; each person gets theirs.
describe.each(BROADCAST_TEMPLATES)('the %s broadcast in Spanish', (template) => {
  const content = renderBroadcastContent(template, { siteUrl });
  const spanish = content.translations?.es;

  it('is kept beside the English, which stays where an older broadcast has it', () => {
    expect(content.subject).toBe(broadcastWords[template].subject);
    expect(spanish?.subject).toBe(broadcastWordsIn.es[template].subject);
    expect(spanish?.html).toMatch(/^<!doctype html>\n<html lang="es"/);
    for (const path of stores[template]) expect(spanish?.text).toContain(`${siteUrl}${path}`);
    expect(spanish?.text).toContain(PERSONAL_LINK_TOKENS.unsubscribe);
  });

  it('reads at grade 8 or below (Fernández-Huerta), and its text is one GSM-7 segment', () => {
    const words = broadcastWordsIn.es[template];
    const common = broadcastWordsIn.es;
    const prose = [words.intro, words.about, words.askText, words.once, common.safety, common.footerWhy];
    expect(readingGradeIn('es', prose.join(' '))).toBeLessThanOrEqual(8);
    for (const url of [siteUrl, 'https://www.scamsavvy-launch.example.org']) {
      const sms = renderBroadcast(template, { siteUrl: url, language: 'es' }).sms;
      expect(smsSegments(sms)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      expect(sms).toMatch(/Responda ALTO para no recibir mas\.$/);
    }
  });

  it('an older broadcast, with no translation, gives everyone the English it previewed', () => {
    const { translations: _none, ...older } = content;
    expect(contentIn(older, 'es')).toEqual(contentIn(content, 'en'));
    expect(contentIn(content, 'es').subject).toBe(spanish?.subject);
  });
});
