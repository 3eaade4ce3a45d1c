// Test support: a real SMTP server on loopback (smtp-server) that keeps what arrives, read with
// mailparser. It can ask for a sign-in and refuse it, refuse messages or addresses with a chosen
// answer, and stop and start again on the same port.
// Plain Node (no test-runner APIs), so unit tests and browser tests both use it.
import { randomBytes } from 'node:crypto';
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

/** An answer a test makes the server give: `code` and its text (e.g. 550, "5.1.1 No such user"). */
export interface SinkAnswer {
  code: number;
  message: string;
}

export interface CountingSmtpSink {
  port: number;
  /** With `auth`, carries the user name and password, as SMTP_URL does. */
  url: string;
  received(): CountedMail[];
  /** Messages each address got. */
  countsByAddress(): Map<string, number>;
  /** Answers the next `count` messages with this SMTP code. */
  rejectNext(code: number, message?: string, count?: number): void;
  /**
   * While on, every sign-in is refused with 535 (a wrong or revoked password), and the sessions open
   * when it is turned on are closed. Needs `auth`.
   */
  refuseAuth(on: boolean): void;
  /**
   * Answers a recipient (at RCPT) or a message (at the end of DATA, `count` = messages so far) as
   * the rule says; undefined accepts. Unset with undefined.
   */
  answerFor(rule: ((to: string, stage: 'rcpt' | 'data', count: number) => SinkAnswer | undefined) | undefined): void;
  /** Stops listening: the server is unreachable (connection refused) until restart(). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

/**
 * A sink for many messages (a broadcast's): it reads only the envelope and the Message-ID, so it
 * costs little per message and holds a few bytes for each. With `auth`, it asks for a sign-in
 * (PLAIN or LOGIN, without TLS on loopback) and checks it.
 */
export async function startCountingSmtpSink({
  auth,
}: { auth?: { user: string; pass: string } } = {}): Promise<CountingSmtpSink> {
  const received: CountedMail[] = [];
  const rejections: { code: number; message: string }[] = [];
  let refusingAuth = false;
  let rule: Parameters<CountingSmtpSink['answerFor']>[0];
  let dataCount = 0;
  let server: SMTPServer | undefined;
  let port = 0;
  const answer = (found: SinkAnswer) => Object.assign(new Error(found.message), { responseCode: found.code });
  const create = () =>
    new SMTPServer({
      authOptional: !auth,
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      logger: false,
      maxClients: 1000,
      onAuth(credentials, _session, callback) {
        if (refusingAuth || credentials.username !== auth?.user || credentials.password !== auth?.pass)
          return callback(answer({ code: 535, message: '5.7.8 Authentication credentials invalid' }));
        callback(null, { user: credentials.username });
      },
      onRcptTo(address, _session, callback) {
        const found = rule?.(address.address, 'rcpt', dataCount);
        callback(found ? answer(found) : undefined);
      },
      onData(stream, session, callback) {
        let head = '';
        stream.on('data', (chunk: Buffer) => {
          if (head.length < 4096) head += chunk.toString('latin1');
        });
        stream.on('end', () => {
          dataCount += 1;
          const rejection = rejections.shift();
          if (rejection) return callback(answer(rejection));
          const found = rule?.(session.envelope.rcptTo[0]?.address ?? '', 'data', dataCount);
          if (found) return callback(answer(found));
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            messageId: head.match(/^Message-ID:\s*<([^>]+)>/im)?.[1],
          });
          // As a provider answers: its own id for the message ("250 Ok: queued as …").
          callback(null, `Ok: queued as ${randomBytes(8).toString('hex').toUpperCase()}`);
        });
      },
    });
  const listen = async () => {
    const created = create();
    created.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      created.server.once('error', reject);
      created.listen(port, '127.0.0.1', () => resolve());
    });
    server = created;
    port = (created.server.address() as AddressInfo).port;
  };
  await listen();
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : '';
  return {
    get port() {
      return port;
    },
    get url() {
      return `smtp://${credentials}127.0.0.1:${port}`;
    },
    received: () => [...received],
    countsByAddress() {
      const counts = new Map<string, number>();
      for (const mail of received) for (const to of mail.to) counts.set(to, (counts.get(to) ?? 0) + 1);
      return counts;
    },
    rejectNext(code, message = code >= 500 ? 'Mailbox unavailable' : 'Try again later', count = 1) {
      for (let index = 0; index < count; index += 1) rejections.push({ code, message });
    },
    refuseAuth(on) {
      refusingAuth = on;
      // A revoked password: the sessions signed in with it end too, so the next message signs in again.
      if (on)
        for (const connection of (server as unknown as { connections?: Set<{ close(): void }> } | undefined)
          ?.connections ?? [])
          connection.close();
    },
    answerFor(next) {
      rule = next;
    },
    async stop() {
      const running = server;
      server = undefined;
      if (!running) return;
      // Open pooled connections are cut too: an unreachable server, not one that finishes politely.
      for (const connection of (running as unknown as { connections: Set<{ close(): void }> }).connections ?? [])
        connection.close();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    async restart() {
      if (!server) await listen();
    },
  };
}
