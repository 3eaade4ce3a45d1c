// Every word launch day's pages say (the broadcasts list, a broadcast's page, its questions), the
// owner's part of ownerWords (owner-words.ts) kept apart so each file reads in one sitting.
import type { BroadcastState } from '../db/broadcasts-repository.js';
import type { Channel } from '../db/message-channels.js';

/** "1 message", "1,204 messages". */
const messages = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'message' : 'messages'}`;

export const broadcastWords = {
  title: 'Launch day',
  heading: 'Launch day: broadcasts',
  intro:
    'Create a broadcast and preview it from the terminal (sudo scamsavvy broadcast create …, see docs/launch-day.md); send it, watch it and pause it here. Switching the page to launched is a setting on the server (SITE_MODE).',
  none: 'No broadcasts yet. Create one on the server: sudo scamsavvy broadcast create --name launch --template launch',
  name: 'Name',
  template: 'Template',
  state: 'State',
  progress: 'Sent',
  open: (name: string) => `Open “${name}”`,
  /** The send question while a launch check is red (ready/ready-checks.ts). */
  notReady: {
    heading: 'Not ready for launch: these checks are red.',
    link: 'See every check and what to do',
    anyway: 'Send anyway, knowing these are red (recorded in the audit log)',
  },
  /** A rehearsal (MAIL_TRANSPORT or SMS_TRANSPORT set to folder:PATH): what was written instead of sent. */
  rehearsal: {
    heading: 'A rehearsal: nothing leaves this computer',
    intro: (channels: string) =>
      `${channels} are written to files instead of being sent (MAIL_TRANSPORT or SMS_TRANSPORT is folder:…). Open an email (.eml) in any mail program, a text (.json) in any text editor.`,
    channels: (email: boolean, sms: boolean) =>
      [email ? 'Emails' : '', sms ? 'text messages' : ''].filter(Boolean).join(' and ').replace(/^t/, 'T'),
    folder: (channel: Channel, folder: string, count: number) =>
      `${channel === 'email' ? 'Emails' : 'Text messages'}: ${messages(count)} in ${folder}`,
    file: 'File',
    written: 'Written (UTC)',
    size: 'Size',
  },
  states: {
    ready: 'Ready to send',
    sending: 'Sending',
    stopped: 'Stopped: the server restarted',
    'texts-wait': 'Texts wait for daytime',
    paused: 'Paused',
    finished: 'Finished',
  } satisfies Record<BroadcastState | 'stopped' | 'texts-wait', string>,
  channel: { email: 'Emails', sms: 'Text messages' } satisfies Record<Channel, string>,
  counts: {
    total: 'In all',
    queued: 'Waiting',
    sent: 'Sent',
    failedTemporary: 'Failed for now (tried again)',
    failedPermanent: 'Failed for good',
    skipped: 'Skipped (left or opted out since)',
    unknown: 'Unknown (a sender stopped mid-send)',
    delivered: 'Delivered (the receiving side said so)',
    hardBounced: 'Bounced (address gone)',
    softBounced: 'Not delivered for now',
    complained: 'Reported as spam',
    unsubscribed: 'Unsubscribed during the send',
    bounceRate: 'Bounce rate (pauses past BROADCAST_MAX_BOUNCE_RATE)',
    complaintRate: 'Spam report rate (pauses past BROADCAST_MAX_COMPLAINT_RATE)',
  },
  rate: 'Sent per second (last minute)',
  eta: 'Time left, about',
  etaNone: '–',
  senders: 'Senders running',
  live: 'These figures update by themselves every few seconds.',
  testHeading: 'Send a test',
  testLabel: 'Email address or phone number to send one test message to',
  testButton: 'Send a test…',
  sendButton: 'Send to everyone…',
  resumeButton: 'Resume sending…',
  pauseButton: 'Pause…',
  retryButton: 'Try the failed ones again…',
  /** Beside the button: what it would queue (the terminal's status says the same). */
  retryHint: (retryable: number, undeliverable: number) =>
    [
      retryable > 0 ? `${messages(retryable)} failed by no fault of the person’s and can go again.` : '',
      undeliverable > 0
        ? `${messages(undeliverable)} failed because the provider said the address or number cannot be reached.`
        : '',
    ]
      .filter(Boolean)
      .join(' '),
  refusedForOurSending: (domains: string[]) =>
    `Refused for our sending (a block list, our reputation or volume; nobody suppressed, tried again): ${domains.slice(0, 5).join(', ')}${domains.length > 5 ? ', …' : ''}.`,
  heldHeading: 'Held messages',
  heldIntro:
    'Each paused its channel, was tried first after the resume, and would have paused it again: set aside so that everyone else could go on. Try the failed ones again, with the held ones ticked, once you have fixed what held them.',
  heldPerson: 'To',
  heldAnswer: 'The answer that held it',
  skippedHeading: 'Not sent, and why',
  skippedIntro:
    'These messages were not sent, and will not be: the person said no since, the number is in a country we do not text, another sign-up gave the same number, or the address cannot be reached.',
  skippedWhy: 'Why',
  skippedCount: 'How many',
  /** A channel a failure of ours paused (a wrong password, the provider's outage, an answer we do not know). */
  paused: { email: 'Email paused', sms: 'Text messages paused' } satisfies Record<Channel, string>,
  pausedSince: 'since',
  utc: 'UTC',
  pausedAnswer: 'The provider’s answer:',
  pausedAdvice:
    'Nobody was given up: their messages wait. When this is put right, resume, and we first check that the provider takes our messages.',
  retry: {
    intro:
      'These failed by no fault of the person’s: the provider was busy or down, or our own settings were wrong. They go back in the queue as if never tried. Nothing that was sent, skipped or unknown goes again.',
    groups: 'What goes again',
    channel: 'Sent by',
    reason: 'Why they failed',
    count: 'Messages',
    none: 'Nothing failed by a fault of ours: there is nothing to try again.',
    undeliverableHeading: 'The provider said these cannot be reached',
    undeliverableIntro: 'They are not sent again unless you tick the box.',
    undeliverableGroups: 'Cannot be reached, the provider said',
    undeliverableLabel: (count: number) =>
      `Also send again to the ${count.toLocaleString('en-US')} ${count === 1 ? 'address or number' : 'addresses or numbers'} the provider said cannot be reached (only if you believe that answer was wrong)`,
    undeliverableHint: 'Ticking this also lifts that mark from their records.',
    heldHeading: 'Held: each paused the channel twice',
    heldIntro:
      'Each of these paused its channel, was tried first after the resume, and would have paused it again, so it was set aside while everyone else went on. Send them again once you have fixed what held them.',
    heldGroups: 'Held messages',
    heldLabel: (count: number) =>
      `Also send the ${count.toLocaleString('en-US')} held ${count === 1 ? 'message' : 'messages'} again (I have fixed what held them)`,
    nothingTitle: 'Nothing to try again',
    back: 'Back to the broadcast',
  },
  confirm: {
    test: (to: string) => `Send one test message of this broadcast to ${to}?`,
    send: (name: string, count: number) =>
      `Send “${name}” to everyone in it (${count} messages)? Each person gets it once, even if you press this again.`,
    resume: (name: string) => `Resume sending “${name}” where it stopped?`,
    pause: (name: string) => `Pause “${name}”? Messages being sent right now finish; the rest wait.`,
    retry: (name: string) => `Try the failed messages of “${name}” again?`,
    /** Resume when a failure of ours paused a channel: what happens first. */
    resumePaused:
      'The paused channels go on too. First we ask each provider whether it takes our messages now: if it still refuses, nothing starts and the page says why.',
    yes: {
      test: 'Yes, send the test',
      send: 'Yes, send it',
      resume: 'Yes, resume',
      pause: 'Yes, pause',
      retry: 'Yes, queue them again',
    },
    cancel: 'No, go back',
  },
  doneTest: (to: string) => `Sent a test to ${to}.`,
  done: {
    send: 'Sending has started.',
    resume: 'Sending has resumed.',
    pause: 'Paused. The senders stop after the messages they are sending now.',
  },
  /** After "Try the failed ones again": how many went back in the queue, and how they go out. */
  doneRetry: (queued: number, leftOut: number, state: string) =>
    [
      queued > 0
        ? `Queued again: ${messages(queued)}. ${
            state === 'paused'
              ? 'Press “Resume sending…” to send them.'
              : state === 'sending'
                ? 'The sender running now sends them.'
                : 'Press “Send to everyone…” to send them: nobody gets the broadcast twice.'
          }`
        : 'Nothing to queue again: no message failed by a fault of ours.',
      leftOut > 0
        ? `Not queued: ${messages(leftOut)} whose address or number the provider said cannot be reached. If you believe that answer was wrong, press “Try the failed ones again…” and tick the box.`
        : '',
    ]
      .filter(Boolean)
      .join(' '),
  noSecretKey: 'SECRET_KEY is not set on this server, so nothing can be sent from here (docs/messaging.md).',
  missingTitle: 'No such broadcast',
  missing: 'There is no broadcast with this name.',
};
