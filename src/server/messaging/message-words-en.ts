// The words of every message we send (emails, text replies) and of the pages their links open
// (confirm, preferences, unsubscribe), in English; the Spanish is in message-words-es.ts, in the same
// shape (issue 45), and message-words.ts gives each language's. Beside the page's words (src/client/content-en.ts), so an owner edits words in
// these files only (docs/content.md). Plain words, about an 8th-grade level
// (src/server/messaging/email-templates.test.ts checks). Never put anything a visitor typed in here.
// Each message goes in its person's language: use messageWordsIn[language] and its twins.

import { shareWordsIn } from '../../shared/share-content.js';
import { smsSegments } from '../../shared/sms-segments.js';

const shareWords = shareWordsIn.en;

const product = 'ScamSavvy';
/** The texts a person on the list can get from us at most: the launch text, and the beta one if they asked. */
const TEXTS_AT_MOST = 2;
/** The carriers' notice, in the short form their own examples use. */
const RATES = 'Msg&data rates may apply.';

/** What the person does with an email's button (HTML), or with its link (the plain-text part). */
const BUTTON = { doing: 'Pressing the button', done: 'pressed' } as const;
const LINK = { doing: 'Opening the link', done: 'opened' } as const;

/** What keeps them on the list, and what happens without it (confirmation.keeps). */
function keepsWords(action: typeof BUTTON | typeof LINK, deleteOn: string, reminderInDays?: number): string {
  const reminder = reminderInDays
    ? `we will send you one reminder in ${reminderInDays} ${reminderInDays === 1 ? 'day' : 'days'}, and `
    : '';
  return `${action.doing} is what keeps you on the list. If it is not ${action.done}, ${reminder}we will delete your details on ${deleteOn}. Nothing more comes unless our form is used with this email again.`;
}

/** Emails and text messages. */
export const messageWords = {
  product,
  listName: `${product} launch news`,
  confirmation: {
    subject: `Please confirm you want launch news from ${product}`,
    heading: 'Please confirm your sign-up',
    intro: `Someone, we hope you, asked on the ${product} website to hear from us when our app is ready.`,
    ask: 'If that was you, please press the button below so we know this is your email.',
    /** The plain-text part has no button. */
    askText: 'If that was you, please open the link below so we know this is your email.',
    button: 'Yes, keep me on the list',
    /**
     * What keeps them on the list, and what happens without it, with the day their details go; with
     * `reminderInDays`, the one reminder that will come first (the confirmation email, while
     * CONFIRMATION_REMINDER_DAYS is on).
     */
    keeps: (deleteOn: string, reminderInDays?: number) => keepsWords(BUTTON, deleteOn, reminderInDays),
    /** The same for the plain-text part, which has a link where the HTML has a button. */
    keepsText: (deleteOn: string, reminderInDays?: number) => keepsWords(LINK, deleteOn, reminderInDays),
    notYou: 'If it was not you, do nothing.',
    /** Before their own link to pass on (its words are the page's: shared/share-content.ts). */
    share: `${shareWords.prompt} Send them this link to our page:`,
    footerWhy: `You got this email because this address was given on the ${product} website.`,
    preferencesLink: 'Change what we send you',
    unsubscribeLink: 'Stop all emails',
    signature: `The ${product} team`,
  },
  /**
   * Someone who said no (left, turned email off, deleted their details) and whose email was typed into
   * the form again: asked once whether to come back; nothing changes unless they press (decision 041).
   */
  comeBack: {
    subject: `Do you want launch news from ${product} again?`,
    heading: 'Do you want to hear from us again?',
    intro: `Someone, we hope you, signed up again on the ${product} website with this email.`,
    because: {
      left: 'Before that, you had left our list.',
      email_off: 'Before that, you had turned off our emails.',
      deleted: 'Before that, you had asked us to delete your details, and we did.',
    },
    ask: 'If you want an email from us when our app is ready, please press the button below.',
    askText: 'If you want an email from us when our app is ready, please open the link below.',
    button: 'Yes, send me launch news again',
    /** The details typed in again are deleted on that day unless they press (the one who had deleted theirs). */
    deleteOn: (day: string) => `If you do not press it, we will delete the details typed in again on ${day}.`,
    deleteOnText: (day: string) => `If you do not open it, we will delete the details typed in again on ${day}.`,
    notYou: 'If it was not you, or you do not want this, do nothing. Nothing changes, and we will not ask you again.',
  },
  /**
   * The button emailed the moment a person asks, on their own page, for something only they may do
   * (issue 54): turn something on, come back after leaving, delete their details. It works once, for
   * BUTTON_HOURS (consent/emailed-buttons.ts).
   */
  button: {
    subject: {
      on: `Turn on news from ${product}?`,
      back: `Get launch news from ${product} again?`,
      delete: `Delete your details from ${product}?`,
    },
    heading: {
      on: 'Do you want this turned on?',
      back: 'Do you want launch news again?',
      delete: 'Do you want your details deleted?',
    },
    intro: `Someone, we hope you, asked for this on your own page on the ${product} website.`,
    works: (hours: number) => `The button works once, and only for ${hours} hours.`,
    notYou: 'If it was not you, do nothing. Nothing changes unless you press the button.',
  },
  /** The one reminder, CONFIRMATION_REMINDER_DAYS after the confirmation email, before the details are deleted. */
  reminder: {
    subject: `Please confirm you still want launch news from ${product}`,
    heading: 'Do you still want to hear from us?',
    intro: `A few days ago, someone, we hope you, asked on the ${product} website to hear from us when our app is ready. We have not heard back yet.`,
    once: 'This is the only reminder we will send.',
  },
  /**
   * A repeat sign-up gave another phone number: the address on record is asked before it changes
   * (decision 031). `end` is the new number's last four digits, `currentEnd` the one we keep.
   */
  phoneChange: {
    subject: `Did you ask to change your phone number for ${product}?`,
    heading: 'Change your phone number?',
    intro: (end: string) => `Someone asked to change your phone number to •••• ${end}. Press the button to change it.`,
    introText: (end: string) =>
      `Someone asked to change your phone number to •••• ${end}. Open the link below to change it.`,
    where: `They did it on the ${product} website: by signing up again with your email, or on the page the link in our emails opens (an email can be passed on).`,
    button: 'Change my phone number',
    notYou: (currentEnd: string) => `If it was not you, do nothing. We will keep the number ending ${currentEnd}.`,
    until: (day: string) => `The button works until ${day}.`,
    untilText: (day: string) => `The link works until ${day}.`,
  },
  /**
   * Replies to texts and the joining text: plain ASCII, each one GSM-7 segment (160 characters or
   * fewer; sms-segments.ts counts as carriers do), each saying who we are, how often texts come and the
   * carriers' rates notice where the rules ask (CTIA's Messaging Principles: HELP, the opt-in, START).
   */
  sms: {
    /**
     * HELP: who sends, how often, the cost, how to stop, and how to reach us; then who and where we are
     * (MAIL_POSTAL_ADDRESS, as every email's footer says it) on a line of its own, or in a second text
     * when both would not fit in one.
     */
    help: (contact: string, sender = ''): string[] => {
      const first = `${product} launch texts, ${TEXTS_AT_MOST} max. ${RATES} Reply STOP to end. Help: ${contact}`;
      if (!sender) return [first];
      const joined = `${first}\n${sender}`;
      return smsSegments(joined).segments === 1 ? [joined] : [first, sender];
    },
    stopped: `You will get no more texts from ${product}. Reply START to get them again.`,
    /**
     * The joining text, once, to a number that joins while texts are set up (decision 041): who we
     * are, what comes, how to say yes, stop and get help, and the carriers' rates notice. `reply`:
     * only a YES brings the launch text (SMS_CONFIRMATION=reply); `notice`: it comes unless STOP.
     */
    joining: {
      reply: `${product}: reply YES to get a text when our app launches (and beta news if you asked), ${TEXTS_AT_MOST} texts max. Reply STOP to end, HELP for help. ${RATES}`,
      notice: `${product}: we will text you when our app launches (and beta news if you asked), ${TEXTS_AT_MOST} texts max. Reply STOP to end, HELP for help. ${RATES}`,
    },
    /** The answer to YES: what happens next. */
    confirmed: `${product}: thanks. You will get a text when we launch (and beta news if you asked), ${TEXTS_AT_MOST} texts max. Reply STOP to end, HELP for help. ${RATES}`,
    started: `${product}: texts are on again, launch and beta news only, ${TEXTS_AT_MOST} max. ${RATES} Reply STOP to end, HELP for help.`,
  },
};

/**
 * The two broadcasts of launch day (docs/launch-day.md): the launch news, and the beta invitation.
 * Their links go to our own site only (/app/ios, /app/android, /beta/ios, /beta/android), which sends
 * each phone on to its store: a scam-wary reader sees our address, never a long store link.
 */
export const broadcastWords = {
  launch: {
    subject: `${product} is here: our app is ready`,
    heading: 'Our app is ready',
    intro: `You asked us to tell you when the ${product} app is ready. It is ready now, and you can get it today.`,
    about: `${product} helps you spot scams. You practice with safe emails, calls and texts, and a real person is there to help.`,
    ask: 'Press the button for your phone to get the app.',
    /** The plain-text part has no buttons. */
    askText: 'Open the link for your phone to get the app.',
    ios: 'Get it for iPhone or iPad',
    android: 'Get it for Android',
    once: 'This is the one launch email we said we would send.',
    sms: (siteUrl: string) => `${product}: our app is ready! Get it here: ${siteUrl}/app Reply STOP to stop.`,
  },
  beta: {
    subject: `You are invited to test the ${product} app early`,
    heading: 'Help us test our app',
    intro: `You told us you would like to test ${product} before everyone else. The test version is ready now.`,
    about: 'Try it, then tell us what works and what does not. It helps us make the app better for everyone.',
    ask: 'Press the button for your phone to get the test version.',
    askText: 'Open the link for your phone to get the test version.',
    ios: 'Test it on iPhone or iPad',
    android: 'Test it on Android',
    once: 'We send this only to people who asked to test the app.',
    sms: (siteUrl: string) =>
      `${product}: the test version of our app is ready for you. Get it here: ${siteUrl}/beta Reply STOP to stop.`,
  },
  /** Under both. */
  safety: `${product} will never ask for a password, a bank detail or money.`,
  footerWhy: `You got this email because you signed up for news on the ${product} website.`,
  preferencesLink: 'Change what we send you',
  unsubscribeLink: 'Stop all emails',
  signature: `The ${product} team`,
};

export type MessageWords = typeof messageWords;
export type BroadcastWords = typeof broadcastWords;

// The pages the links open are in their own file, the same way.
export { linkPageWords, type LinkPageWords } from './link-page-words-en.js';
