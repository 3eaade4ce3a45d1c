// The launch-day broadcasts (docs/launch-day.md): the launch news and the beta invitation, each as
// an email (plain text and HTML) and a text message. Rendered once when a broadcast is created, so
// what the owner previewed is what goes out; each person's own links go in at sending time.
import { LANGUAGES, type Language } from '../../shared/languages.js';
import type { BroadcastContent } from '../db/broadcasts-repository.js';
import { broadcastWordsIn } from '../messaging/message-words.js';
import type { LaunchConfig } from '../config.js';
import { escapeHtml, renderEmailParts, shownAddress } from '../messaging/email-templates.js';
import { senderLine } from '../../shared/public-config.js';

export const BROADCAST_TEMPLATES = ['launch', 'beta'] as const;
export type BroadcastTemplate = (typeof BROADCAST_TEMPLATES)[number];

/** Stand-ins for each person's own links, replaced by `personalise` as each message is written. */
export const PERSONAL_LINK_TOKENS = {
  preferences: '{{preferences_url}}',
  unsubscribe: '{{unsubscribe_url}}',
} as const;

export interface RenderedBroadcast {
  subject: string;
  /** Plain-text part, with the personal-link tokens. */
  text: string;
  /** HTML part, with the personal-link tokens. */
  html: string;
  /** The text message: the same for everyone, so it carries no personal link. */
  sms: string;
}

/** Our own addresses that send each phone on to its store (src/server/site/app-link-routes.ts). */
const STORE_PATHS: Record<BroadcastTemplate, { ios: string; android: string }> = {
  launch: { ios: '/app/ios', android: '/app/android' },
  beta: { ios: '/beta/ios', android: '/beta/android' },
};

/** The settings a template's links lead to, and which of them are not set. */
export function templateProblems(template: BroadcastTemplate, launch: LaunchConfig): string[] {
  const needs: [string, string | undefined][] =
    template === 'launch'
      ? [
          ['APP_STORE_URL', launch.appStoreUrl],
          ['PLAY_STORE_URL', launch.playStoreUrl],
        ]
      : [
          ['BETA_IOS_URL', launch.betaIosUrl],
          ['BETA_ANDROID_URL', launch.betaAndroidUrl],
        ];
  return needs.filter(([, value]) => !value).map(([name]) => name);
}

/** The broadcast in every language the site speaks (issue 45): English, and each other as a translation. */
export function renderBroadcastContent(
  template: BroadcastTemplate,
  settings: { siteUrl: string; postalAddress?: string | undefined },
): BroadcastContent {
  const translations = Object.fromEntries(
    LANGUAGES.filter((language) => language !== 'en').map((language) => [
      language,
      renderBroadcast(template, { ...settings, language }),
    ]),
  );
  return { ...renderBroadcast(template, { ...settings, language: 'en' }), translations };
}

export function renderBroadcast(
  template: BroadcastTemplate,
  {
    siteUrl,
    postalAddress,
    language = 'en',
  }: { siteUrl: string; postalAddress?: string | undefined; language?: Language },
): RenderedBroadcast {
  const common = broadcastWordsIn[language];
  const words = common[template];
  const ios = `${siteUrl}${STORE_PATHS[template].ios}`;
  const android = `${siteUrl}${STORE_PATHS[template].android}`;
  const { text, html } = renderEmailParts({
    language,
    subject: words.subject,
    heading: words.heading,
    body: [
      { paragraph: words.intro },
      { paragraph: words.about },
      { paragraph: words.ask, text: words.askText },
      { button: { url: ios, label: words.ios } },
      { button: { url: android, label: words.android } },
      { paragraph: words.once },
      { paragraph: common.safety },
    ],
    signature: common.signature,
    footer: {
      why: common.footerWhy,
      links: [
        // Each person's own link is put in later: where it goes is the same for all.
        {
          url: PERSONAL_LINK_TOKENS.preferences,
          label: common.preferencesLink,
          shown: shownAddress(`${siteUrl}/preferences`),
        },
        {
          url: PERSONAL_LINK_TOKENS.unsubscribe,
          label: common.unsubscribeLink,
          shown: shownAddress(`${siteUrl}/unsubscribe`),
        },
      ],
      siteUrl,
      sender: senderLine(postalAddress),
    },
  });
  return { subject: words.subject, text, html, sms: words.sms(siteUrl) };
}

/** One person's email: their own preferences and unsubscribe links in place of the tokens. */
export function personalise(
  content: Pick<RenderedBroadcast, 'text' | 'html'>,
  links: { preferencesUrl: string; unsubscribeUrl: string },
): { text: string; html: string } {
  const fill = (part: string, escape: (url: string) => string) =>
    part
      .replaceAll(PERSONAL_LINK_TOKENS.preferences, escape(links.preferencesUrl))
      .replaceAll(PERSONAL_LINK_TOKENS.unsubscribe, escape(links.unsubscribeUrl));
  return { text: fill(content.text, (url) => url), html: fill(content.html, escapeHtml) };
}
