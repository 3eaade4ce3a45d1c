// The personal addresses a message or a page links to: the one place each is built. Paths are what
// the link pages serve; the URLs put them on SITE_URL for emails and texts.
import type { LinkSigner } from './link-tokens.js';

export interface LinkUrls {
  /** Opens the page with the "Yes, keep me on the list" button. */
  confirm: string;
  /** The person's own page: what we send them, leaving, deleting. */
  preferences: string;
  /** One-click unsubscribe (RFC 8058): a POST stops email; a GET only shows a page with a button. */
  unsubscribe: string;
}

/** /confirm/…, for the confirmation email. */
function confirmPath(links: LinkSigner, signupId: string): string {
  return `/confirm/${links.sign('confirm', signupId)}`;
}

/**
 * /preferences/… with the "manage" token, and /unsubscribe/… with one that only turns email off (the
 * List-Unsubscribe header shows it to every mail app and forward).
 */
function managePaths(links: LinkSigner, signupId: string): { preferences: string; unsubscribe: string } {
  return {
    preferences: preferencesPath(links, signupId),
    unsubscribe: `/unsubscribe/${links.sign('off', signupId)}`,
  };
}

/** /preferences/…, the person's own page (the link pages link to it on this site). */
export function preferencesPath(links: LinkSigner, signupId: string): string {
  return `/preferences/${links.sign('manage', signupId)}`;
}

/** The person's preferences and unsubscribe URLs, as every message but the confirmation carries. */
export function manageUrls(
  links: LinkSigner,
  siteUrl: string,
  signupId: string,
): Pick<LinkUrls, 'preferences' | 'unsubscribe'> {
  const paths = managePaths(links, signupId);
  return { preferences: `${siteUrl}${paths.preferences}`, unsubscribe: `${siteUrl}${paths.unsubscribe}` };
}

export function linkUrls(links: LinkSigner, siteUrl: string, signupId: string): LinkUrls {
  return { confirm: `${siteUrl}${confirmPath(links, signupId)}`, ...manageUrls(links, siteUrl, signupId) };
}

/** /change-phone/…: the button in the email about a new phone number, good for that number only. */
export function phoneChangeUrl(links: LinkSigner, siteUrl: string, signupId: string, to: string): string {
  return `${siteUrl}/change-phone/${links.sign('phone', signupId, to)}`;
}
