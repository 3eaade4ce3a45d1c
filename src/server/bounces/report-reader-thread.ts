// The worker thread that reads what comes to the bounce mailbox (report-reader.ts starts it): the
// parsing and the patterns run here, never on the server's event loop, so no message, whatever its
// shape, holds up a sign-up (issue 42).
import { parentPort, workerData } from 'node:worker_threads';
import { createMessageTokens } from '../messaging/message-tokens.js';
import { parseDeliveryReport } from './parse-mail-report.js';

export interface ReaderSetup {
  bounceAddress: string;
  secretKey: string;
  previousSecretKey?: string;
}

const { bounceAddress, secretKey, previousSecretKey } = workerData as ReaderSetup;
const tokens = createMessageTokens(secretKey, previousSecretKey);

parentPort!.on('message', ({ id, raw }: { id: number; raw: Uint8Array }) => {
  parseDeliveryReport(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), { bounceAddress, tokens }).then(
    (report) => parentPort!.postMessage({ id, report }),
    (error: unknown) => parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
