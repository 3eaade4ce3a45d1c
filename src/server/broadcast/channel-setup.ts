// Which channels this server can send a broadcast on, and the one thing said when one is not set up:
// creating a broadcast, starting it from the command or the dashboard, a test message, and a sender
// all say it in the same words.
import type { MessagingConfig } from '../messaging-config.js';
import type { Channel } from '../db/message-channels.js';

const SETTINGS: Record<Channel, string> = {
  email:
    'Email is not set up here: set SMTP_URL and MAIL_FROM (or, to rehearse with no account, MAIL_TRANSPORT=folder:PATH).',
  sms: 'Texts are not set up here: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM (or, to rehearse with no account, SMS_TRANSPORT=folder:PATH).',
};

/** The channels the configuration sets up (email needs SMTP_URL and MAIL_FROM; texts, TWILIO_*). */
export function configuredChannels(messaging: Pick<MessagingConfig, 'email' | 'sms'>): Channel[] {
  return [...(messaging.email ? (['email'] as const) : []), ...(messaging.sms ? (['sms'] as const) : [])];
}

/** What to say when these channels are not set up here: which settings each needs, and where they are explained. */
export function notSetUp(channels: readonly Channel[]): string {
  return `${channels.map((channel) => SETTINGS[channel]).join(' ')} See docs/messaging.md.`;
}
