// One email to one person, with the message log around it (message-log.ts): recorded with its
// signed token just before it leaves, so what comes back about it finds it; then its provider's ids
// (for the caller to write with its outbox row), or the refusal and whose fault it was. The confirmation email and its reminder send this way
// (consent/confirmation-email.ts).
import { providerIdFrom, type EmailSender } from './email-sender.js';
import { withoutAddresses } from './log-safe.js';
import type { MessageLog } from './message-log.js';
import { verdictOf, type FailureVerdict } from './send-failure.js';

/** A message the provider took, as its record in the message log is to say (written with its outbox row's outcome). */
export interface LoggedSend {
  token: string;
  providerId?: string | undefined;
  messageId?: string | undefined;
}

export type RecordedSend =
  { sent: true; logged?: LoggedSend } | { sent: false; verdict: FailureVerdict; answer: string };

export async function sendRecordedEmail(
  { email, log }: { email: EmailSender; log?: MessageLog | undefined },
  message: Omit<Parameters<EmailSender['send']>[0], 'headers' | 'envelopeFrom'>,
  record: { signupId: string; addressHash: string | null; feedbackId: string },
): Promise<RecordedSend> {
  const outgoing = await log?.begin({ channel: 'email', purpose: 'confirmation', ...record });
  try {
    const sent = await email.send({
      ...message,
      ...(outgoing ? { headers: outgoing.headers } : {}),
      ...(outgoing?.envelopeFrom ? { envelopeFrom: outgoing.envelopeFrom } : {}),
    });
    // Its record says "sent" in the same write as its outbox row (db/message-queue-repository.ts record).
    return outgoing
      ? {
          sent: true,
          logged: { token: outgoing.token, messageId: sent.messageId, providerId: providerIdFrom(sent.response) },
        }
      : { sent: true };
  } catch (error) {
    const verdict = verdictOf(error);
    const answer = withoutAddresses((error as Error)?.message ?? String(error));
    if (outgoing) await log?.refused(outgoing.token, 'email', verdict, answer);
    return { sent: false, verdict, answer };
  }
}
