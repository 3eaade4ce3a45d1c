// The words of every message we send (emails, text replies) and of the pages their links open
// (confirm, preferences, unsubscribe). Beside the page's words (src/client/content.ts), so an owner
// edits words in these two files only (docs/content.md). Plain words, about an 8th-grade level
// (src/server/messaging/messaging-words.test.ts checks). Never put anything a visitor typed in here.

const product = 'ScamSavvy';

/** Emails and text messages. */
export const messageWords = {
  product,
  listName: `${product} launch news`,
  confirmation: {
    subject: `Please confirm you want launch news from ${product}`,
    heading: 'Please confirm your sign-up',
    intro: `Someone, we hope you, asked on the ${product} website to hear from us when our app is ready.`,
    ask: 'If that was you, please press the button below so we know this is your email.',
    button: 'Yes, keep me on the list',
    notYou: (days: number) =>
      `If it was not you, do nothing. We will not write to you again, and we will delete these details in ${days} days.`,
    footerWhy: `You got this email because this address was given on the ${product} website.`,
    preferencesLink: 'Change what we send you',
    unsubscribeLink: 'Stop all emails',
    signature: `The ${product} team`,
  },
  /** Replies to texts: plain ASCII, one text (160 characters or fewer) each. */
  sms: {
    help: (contact: string) =>
      `${product} launch news: a few texts, only about the launch and beta. Msg & data rates may apply. Reply STOP to stop. Help: ${contact}`,
    stopped: `You will get no more texts from ${product}. Reply START to get them again.`,
    started: `${product}: texts are on again, only about the launch and beta. Reply STOP to stop, HELP for help.`,
  },
};

/** The pages the links in messages open. */
export const linkPageWords = {
  product,
  home: 'Go to the home page',
  footer: `${product} will never ask for a password, a bank detail or money.`,
  forAddress: (email: string, phoneEnd: string) =>
    `These choices are for ${email} and the phone number ending ${phoneEnd}.`,
  badLink: {
    title: 'This link does not work',
    text: 'It may be old, or part of it may be missing. If you copied it, please check you copied all of it.',
  },
  confirm: {
    title: 'Please confirm your sign-up',
    text: `Press the button to tell us you want to hear from ${product} when our app is ready.`,
    button: 'Yes, keep me on the list',
    doneTitle: 'Thank you. You are confirmed.',
    doneText: 'We will let you know the moment our app is ready.',
    preferencesLink: 'Change what we send you',
  },
  preferences: {
    title: 'What we send you',
    intro: 'Tick what you want. Untick what you do not want. Then press "Save my choices".',
    choices: {
      email: 'An email when the app is ready',
      sms: 'A text message when the app is ready',
      beta: 'News about testing the app early (beta testing)',
    },
    legend: 'Send me',
    smsStopped:
      'This phone number replied STOP to one of our texts, so we send it no texts. To get them again, reply START.',
    save: 'Save my choices',
    saved: 'Saved. Your choices are now in place.',
    leaveTitle: 'Leave the list',
    leaveText: 'We will stop all emails and texts. You can come back here later and tick a box again.',
    leave: 'Leave the list',
    left: 'You have left the list. We will not write to you again.',
    deleteTitle: 'Delete my details',
    deleteText: 'We will remove your name, phone number and email for good.',
    delete: 'Delete my details',
    deleteAsk: 'Delete your details?',
    deleteAskText:
      'This removes your name, phone number and email for good. We keep only a scrambled code, so we never write to you by mistake.',
    deleteYes: 'Yes, delete my details',
    deleteNo: 'No, keep them',
    deleted: 'We have deleted your details. We will not write to you again.',
    nothingHeld: 'We hold no details for this link. They may have been deleted.',
  },
  unsubscribe: {
    title: 'Stop launch emails?',
    text: `Press the button and ${product} will send no more emails to you.`,
    button: 'Stop emails',
    doneTitle: 'You will get no more emails from us',
    doneText: 'You can change this, or your text messages, on your own page.',
    preferencesLink: 'Change what we send you',
  },
};
