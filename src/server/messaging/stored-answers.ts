// Whose fault an earlier failure was, read again from its stored error text (an outbox row's or a
// confirmation's `error`): so a row failed under an older rule can be judged by today's tables.
import type { FailureVerdict } from './send-failure.js';
import { classifySmtpText } from './smtp-answers.js';
import type { Channel } from '../db/message-channels.js';
import { classifyTwilioText } from './twilio-answers.js';

/** The verdict on a stored answer: the mail server's for email, Twilio's for texts. */
export function classifyStoredAnswer(channel: Channel, text: string): FailureVerdict {
  return channel === 'email' ? classifySmtpText(text) : classifyTwilioText(text);
}
