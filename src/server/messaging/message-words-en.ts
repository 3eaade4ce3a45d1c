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

/** The pages the links in messages open. */
export const linkPageWords = {
  product,
  pageTitle: (title: string) => `${title} - ${product}`,
  home: 'Go to the home page',
  footer: `${product} will never ask for a password, a bank detail or money.`,
  forAddress: (email: string, phoneEnd: string) =>
    `These choices are for ${email} and the phone number ending ${phoneEnd}.`,
  badLink: {
    title: 'This link does not work any more',
    text: 'It may be old, or part of it may be missing. If you copied it, please check you copied all of it.',
  },
  confirm: {
    title: `Please confirm you want launch news from ${product}`,
    text: `Press the button to tell us you want to hear from ${product} when our app is ready.`,
    button: 'Yes, keep me on the list',
    doneTitle: 'Thank you. You are confirmed.',
    /** By the channels the launch message will really use for them. */
    doneText: (email: boolean, sms: boolean) =>
      `We will let you know${email && sms ? ' by email and by text' : email ? ' by email' : ' by text'} the moment our app is ready.`,
    /** Confirmed, but email and texts are off (or cannot reach them): no launch news will come. */
    doneNothing:
      'You have turned off our emails and texts, so we will not send you the launch news. To get it, choose what we send you on your own page.',
    /** The launch message has gone out already. */
    doneLaunched: `Our app is out now, so there is no launch message left to send. You can get ${product} from the App Store or Google Play.`,
    /** The "come back?" page, for someone who left or turned email off (decision 041). */
    comeBackTitle: 'Do you want launch news again?',
    leftText: 'You left our list, so we send you nothing.',
    emailOffText: 'You turned off our emails, so we send you none.',
    comeBackText:
      'If you want an email from us when our app is ready, press the button. Texts stay off: you can turn them on from your own page.',
    comeBackButton: 'Yes, send me launch news again',
    comeBackNotYou: 'If you do not want this, do nothing. Nothing changes unless you press the button.',
    preferencesLink: 'Change what we send you',
  },
  preferences: {
    title: 'What we send you',
    about: 'We only write about our app: when it launches, and how to test it early.',
    intro: 'Tick what you want. Untick what you do not want. Then press "Save my choices".',
    choices: {
      email: 'Email when the app launches',
      sms: 'A text message when the app launches',
      beta: 'News about beta testing',
    },
    legend: 'Send me',
    smsStopped:
      'This phone number replied STOP to one of our texts, so we send it no texts. To get them again, reply START.',
    smsUnreachable:
      'Our texts cannot reach this phone number: the phone company says it cannot get texts (a landline, or a number no longer in use). To get texts, give us a mobile number below.',
    /** The number's own suppression is a leaving or a deletion (someone using it left): only START from it lifts that. */
    smsTakenOff:
      'This phone number was taken off our list (someone using it left the list or deleted their details), so we send it no texts. If it is your number and you want texts, send the word START from it to the number our texts come from.',
    /** Someone using the number turned our texts off (issue 54: kept by the number): START from it lifts that. */
    smsTurnedOff:
      'Someone using this phone number turned our texts off, so we send it none. If it is your number and you want texts, send the word START from it to the number our texts come from.',
    /** Texts on, but the number has not replied YES to our joining text (decision 041). */
    smsAwaitingYes: (asked: boolean): string =>
      asked
        ? 'We texted this number to ask if you want texts. Reply YES to that text to get a text when the app launches.'
        : 'We will text this number to ask if you want texts. Reply YES to that text to get a text when the app launches.',
    emailUnreachable:
      'Our emails to this address came back undelivered, so we send it no more email. If the address works again, sign up again with it.',
    /** Their own "no" on the email (left or deleted before, or an unsubscribe their provider passed on to us). */
    emailAskedNot:
      'You asked us to stop emails to this address (here, or through your email provider), so we send it none. To get launch news by email again, tick the box and press "Save my choices".',
    emailComplained:
      'One of our emails to this address was marked as spam, so we will never send it email again. Your texts are not affected.',
    save: 'Save my choices',
    notConfirmed:
      'We have not heard back from you since you signed up. To stay on the list, press "Save my choices" below.',
    /** After saving, once the launch message has gone out: what is left to send. */
    savedLaunched: (beta: boolean) =>
      `Saved. Our app is out now, so there is no launch message left to send.${beta ? ' We will send you news about beta testing.' : ''}`,
    /** After saving: what they will get now, in a list the way people say it. */
    saved: (things: string[]) => {
      if (things.length === 0) return 'Saved. We will not send you anything.';
      const list = things.length === 1 ? things[0] : `${things.slice(0, -1).join(', ')} and ${things.at(-1)}`;
      return `Saved. We will send you ${list}.`;
    },
    savedThings: {
      email: 'an email when the app launches',
      sms: 'a text message when the app launches',
      beta: 'news about beta testing',
    },
    leaveTitle: 'Leave the list',
    leaveText: 'We will stop all emails and texts. You can come back here later and tick a box again.',
    leave: 'Leave the list',
    left: 'You have left the list. We will send you no launch news. If your email is ever typed into our form again, we will ask you once, and nothing changes unless you say yes.',
    comeBack: 'If you change your mind, tick a box below and press "Save my choices".',
    deleteTitle: 'Delete my details',
    deleteText: 'We will remove your name, phone number and email from our list.',
    delete: 'Delete my details',
    deleteAsk: 'Delete your details?',
    deleteAskText:
      'This removes your name, phone number and email from our list. Safety copies of the list (backups) keep them until those copies are replaced by newer ones. We keep only a scrambled code, so we never write to you by mistake.',
    deleteYes: 'Yes, delete my details',
    deleteNo: 'No, keep them',
    deletedTitle: 'Your details are gone',
    deleted:
      'We have deleted your details. If your email is ever typed into our form again, we will ask you once whether you want to come back, and nothing changes unless you say yes.',
    detailsTitle: 'Your name and phone number',
    detailsIntro: 'If we have your name or phone number wrong, change it here.',
    nameLabel: 'New name',
    nameHint: 'Leave it empty to keep the name you gave.',
    phoneLabel: 'New mobile phone number',
    phoneHint: (end: string) =>
      `We have a number ending ${end}. To change it, type the whole new number: we will email you a button to make the change. Include + and your country code if outside the US. Leave it empty to keep it.`,
    detailsSave: 'Save my details',
    detailsProblem: 'Please check your details. Nothing was changed.',
    nothingTyped: 'Please type a new name or a new phone number.',
    /** After a change of name or phone: what we hold now, then what texts will do. */
    detailsSaved: (phoneEnd: string) => `Saved. Your phone number ends ${phoneEnd}.`,
    phoneChanged: (phoneEnd: string) => `Done. Your phone number now ends ${phoneEnd}.`,
    /** A new number typed on this page: the address on record is asked first (decision 041). */
    nameSaved: 'Saved your name.',
    phoneAsked: (email: string, newEnd: string, currentEnd: string) =>
      `To keep your number safe, we are sending an email to ${email}. Press the button in it to change your phone number to the one ending ${newEnd}. Until then we keep the number ending ${currentEnd}.`,
    phoneAskedToday: (email: string, currentEnd: string) =>
      `We sent an email to ${email} about a new phone number less than a day ago, and send at most one a day. Press the button in that email, or try again tomorrow. We keep the number ending ${currentEnd}.`,
    phoneNeedsEmail:
      'We cannot email you just now to check a new number, so it was not changed. Please write to us at the address in our emails.',
    textsToNumber: 'We will send a text message to this number when the app launches.',
    /** After a change, once the launch message has gone out. */
    textsLaunched: 'Our app is out now, so there is no launch text left to send.',
    noTextsToNumber: 'We will not send texts to this number. The note by the text box below says why.',
    noTextsChosen: 'Texts are off. To get a text when the app launches, tick the box below and save.',
    nothingHeldTitle: 'We hold no details for this link',
    nothingHeld: 'They may have been deleted. You can sign up again on our home page.',
    /** Issue 45: the language we write to them in (each language's name is in its own words). */
    languageTitle: 'The language we write in',
    languageIntro: 'Our emails, our texts and these pages are in the language you choose here.',
    languageLegend: 'Write to me in',
    languageSave: 'Save the language',
    languageSaved: 'Saved. We will write to you in English.',
  },
  /** The page the phone number change email's button opens (decision 031). */
  phoneChange: {
    title: 'Change your phone number?',
    // A no-break space keeps the dots with the digits on a narrow screen.
    text: (end: string) =>
      `Someone asked to change your phone number to ••••\u00a0${end}. If it was you, press the button.`,
    keep: (currentEnd: string) => `If it was not you, do nothing. We will keep the number ending ${currentEnd}.`,
    button: 'Change my phone number',
    goneTitle: 'This link does not work any more',
    gone: 'It may be for a change of phone number that was replaced by a newer one, or asked for more than 7 days ago. You can change your phone number on your own page: use the "Change what we send you" link in any email from us.',
  },
  unsubscribe: {
    title: 'Stop launch emails?',
    text: `Press the button to turn off emails from ${product}.`,
    button: 'Stop emails',
    doneTitle: 'Emails from us are off',
    doneText:
      'We will send you no more emails. Only if someone types your email into our page again do we send one, to ask if it was you. You can change this, or your texts, on your own page.',
    preferencesLink: 'Change what we send you',
    /** Where their page is, on a page an unsubscribe link opened (it only turns things off). */
    ownPage: 'Your own page is linked at the foot of each of our emails.',
  },
};

export type MessageWords = typeof messageWords;
export type BroadcastWords = typeof broadcastWords;
export type LinkPageWords = typeof linkPageWords;
