// How long we keep what people send us, where the privacy notice names it: the page says it and the
// server keeps to it from this one number.

/** The days a text no rule acted on is kept for the owner's Replies list, then erased. */
export const REPLY_KEEP_DAYS = 90;
