// What a reader of an email's HTML part sees of each link: its words, and whether they say where it goes.
import { shownAddress } from '../messaging/email-templates.js';

/** Each link of the HTML part whose own words do not show its site and path (as `shownAddress` puts it). */
export function linksHidingWhereTheyGo(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)]
    .map(([, href, inner]) => ({
      href: href!.replaceAll('&amp;', '&'),
      words: inner!.replace(/<br\s*\/?>/g, ' ').replace(/<[^>]+>/g, ''),
    }))
    .filter(({ href, words }) => !words.includes(shownAddress(href)))
    .map(({ href, words }) => `${words} → ${href}`);
}

/** Outlook for Windows' own markup: a 600 px table around the email, and buttons that are table cells. */
export function outlookMarkup(html: string): { width: boolean; buttons: number; links: number } {
  return {
    width:
      /<!--\[if mso\]><table role="presentation" width="600"[\s\S]*<!--\[if mso\]><\/td><\/tr><\/table><!\[endif\]-->/.test(
        html,
      ),
    buttons: (html.match(/<td bgcolor="#[0-9a-f]{6}" style="[^"]*mso-padding-alt:14px 20px;[^"]*"><a /gi) ?? []).length,
    links: (html.match(/<a\s/g) ?? []).length,
  };
}
