// The benchmark's network edges in a process of their own: a real SMTP server (smtp-server) that
// counts the messages each bench address gets, and the local stand-in for Twilio's API. Counts are
// kept in arrays indexed by the person's number (person123@bench.example), so memory stays flat.
// Talks to the benchmark over IPC: { reset: people } → { ready }, { report } → { counts, bytes }.
import { startTwilioStandIn } from '../src/server/test/twilio-stand-in.js';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

const accountSid = process.env.BENCH_TWILIO_SID ?? '';
const authToken = process.env.BENCH_TWILIO_TOKEN ?? '';

let emails = new Uint8Array(0);
let first = 0;
let last = 0;
let bytes = 0;

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  maxClients: 1000,
  onData(stream, session, callback) {
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    stream.on('end', () => {
      for (const rcpt of session.envelope.rcptTo) {
        const index = Number(rcpt.address.match(/^person(\d+)@/)?.[1] ?? -1);
        if (index >= 0 && index < emails.length) emails[index] = Math.min(255, (emails[index] ?? 0) + 1);
      }
      const now = performance.now();
      if (first === 0) first = now;
      last = now;
      callback();
    });
  },
});
// A sender that exits (or is killed) drops its pooled connections without QUIT: not an error here.
smtp.on('error', () => undefined);
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
const twilio = await startTwilioStandIn({ accountSid, authToken });

process.on('message', (message: { reset?: number; report?: boolean }) => {
  if (message.reset !== undefined) {
    emails = new Uint8Array(message.reset);
    first = 0;
    last = 0;
    bytes = 0;
    twilio.clear();
    process.send?.({ ready: true });
  }
  if (message.report) {
    let twice = 0;
    let none = 0;
    let received = 0;
    for (const count of emails) {
      received += count;
      if (count === 0) none += 1;
      if (count > 1) twice += 1;
    }
    const texts = twilio.sent();
    const textCounts = new Map<string, number>();
    for (const text of texts) textCounts.set(text.to, (textCounts.get(text.to) ?? 0) + 1);
    process.send?.({
      received,
      twice,
      none,
      seconds: (last - first) / 1000,
      bytes,
      texts: texts.length,
      textsTwice: [...textCounts.values()].filter((count) => count > 1).length,
    });
  }
});
process.send?.({ smtpPort: (smtp.server.address() as AddressInfo).port, twilioUrl: twilio.baseUrl });
