// Test support: a real SMTP server on loopback (smtp-server) that keeps what arrives, read with
// mailparser. It can refuse messages with a chosen code, and stop and start again on the same port.
// Plain Node (no test-runner APIs), so unit tests and browser tests both use it.
import type { AddressInfo } from 'node:net';
import { waitForMatch } from './poll.js';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  raw: string;
  parsed: ParsedMail;
  envelope: { from: string; to: string[] };
}

export interface SmtpSink {
  port: number;
  url: string;
  messages(): ReceivedMail[];
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Answers the next `count` messages with this SMTP code (451: try later; 550: never). */
  rejectNext(code: number, message?: string, count?: number): void;
  stop(): Promise<void>;
  /** Listens again on the same port, after stop(). */
  restart(): Promise<void>;
}

export async function startSmtpSink({ port = 0 }: { port?: number } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const rejections: { code: number; message: string }[] = [];
  let server: SMTPServer | undefined;
  let boundPort = port;

  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const rejection = rejections.shift();
          if (rejection) {
            const error = Object.assign(new Error(rejection.message), { responseCode: rejection.code });
            return callback(error);
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw).then(
            (parsed) => {
              received.push({
                raw,
                parsed,
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
                },
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });

  const listen = async () => {
    server = create();
    server.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      server?.server.once('error', reject);
      server?.listen(boundPort, '127.0.0.1', () => resolve());
    });
    boundPort = (server.server.address() as AddressInfo).port;
  };
  await listen();

  const sink: SmtpSink = {
    get port() {
      return boundPort;
    },
    get url() {
      return `smtp://127.0.0.1:${boundPort}`;
    },
    messages: () => [...received],
    waitFor: (predicate, timeoutMs = 10_000) => waitForMatch(() => received, predicate, timeoutMs, 'email'),
    rejectNext(code, message = code >= 500 ? 'Mailbox unavailable' : 'Try again later', count = 1) {
      for (let index = 0; index < count; index += 1) rejections.push({ code, message });
    },
    async stop() {
      const running = server;
      server = undefined;
      if (!running) return;
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    async restart() {
      if (!server) await listen();
    },
  };
  return sink;
}
