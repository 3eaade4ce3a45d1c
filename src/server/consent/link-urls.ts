// The personal addresses a message links to, all on SITE_URL.
import type { LinkSigner } from './link-tokens.js';

export interface LinkUrls {
  /** Opens the page with the "Yes, keep me on the list" button. */
  confirm: string;
  /** The person's own page: what we send them, leaving, deleting. */
  preferences: string;
  /** One-click unsubscribe (RFC 8058): a POST stops email; a GET only shows a page with a button. */
  unsubscribe: string;
}

export function linkUrls(links: LinkSigner, siteUrl: string, signupId: string): LinkUrls {
  const manage = links.sign('manage', signupId);
  return {
    confirm: `${siteUrl}/confirm/${links.sign('confirm', signupId)}`,
    preferences: `${siteUrl}/preferences/${manage}`,
    unsubscribe: `${siteUrl}/unsubscribe/${manage}`,
  };
}
