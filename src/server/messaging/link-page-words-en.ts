// The words of the pages the links in our messages open (confirm, preferences, unsubscribe, the
// emailed buttons), in English; the Spanish is in message-words-es.ts, in the same shape (issue 45),
// and message-words.ts gives each language's. Plain words, about an 8th-grade level. Never put
// anything a visitor typed in here.

const product = 'ScamSavvy';

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
    comeBackButton: 'Yes, email me the button',
    /** The "come back?" page an older link opens: the button that does it is emailed (issue 54). */
    comeBackByEmail: 'To be sure it is you, we will email you a button. Launch news starts again when you press it.',
    comeBackNotYou: 'If you do not want this, do nothing. Nothing changes unless you press the button.',
    preferencesLink: 'Change what we send you',
  },
  preferences: {
    title: 'What we send you',
    about: 'We only write about our app: when it launches, and how to test it early.',
    intro:
      'Tick what you want. Untick what you do not want. Then press "Save my choices". To turn something on, we email you a button first, to be sure it is you.',
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
    /** Deleting needs a button emailed at that moment (issue 54). */
    deleteByEmail: 'To be sure it is you, we will email you a button. Your details are deleted when you press it.',
    deleteYes: 'Yes, email me the button',
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
    /**
     * Turning something on, coming back or deleting: a button is emailed to the address on record
     * (issue 54), since this page's own link may have been passed on. `does` is one of buttonDoes.
     */
    buttonSent: (email: string, does: string, hours: number) =>
      `We have emailed ${email} a button. Press it ${does}. It works once, and only for ${hours} hours. We ask this way so that nobody else can do it with a copy of one of our emails.`,
    buttonDoes: {
      on: (things: string) => `to turn on ${things}`,
      back: 'and we will send you launch news again',
      delete: 'to delete your details',
    },
    /** What an emailed button turns on, each (in a list by `listed`). */
    buttonThings: {
      email: 'our email when the app launches',
      sms: 'our text message when the app launches',
      beta: 'news about beta testing',
    },
    /** Things in a list, the way people say it. */
    listed: (things: string[]) =>
      things.length <= 1 ? (things[0] ?? '') : `${things.slice(0, -1).join(', ')} and ${things.at(-1)}`,
    /** Before buttonSent, when the same save turned something off (done at once). */
    offSaved: 'Saved what you turned off.',
    buttonNotSent:
      'We could not send you the email with the button just now, so nothing else changed. Please try again in a few minutes.',
    buttonUnreachable:
      'Our emails to this address cannot be delivered, so we cannot send you the button this needs. Please write to us at the address in our emails.',
    buttonLimit:
      'We have sent you several of these emails in the last hour. Please press the button in the newest one, or try again later.',
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
  /** The page an emailed button opens (issue 54): what it does, one button; or why it no longer works. */
  button: {
    title: {
      on: 'Turn this on?',
      back: 'Do you want launch news again?',
      delete: 'Delete your details?',
    },
    /** What pressing does; `things` as the page's "Saved." list says them. */
    on: (things: string) => `Press the button to turn on ${things}.`,
    back: 'Press the button and we will send you an email when our app is ready. Texts stay as they are.',
    delete:
      'This removes your name, phone number and email from our list. We keep only a scrambled code, so we never write to you by mistake.',
    yes: {
      on: 'Yes, turn it on',
      back: 'Yes, send me launch news again',
      delete: 'Yes, delete my details',
    },
    notYou: 'If you did not ask for this, do nothing. Nothing changes.',
    usedTitle: 'This button does not work any more',
    used: 'It was pressed already, or your choices changed after we sent it. Your own page is linked at the foot of each of our emails.',
    expiredTitle: 'This button has run out',
    expired: (hours: number) =>
      `It worked for ${hours} hours after we sent it. Press the button below and we will email you a new one.`,
    again: 'Email me a new button',
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

export type LinkPageWords = typeof linkPageWords;
