// Every word the owner's pages and sign-in email say, in one place (docs/owner-guide.md); launch day's are in broadcast-words.ts.
import { plural } from '../../shared/plain-numbers.js';
import type { Channel } from '../db/message-channels.js';
import type { SuppressionReason } from '../db/suppressions.table.js';
import { broadcastWords } from './broadcast-words.js';

/** "1 message", "1,204 messages". */
const messages = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'message' : 'messages'}`;

export const ownerWords = {
  product: 'ScamSavvy',
  pageTitle: (title: string) => `${title} · ScamSavvy owner`,
  skipLink: 'Skip to the main content',
  nav: {
    label: 'Owner pages',
    overview: 'Overview',
    people: 'People',
    broadcasts: 'Launch day',
    ready: 'Ready for launch',
    suppressions: 'Suppressed',
    replies: 'Replies',
    apiKeys: 'API keys',
    webhooks: 'Webhooks',
    audit: 'Audit log',
    signOut: 'Sign out',
    signedInAs: (email: string) => `Signed in as ${email}`,
  },
  suppressions: {
    title: 'Suppressed addresses',
    intro:
      'Addresses we do not send to, and why. A bounce or an unreachable address may have been our fault (our domain’s DMARC, a block list): those can be lifted, and “Try the failed ones again” on a broadcast then reaches the person. A STOP, a complaint, leaving and deleting are the person’s own word and are never lifted here.',
    filter: 'Show',
    reason: 'Why',
    anyReason: 'Any reason',
    since: 'Since (a day, such as 2026-11-25)',
    code: 'The answer’s code (such as 5.7.26)',
    show: 'Show these',
    when: 'When',
    channel: 'Channel',
    who: 'Whose',
    answer: 'The answer that caused it',
    none: 'Nothing on the list matches.',
    noSecretKey:
      'SECRET_KEY is not set on this server, so the suppression list (keyed hashes) cannot be read here (docs/messaging.md).',
    notLiftable: 'The person’s own word',
    liftButton: (count: number) =>
      `Lift ${count.toLocaleString('en-US')} ${count === 1 ? 'suppression' : 'suppressions'} that may have been our fault…`,
    question: (count: number) =>
      `Lift ${count.toLocaleString('en-US')} ${count === 1 ? 'suppression' : 'suppressions'}, so that ${count === 1 ? 'this person' : 'these people'} can be sent to again?`,
    questionHint:
      'Each is written on the person’s history and in the audit log. Then, on a broadcast, “Try the failed ones again” reaches them.',
    yes: 'Yes, lift them',
    cancel: 'No, go back',
    lifted: (count: number) =>
      `Lifted ${count.toLocaleString('en-US')} ${count === 1 ? 'suppression' : 'suppressions'}. On a broadcast, “Try the failed ones again” now reaches ${count === 1 ? 'this person' : 'them'}.`,
    reasons: {
      bounced: 'Bounced',
      undeliverable: 'Cannot be reached',
      complained: 'Reported as spam',
      sms_stop: 'Replied STOP',
      left: 'Left the list',
      deleted: 'Deleted',
      email_off: 'Turned email off',
      sms_off: 'Turned texts off',
      asked_back: 'Asked once to come back',
      lifted: 'Lifted by the person (or you)',
    } satisfies Record<SuppressionReason, string>,
    channels: { email: 'Email', sms: 'Text' } satisfies Record<Channel, string>,
  },
  signIn: {
    title: 'Sign in',
    heading: 'Sign in to the dashboard',
    intro: 'Type your email address. If it belongs to an owner, we send a link that signs you in.',
    emailLabel: 'Your email address',
    button: 'Send me a sign-in link',
    invalidEmail: 'Type an email address, such as name@example.com.',
    sentTitle: 'Check your email',
    sent: 'If that address belongs to an owner, a sign-in link is on its way. It works once, within 15 minutes.',
    noEmailHint: 'No email set up on this site? On the server, run: sudo scamsavvy owner:link --email you@example.com',
    again: 'Send another link',
    tooMany: 'Too many tries from this connection. Please wait a quarter of an hour and try again.',
    signedOutIdle: 'You were signed out after 12 hours idle. Sign in again to go on.',
    linkTitle: 'Sign in',
    linkHeading: 'Sign in to the dashboard',
    linkIntro: 'Press the button to sign in on this device.',
    linkButton: 'Sign me in',
    badLinkTitle: 'This link has expired',
    badLink: 'A sign-in link works once, within 15 minutes. This one has been used, has run out, or was copied wrong.',
    signedOutTitle: 'Signed out',
    signedOut: 'You are signed out.',
  },
  signInEmail: {
    subject: 'Your sign-in link for the ScamSavvy dashboard',
    heading: 'Sign in to the dashboard',
    intro: 'Someone asked to sign in to the ScamSavvy dashboard with this address. Press the button to sign in.',
    button: 'Sign in to the dashboard',
    notYou:
      'The link works once, within 15 minutes. If you did not ask for it, you can ignore this email: nobody can sign in without it.',
    signature: 'ScamSavvy',
    why: 'You got this email because you are an owner of the ScamSavvy launch site.',
  },
  overview: {
    jobsHeading: 'Background work',
    jobFields: ['How often', 'Last run', 'Next run', 'Last failure'] as const,
    title: 'Overview',
    heading: 'How the list is growing',
    people: 'People on the list',
    newToday: 'New today',
    newThisWeek: 'New in the last 7 days',
    confirmed: 'Confirmed their email',
    confirmationOff: 'Email confirmation is off',
    beta: 'Want to beta test',
    submissions: 'Sign-ups made (repeats too)',
    throughFamily: "Came through a family member's link",
    chartHeading: (days: number) => `New people per day, last ${days} days`,
    chartLabel: (days: number, total: number) =>
      `Bar chart of new people per day over the last ${days} days: ${total} in all. The same figures are in the table below it.`,
    chartTable: 'The chart as a table',
    day: 'Day (UTC)',
    newPeople: 'New people',
    newThroughFamily: "Of them, through a family member's link",
    funnelHeading: (days: number) => `The page's funnel, last ${days} days`,
    funnelViews: 'Page views',
    funnelOpens: 'Sign-up form opened',
    funnelSignups: 'Sign-ups',
    funnelConversion: 'Conversion (sign-ups per view)',
    funnelShares: 'Links passed on to family',
    funnelDownloads: 'Store button presses',
    /** Issue 45: the funnel's columns, all pages and then each language's page. */
    funnelAll: 'Both pages',
    funnelLanguage: (name: string) => `${name} page`,
    funnelWhat: 'What happened',
    languagesHeading: 'People by language',
    language: 'Language',
    sourcesHeading: 'Top sources',
    campaignsHeading: 'Top campaigns',
    source: 'Source',
    campaign: 'Campaign',
    count: 'People',
    share: 'Share',
    none: 'None yet.',
    backupHeading: 'Backups',
    lastBackup: 'Last backup:',
    backupOk: (people: number, size: string, file: string) =>
      `${plural(people, 'person', 'people')}, ${size}, in ${file}.`,
    backupFailed: (reason: string) => `it failed. ${reason}`,
    lastGoodBackup: (when: string, file: string) => `The last good backup was made ${when} UTC, in ${file}.`,
    noGoodBackup: 'There is no good backup yet.',
    copiedOff: 'BACKUP_COMMAND copied it off this machine.',
    copyFailed: (reason: string) => `But it was not copied off this machine: ${reason}`,
    backupSchedule: (hours: number, keep: number, dir: string) =>
      `A backup is made every ${hours === 1 ? 'hour' : `${hours} hours`}; the last ${keep} are kept in ${dir}.`,
    backupNone: 'none yet.',
    /** A backup is useless without its key (decision 041). */
    keyWithBackups:
      'Keep SECRET_KEY with the backups, somewhere apart from this machine: without it a restored list cannot tell who asked never to hear from us, and the server will not start.',
    backupsOff:
      'Automatic backups are off: set BACKUP_DIR and the list is copied every day (docs/production.md). sudo scamsavvy db:backup makes one now.',
    healthHeading: (days: number) => `The list's health, last ${days} days`,
    healthIntro:
      'What came back about the email sent. Mail providers judge us by these: keep bounces under 2% and spam reports under 0.1%.',
    healthEmails: 'Emails sent',
    healthBounced: 'Bounced (address gone)',
    healthComplained: 'Reported as spam',
    /** Receiving servers' reports that our email failed SPF, DKIM or DMARC (RFC 6591): ours to fix. */
    authFailuresHeading: 'Our email failed a receiving server’s checks',
    authFailure: (mechanism: string, domain: string, reports: number) =>
      `${mechanism.toUpperCase()}${domain ? ` for ${domain}` : ''}: ${reports.toLocaleString('en-US')} ${reports === 1 ? 'report' : 'reports'}`,
    authFailuresFix:
      'Mail servers may refuse the launch email until this is fixed. Check the SPF, DKIM and DMARC records of your sending domain (docs/messaging.md). Nobody on the list is held to blame for it.',
    suppressedHeading: 'Never written to again, by reason',
    reason: 'Reason',
    addresses: 'Addresses',
    reasons: {
      left: 'Left the list',
      deleted: 'Deleted their details',
      sms_stop: 'Replied STOP to a text',
      undeliverable: 'Cannot be reached (the provider said so)',
      bounced: 'Email bounced',
      complained: 'Reported our email as spam',
      email_off: 'Turned email off',
      sms_off: 'Turned texts off',
      asked_back: 'Asked once to come back (not a “no”)',
      lifted: 'A “no” lifted by the person (or you, for a provider’s answer)',
    } satisfies Record<SuppressionReason, string>,
  },
  people: {
    title: 'People',
    heading: 'People on the list',
    searchLabel: 'Search by email or phone',
    searchButton: 'Search',
    searchHint: 'Part of an email address, or at least 4 digits of a phone number.',
    tooShort: 'Type at least 3 characters of an email, or 4 digits of a phone number.',
    results: (count: number, query: string) =>
      count === 0
        ? `Nobody matches “${query}”.`
        : `${count} ${count === 1 ? 'person matches' : 'people match'} “${query}”.`,
    more: (limit: number) => `Only the first ${limit} are shown: type more to narrow it down.`,
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    signedUp: 'Signed up',
    open: (name: string) => `Open ${name}’s record`,
    exportHeading: 'Export everyone',
    exportIntro:
      'A file with everyone on the list. The CSV is safe to open in a spreadsheet. Every export is written in the audit log.',
    exportCsv: 'Download CSV',
    exportJson: 'Download JSON',
  },
  person: {
    title: 'A person',
    details: 'Their details',
    beta: 'Wants to beta test',
    yes: 'Yes',
    no: 'No',
    firstSignedUp: 'First signed up',
    joinedThrough: 'People who joined through their link',
    /** Issue 45: the language their emails, texts and pages are in. */
    language: 'Language of their messages',
    languageHeading: 'Change the language of their messages',
    languageIntro:
      'Their emails, texts and the pages their links open are in this language. It starts as the language of the page they signed up on. Change it when they ask. The change goes in the audit log.',
    languageButton: 'Save the language',
    languageChanged: (name: string) => `Saved. Their messages are now in ${name}.`,
    lastSignedUp: 'Last signed up',
    consentVersion: 'Consent text version',
    confirmed: 'Confirmed their email',
    emailMessages: 'Email messages',
    textMessages: 'Text messages',
    /** Where they stand for the launch message, by the senders' own rule (issue 54): "no"s kept by address included. */
    launchEmail: 'Launch email',
    launchText: 'Launch text',
    willGo: 'Will be sent',
    wontGo: (why: string) => `Not sent: ${why}`,
    textsConfirmed: 'Number said yes to texts',
    /** Where the number stands (decision 041): its YES, else the joining text, else nothing yet. */
    textsProof: (confirmedAt: string | null, joiningSentAt: string | null) =>
      confirmedAt
        ? `Yes, replied YES ${confirmedAt}`
        : joiningSentAt
          ? `Not yet: the joining text went ${joiningSentAt}, no YES so far`
          : 'Not yet: no joining text has gone',
    on: 'On',
    offSince: (at: string) => `Off since ${at}`,
    left: 'Left the list',
    notYet: 'Not yet',
    historyHeading: 'Consent history',
    proof: 'The proof of their consent, with the words they saw or sent:',
    proofText: 'as text',
    proofJson: 'as JSON',
    when: 'When (UTC)',
    what: 'What',
    how: 'How',
    version: 'Consent text',
    noHistory: 'No history recorded.',
    /** Issue 54: every message to them leaves through the one outbox; this is its record for them. */
    messagesHeading: 'Messages to them',
    messagesIntro:
      'Every message we sent them, or will, newest first: what it was, where it stands, and why one did not go.',
    noMessages: 'No message has been sent to them, and none waits.',
    message: 'Message',
    channel: 'By',
    standsNow: 'Where it stands (UTC)',
    why: 'Why',
    messageKinds: {
      broadcast: (name: string | null) => `Broadcast “${name ?? ''}”`,
      confirmation: 'Confirmation email (or the one “come back?”)',
      reminder: 'Reminder to confirm',
      phone_change: 'Email about a new phone number',
      joining_text: 'Joining text (reply YES)',
      button: 'Emailed button they asked for',
      owner_sign_in: 'Sign-in link',
      webhook: 'Webhook delivery',
    },
    channels: { email: 'Email', sms: 'Text' },
    messageStates: {
      queued: (at: string) => (at ? `Waiting to go at ${at}` : 'Waiting to go'),
      sending: () => 'Being sent',
      sent: (at: string) => `Sent ${at}`,
      failed_temporary: (at: string) =>
        at ? `Not yet: tried again at ${at}` : 'Not sent: gave up after repeated tries',
      failed_permanent: () => 'Not sent: refused for good',
      skipped: () => 'Not sent',
      unknown: () => 'Unknown: its sender stopped while sending it',
    },
    changeHeading: 'Correct their name or phone number',
    changeIntro:
      'When someone asks you to fix a mistake (by phone or letter). A new phone number gets texts only if it never replied STOP. The change goes in their consent history and the audit log.',
    nameLabel: 'Name',
    phoneLabel: 'Phone number',
    phoneHint: 'The whole number, with + and the country code if it is not a US number.',
    changeButton: 'Save the changes',
    changeProblem: 'Nothing was changed: please check the fields below.',
    changed: 'Saved. Their consent history below shows the change.',
    unchanged: 'Nothing was different, so nothing was changed.',
    phoneChangeAsked: (end: string, at: string, sent: string | null) =>
      `On ${at}, a different phone number ending ${end} was asked for (by signing up again with this email, or on their own page). ${
        sent
          ? `We emailed them on ${sent} to ask; the number changes only if they press the button in that email (it works for 7 days).`
          : 'No email has asked them yet (email is not set up, or it is on its way). To make the change, check with them, then type the number below.'
      }`,
    deleteHeading: 'Delete this person',
    deleteIntro:
      'When someone asks to be forgotten: deletes their sign-up and consent history. Only a scrambled code of the email and phone is kept, so no later message reaches them.',
    deleteButton: 'Delete this person…',
    confirmTitle: 'Delete this person?',
    confirmQuestion: (email: string) => `Delete everything about ${email}? This cannot be undone.`,
    confirmButton: 'Yes, delete them',
    cancel: 'No, keep them',
    deleted: (email: string) => `Deleted ${email} and their consent history.`,
    missingTitle: 'Not found',
    missing: 'There is nobody with this record: they may have been deleted.',
    back: 'Back to the search',
  },
  broadcasts: broadcastWords,
  ready: {
    title: 'Ready for launch',
    heading: 'Ready for launch',
    intro:
      'Whether the inbox providers and the carriers will take the launch, and whether the site says what is yours: the same list as sudo scamsavvy ready. Red stops broadcast send; amber is worth a look, or could not be checked.',
    verdict: (ready: boolean, red: number, amber: number, green: number) =>
      `${ready ? 'Ready for launch' : 'Not ready for launch'}: ${red} red, ${amber} amber, ${green} green.`,
    areas: { mail: 'Email', texts: 'Text messages', site: 'The site' },
    levels: { red: 'Red', amber: 'Amber', green: 'Green' },
    check: 'Check',
    level: 'State',
    found: 'What we found',
    fix: 'What to do',
  },
  replies: {
    title: 'Replies',
    heading: 'Replies to our texts',
    intro: (days: number) =>
      `Texts people sent us that no rule acted on (not STOP, START, YES or HELP, and not a request to stop in their own words, which turns their texts off by itself), newest first. Each is kept ${days} days. If one asks for something, do it for them: a request to stop is turned off on their page under People.`,
    phone: (end: string) => `from a phone ending ${end}`,
    none: 'No replies to read.',
  },
  audit: {
    title: 'Audit log',
    heading: 'Audit log',
    intro: 'Every sign-in and every look at, export or deletion of people’s data, newest first.',
    when: 'When (UTC)',
    who: 'Owner',
    what: 'What',
    detail: 'Details',
    none: 'Nothing yet.',
    actions: {
      signed_in: 'Signed in',
      viewed_person: 'Looked at a person',
      exported: 'Exported the list',
      deleted_person: 'Deleted a person',
      changed_person: 'Corrected a person’s details',
      searched: 'Searched the list',
      broadcast: 'Launch day',
      lifted_suppressions: 'Lifted suppressions',
      imported_suppressions: 'Imported a suppression list',
      key_kept: 'Said SECRET_KEY is kept with the backups',
      read_replies: 'Read the replies to our texts',
      seed_checked: 'Sent the launch check’s seed message',
      api_key_made: 'Made an API key',
      api_key_revoked: 'Revoked an API key',
      api_read: 'Read people’s data through the API',
      api_added: 'Added someone through the API',
      webhook_changed: 'Changed a webhook endpoint',
      // Keyed by what the audit log stores: a row an older release wrote may name another action.
    } as Record<string, string>,
    signedInDetail: 'With a one-time link',
    /** Which details, never their values. */
    changedDetail: (masked: string, fields: string[]) => `${fields.join(' and ')} of ${masked}`,
    /** Issue 45: the owner changed the language of someone's messages. */
    changedLanguage: (masked: string, from: string, to: string) => `Language of ${masked}: ${from} to ${to}`,
    /** `more`: there were more matches than the page shows. */
    searchedDetail: (matches: number, more: boolean) =>
      `By email or phone: ${matches}${more ? '+' : ''} ${matches === 1 && !more ? 'match' : 'matches'}`,
    exportedDetail: (format: string, people: number) =>
      `${format.toUpperCase()} of everyone on the list (${people.toLocaleString('en-US')} ${people === 1 ? 'person' : 'people'})`,
    /** `included`: the owner ticked the box, so those the provider said cannot be reached went again too. */
    retryDetail: (queued: number, undeliverable: number, included: boolean, held = 0, heldIncluded = false) =>
      `Tried the failed ones again: queued ${messages(queued)}${
        undeliverable > 0
          ? `; ${undeliverable.toLocaleString('en-US')} the provider said cannot be reached ${included ? 'included' : 'left out'}`
          : ''
      }${held > 0 ? `; ${held.toLocaleString('en-US')} held ${heldIncluded ? 'included' : 'left out'}` : ''}`,
    /** A first send the owner made although launch checks were red. */
    notReadyDetail: (titles: string[]) => `sent although not ready: ${titles.join('; ')}`,
    /** `rehearsal`: the test was written to a rehearsal folder, not sent (the launch checks do not count it). */
    broadcastDetail: (action: string, to: string, rehearsal = false) =>
      ({
        test: rehearsal ? `Wrote a rehearsal test for ${to} to a folder` : `Sent a test to ${to}`,
        send: 'Started sending',
        resume: 'Resumed sending',
        pause: 'Paused',
      })[action] ?? action,
  },
  errors: {
    forbiddenTitle: 'Not allowed',
    forbidden: 'This request did not come from a page of this site, so nothing was changed.',
  },
} as const;
