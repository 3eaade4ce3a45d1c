// The words of every message we send (emails, text replies) and of the pages their links open
// (confirm, preferences, unsubscribe). Beside the page's words (src/client/content.ts), so an owner
// edits words in these two files only (docs/content.md).

export const messagingProductName = 'ScamSavvy';

/** Emails and text messages. */
export const messageWords = {
  // TODO(helper D)
};

/** The pages the links in messages open. */
export const linkPageWords = {
  // TODO(helper C)
};
