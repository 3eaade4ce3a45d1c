// How messages leave and are recorded, built from the configuration for the server, the broadcast
// and the owner's commands alike: the SMTP and Twilio transports, the list's identity, and the
// message log every message is recorded in with its token.
import type { MessagingConfig } from '../messaging-config.js';
import { createEmailSender, type EmailSender } from './email-sender.js';
import { MessageLog, type MessageLogStore } from './message-log.js';
import type { MessageTokens } from './message-tokens.js';
import { messageWords } from './message-words.js';
import type { SmsProvider } from './sms-provider.js';
import { createTwilioSmsProvider } from './twilio-sms-provider.js';
import { createFolderSmsProvider } from './folder-sms-provider.js';

/** How email and texts leave: each is set when the configuration sets it up. */
export interface Transports {
  email?: EmailSender;
  sms?: SmsProvider;
}

/** The list's name and id in every email's List-Id header. */
export function listIdentity(siteUrl: string): { listId: string; listName: string } {
  return { listId: `launch.${new URL(siteUrl).hostname}`, listName: messageWords.listName };
}

/** The transports the configuration sets up; `connections` keeps more SMTP connections open (a broadcast's). */
export function createTransports(
  config: Pick<MessagingConfig, 'email' | 'sms'>,
  siteUrl: string,
  { connections }: { connections?: number } = {},
): Transports {
  const { email, sms } = config;
  return {
    ...(email
      ? {
          email: createEmailSender(email, {
            ...listIdentity(siteUrl),
            ...(connections === undefined ? {} : { maxConnections: connections }),
          }),
        }
      : {}),
    ...(sms
      ? { sms: sms.provider === 'folder' ? createFolderSmsProvider(sms.folder) : createTwilioSmsProvider(sms) }
      : {}),
  };
}

export function contactFor(config: MessagingConfig, siteUrl: string): string {
  const from = config.email?.from;
  const address = from?.match(/<([^>]+)>/)?.[1] ?? from;
  return address ?? siteUrl.replace(/^https?:\/\//, '');
}

/**
 * Every message recorded with its token, with the process's one `tokens` (made from SECRET_KEY by
 * createMessaging; none without it) when the database keeps them.
 */
export function createMessageLog(
  config: Pick<MessagingConfig, 'feedback'>,
  store: Partial<MessageLogStore>,
  siteUrl: string,
  tokens: MessageTokens | undefined,
  tagHeaders?: (token: string) => Record<string, string>,
): MessageLog | undefined {
  const { sentMessages, feedbackEvents } = store;
  if (!tokens || !sentMessages || !feedbackEvents) return undefined;
  return new MessageLog({
    store: { sentMessages, feedbackEvents },
    tokens,
    siteUrl,
    ...(config.feedback ? { feedback: config.feedback } : {}),
    ...(tagHeaders ? { tagHeaders } : {}),
  });
}
