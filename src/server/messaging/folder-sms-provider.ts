// Texts for a rehearsal (SMS_TRANSPORT=folder:PATH): each one written to the folder as a .json file
// of what Twilio would have been asked to send, so launch day can be tried with no account. Nothing
// comes back: no inbound text is ever taken (no provider signs one), and no status report follows.
import { SendFailure } from './send-failure.js';
import { checkFolder, writeToFolder } from './message-folder.js';
import { SmsSendError, type SmsProvider } from './sms-provider.js';

export function createFolderSmsProvider(folder: string): SmsProvider {
  const asSmsError = (error: unknown) =>
    error instanceof SendFailure ? new SmsSendError(error.message, error.verdict) : (error as Error);
  return {
    name: 'folder',
    async send({ to, body, statusCallback }) {
      try {
        const at = new Date().toISOString();
        const name = await writeToFolder(
          folder,
          'json',
          `${JSON.stringify({ to, body, at, ...(statusCallback ? { statusCallback } : {}) }, null, 2)}\n`,
        );
        return { id: `folder:${name}` };
      } catch (error) {
        throw asSmsError(error);
      }
    },
    async checkAccount() {
      try {
        await checkFolder(folder);
      } catch (error) {
        throw asSmsError(error);
      }
    },
    verifyInbound: () => false,
    parseInbound: () => undefined,
    emptyInboundAnswer: { contentType: 'text/plain; charset=utf-8', body: '' },
  };
}
