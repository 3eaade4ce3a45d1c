// The bounce mailbox's reader: in a worker thread, so no message holds up the server's event loop
// (issue 42); a message it gives up on is answered "too slow", and the next one is read afresh.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createMessageTokens } from '../messaging/message-tokens.js';
import { parseDeliveryReport } from './parse-mail-report.js';
import { createReportReader } from './report-reader.js';
import { report, REPORT_BOUNCE_ADDRESS } from './test-fixtures/reports.js';

const SECRET = 'a test secret that is at least 32 characters long';
const tokens = createMessageTokens(SECRET);

describe('the report reader thread', () => {
  it('reads a report in its own thread exactly as this thread would', { timeout: 30_000 }, async () => {
    const reader = createReportReader({ bounceAddress: REPORT_BOUNCE_ADDRESS, secretKey: SECRET });
    onTestFinished(() => reader.close());
    const raw = Buffer.from(report('postfix-user-unknown', { token: tokens.issue() }));
    const here = await parseDeliveryReport(raw, { bounceAddress: REPORT_BOUNCE_ADDRESS, tokens });
    expect(await reader.read(raw)).toEqual(here);
  });

  it(
    'gives up on a message past its time limit, and reads the next in a fresh thread',
    { timeout: 30_000 },
    async () => {
      const slow = createReportReader({ bounceAddress: REPORT_BOUNCE_ADDRESS, secretKey: SECRET }, 0);
      onTestFinished(() => slow.close());
      const raw = Buffer.from(report('gmail-no-such-user', { token: tokens.issue() }));
      expect(await slow.read(raw)).toEqual({ tooSlow: true });
      const reader = createReportReader({ bounceAddress: REPORT_BOUNCE_ADDRESS, secretKey: SECRET });
      onTestFinished(() => reader.close());
      expect(await reader.read(raw)).toEqual(
        expect.objectContaining({ events: [expect.objectContaining({ kind: 'hard_bounce' })] }),
      );
    },
  );
});
