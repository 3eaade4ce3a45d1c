// Test support: a local HTTP stand-in for Twilio's Messages and Accounts API, at the network's edge.
// It checks the Basic auth, answers like Twilio, keeps what was sent, and can fail on request: the
// next sends, every send to one number, every request (credentials refused), or the account's status.
// Plain Node (no test-runner APIs), so unit tests and browser tests both use it.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForMatch } from './poll.js';
import { machineClock } from './clock.js';

export interface SentByStandIn {
  to: string;
  body: string;
  from?: string;
  messagingServiceSid?: string;
  /** Where Twilio would report what became of it. */
  statusCallback?: string;
  /** The id the stand-in answered with. */
  sid?: string;
  /** When the stand-in took it (ms since the epoch, the real clock). */
  at: number;
}

export interface TwilioStandIn {
  baseUrl: string;
  sent(): SentByStandIn[];
  waitFor(predicate: (sent: SentByStandIn) => boolean, timeoutMs?: number): Promise<SentByStandIn>;
  /** Answers the next `count` sends with this HTTP status and Twilio error code. */
  failNext(status: number, code: number, message: string, count?: number): void;
  /** Answers every send to this number (E.164) with this HTTP status and Twilio error code. */
  failFor(to: string, status: number, code: number, message: string): void;
  /** While on, answers every request 401 with error 20003, as Twilio does for wrong credentials. */
  refuseAuth(on: boolean): void;
  /** The account's status in GET /2010-04-01/Accounts/{sid}.json: active (the start), suspended or closed. */
  setAccountStatus(status: string): void;
  /**
   * A Messaging Service GET /v1/Services/{sid} answers (messaging.twilio.com's API, on the same
   * stand-in), with its A2P 10DLC registration as `us_app_to_person_registered`.
   */
  addService(sid: string, registered: boolean): void;
  /** Forgets the failures asked for with failNext and failFor: Twilio answers again. */
  stopFailing(): void;
  /** Forgets what was sent (a benchmark's next run). */
  clear(): void;
  stop(): Promise<void>;
}

interface Failure {
  status: number;
  code: number;
  message: string;
}

export async function startTwilioStandIn({
  accountSid,
  authToken,
}: {
  accountSid: string;
  authToken: string;
}): Promise<TwilioStandIn> {
  const sent: SentByStandIn[] = [];
  const failures: Failure[] = [];
  const failuresFor = new Map<string, Failure>();
  let refusingAuth = false;
  let accountStatus = 'active';
  const services = new Map<string, boolean>();
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
  const accountPath = `/2010-04-01/Accounts/${accountSid}.json`;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, body: object) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      const fail = (failure: Failure) =>
        answer(failure.status, { code: failure.code, message: failure.message, status: failure.status });
      // Twilio checks the credentials before it looks for the resource.
      if (refusingAuth || request.headers.authorization !== expectedAuth)
        return answer(401, { code: 20003, message: 'Authenticate', status: 401 });
      if (request.method === 'GET' && request.url === accountPath)
        return answer(200, { sid: accountSid, friendly_name: 'Stand-in account', status: accountStatus, type: 'Full' });
      const service =
        request.method === 'GET' ? /^\/v1\/Services\/(MG[0-9a-f]{32})$/.exec(request.url ?? '')?.[1] : undefined;
      if (service && services.has(service))
        return answer(200, {
          sid: service,
          account_sid: accountSid,
          friendly_name: 'Stand-in service',
          us_app_to_person_registered: services.get(service),
          use_inbound_webhook_on_number: false,
        });
      if (request.method !== 'POST' || request.url !== path)
        return answer(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const failure = failures.shift() ?? failuresFor.get(form.get('To') ?? '');
      if (failure) return fail(failure);
      const to = form.get('To');
      const body = form.get('Body');
      if (!to || !body) return answer(400, { code: 21604, message: "A 'To' phone number is required.", status: 400 });
      const message: SentByStandIn = {
        to,
        body,
        ...(form.get('From') ? { from: form.get('From') ?? '' } : {}),
        ...(form.get('MessagingServiceSid') ? { messagingServiceSid: form.get('MessagingServiceSid') ?? '' } : {}),
        ...(form.get('StatusCallback') ? { statusCallback: form.get('StatusCallback') ?? '' } : {}),
        sid: `SM${randomBytes(16).toString('hex')}`,
        at: machineClock.ms(),
      };
      sent.push(message);
      answer(201, { sid: message.sid, status: 'queued', to, from: message.from, body });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sent: () => [...sent],
    waitFor: (predicate, timeoutMs = 10_000) => waitForMatch(() => sent, predicate, timeoutMs, 'text'),
    failNext(status, code, message, count = 1) {
      for (let index = 0; index < count; index += 1) failures.push({ status, code, message });
    },
    failFor(to, status, code, message) {
      failuresFor.set(to, { status, code, message });
    },
    refuseAuth(on) {
      refusingAuth = on;
    },
    setAccountStatus(status) {
      accountStatus = status;
    },
    addService(sid, registered) {
      services.set(sid, registered);
    },
    stopFailing() {
      failures.length = 0;
      failuresFor.clear();
    },
    clear() {
      sent.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
