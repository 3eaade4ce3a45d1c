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
          callback();
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
