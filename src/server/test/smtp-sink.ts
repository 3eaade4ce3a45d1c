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

/** What a counting sink keeps of each message: whom it was for and its Message-ID, nothing else. */
export interface CountedMail {
  to: string[];
  messageId: string | undefined;
}

export interface CountingSmtpSink {
  port: number;
  url: string;
  received(): CountedMail[];
  /** Messages each address got. */
  countsByAddress(): Map<string, number>;
  /** Answers the next `count` messages with this SMTP code. */
  rejectNext(code: number, message?: string, count?: number): void;
  stop(): Promise<void>;
}

/**
 * A sink for many messages (a broadcast's): it reads only the envelope and the Message-ID, so it
 * costs little per message and holds a few bytes for each.
 */
export async function startCountingSmtpSink(): Promise<CountingSmtpSink> {
  const received: CountedMail[] = [];
  const rejections: { code: number; message: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 1000,
    onData(stream, session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 4096) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const rejection = rejections.shift();
        if (rejection) return callback(Object.assign(new Error(rejection.message), { responseCode: rejection.code }));
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          messageId: head.match(/^Message-ID:\s*<([^>]+)>/im)?.[1],
        });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received: () => [...received],
    countsByAddress() {
      const counts = new Map<string, number>();
      for (const mail of received) for (const to of mail.to) counts.set(to, (counts.get(to) ?? 0) + 1);
      return counts;
    },
    rejectNext(code, message = code >= 500 ? 'Mailbox unavailable' : 'Try again later', count = 1) {
      for (let index = 0; index < count; index += 1) rejections.push({ code, message });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
