// Test support: a real SMTP server on loopback (smtp-server) that keeps what arrives, read with
// mailparser. It can ask for a sign-in and refuse it, refuse messages or addresses with a chosen
// answer, and stop and start again on the same port.
// Plain Node (no test-runner APIs), so unit tests and browser tests both use it.
import type { AddressInfo } from 'node:net';
import { waitForMatch } from './poll.js';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface ReceivedMail {
  raw: string;
  parsed: ParsedMail;
  envelope: { from: string; to: string[] };
}

/** An SMTP answer: the reply code, and the words after it (an enhanced status code first, if any). */
export interface SmtpReply {
  code: number;
  message: string;
}

/**
 * Says how to answer a recipient at RCPT TO, or a message for them at the end of DATA: an answer
 * refuses, undefined lets it through.
 */
export type AnswerRule = (to: string, stage: 'rcpt' | 'data') => SmtpReply | undefined;

export interface SmtpSink {
  port: number;
  /** smtp://127.0.0.1:port, with the user name and password when the sink asks for a sign-in. */
  url: string;
  messages(): ReceivedMail[];
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Answers the next `count` messages with this SMTP code (451: try later; 550: never). */
  rejectNext(code: number, message?: string, count?: number): void;
  /** From now on, asks `rule` about each recipient and each message (undefined: stop asking). */
  answerFor(rule: AnswerRule | undefined): void;
  /** While on, every sign-in is refused (535 5.7.8 unless `message` says otherwise). A sink started with `auth` only. */
  refuseAuth(on: boolean, message?: string): void;
  stop(): Promise<void>;
  /** Listens again on the same port, after stop(). */
  restart(): Promise<void>;
}

export interface SmtpSinkOptions {
  port?: number;
  /** Ask for a sign-in (AUTH PLAIN or LOGIN, without TLS) with these credentials; a mismatch gets 535 5.7.8. */
  auth?: { user: string; pass: string };
}

const refusal = ({ code, message }: SmtpReply) => Object.assign(new Error(message), { responseCode: code });

export async function startSmtpSink({ port = 0, auth }: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const rejections: SmtpReply[] = [];
  let answerRule: AnswerRule | undefined;
  let authRefusal: string | undefined;
  let server: SMTPServer | undefined;
  let boundPort = port;

  const signIn: SMTPServerOptions = auth
    ? {
        authOptional: false,
        authMethods: ['PLAIN', 'LOGIN'],
        allowInsecureAuth: true,
        disabledCommands: ['STARTTLS'],
        onAuth(given, _session, callback) {
          if (authRefusal !== undefined) return callback(refusal({ code: 535, message: authRefusal }));
          if (given.username !== auth.user || given.password !== auth.pass)
            return callback(refusal({ code: 535, message: '5.7.8 Authentication credentials invalid' }));
          callback(null, { user: auth.user });
        },
      }
    : { authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'] };

  /** The rule's answer for the first recipient it refuses at the end of DATA, asked once per recipient. */
  const answerAtData = (recipients: string[]) => {
    for (const to of recipients) {
      const answer = answerRule?.(to, 'data');
      if (answer) return answer;
    }
    return undefined;
  };

  const create = () =>
    new SMTPServer({
      ...signIn,
      logger: false,
      onRcptTo(address, _session, callback) {
        const answer = answerRule?.(address.address, 'rcpt');
        callback(answer ? refusal(answer) : undefined);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const rejection = rejections.shift() ?? answerAtData(session.envelope.rcptTo.map((rcpt) => rcpt.address));
          if (rejection) return callback(refusal(rejection));
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
      const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : '';
      return `smtp://${credentials}127.0.0.1:${boundPort}`;
    },
    messages: () => [...received],
    waitFor: (predicate, timeoutMs = 10_000) => waitForMatch(() => received, predicate, timeoutMs, 'email'),
    rejectNext(code, message = code >= 500 ? 'Mailbox unavailable' : 'Try again later', count = 1) {
      for (let index = 0; index < count; index += 1) rejections.push({ code, message });
    },
    answerFor(rule) {
      answerRule = rule;
    },
    refuseAuth(on, message = '5.7.8 Authentication credentials invalid') {
      if (!auth) throw new Error('refuseAuth needs a sink started with { auth }: this one asks for no sign-in.');
      authRefusal = on ? message : undefined;
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
