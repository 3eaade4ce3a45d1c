// Messaging through the real app: sign-ups over HTTP, a real SMTP server on loopback, a local
// stand-in for Twilio's API, signed webhooks; on every engine the store suite runs on.
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from './test/build-test-app.js';
import type { DatabaseConfig } from './config.js';
import type { MessagingConfig } from './messaging-config.js';
import { openDatabase, type Db } from './db/open-database.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './test/smtp-sink.js';
import { storeEngines } from './test/store-engines.js';
import { startTwilioStandIn, type TwilioStandIn } from './test/twilio-stand-in.js';
import { createMessaging, type MessagingOverrides } from './compose-messaging.js';
import { ACCOUNT_SID, AUTH_TOKEN } from './test/broadcast-setup.js';
import { textIn as signedTextIn } from './test/text-in.js';
import { twilioSignature } from './messaging/twilio-sms-provider.js';
import { messageWords, messageWordsIn } from './messaging/message-words.js';
import { smsSegments } from '../shared/sms-segments.js';

import { SITE } from './test/site.js';
import { capturedLog } from './test/captured-log.js';
import { machineClock } from './test/clock.js';
import { confirmationsWentOut } from './test/outbox.js';
const SECRET_KEY = 'test-secret-key-that-is-long-enough-123';

interface Running {
  app: FastifyInstance;
  store: Db;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function sink(): Promise<SmtpSink> {
  const started = await startSmtpSink();
  cleanups.push(() => started.stop());
  return started;
}

async function twilioStandIn(): Promise<TwilioStandIn> {
  const started = await startTwilioStandIn({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  cleanups.push(() => started.stop());
  return started;
}

async function start(
  engine: (typeof storeEngines)[number],
  { smtpUrl, twilio, postalAddress }: { smtpUrl?: string; twilio?: TwilioStandIn; postalAddress?: string },
): Promise<Running> {
  const database = await engine.database();
  const config: MessagingConfig = {
    ...(smtpUrl ? { email: { smtpUrl, from: 'ScamSavvy <hello@scamsavvy.example>' } } : {}),
    ...(twilio
      ? {
          sms: {
            provider: 'twilio' as const,
            accountSid: ACCOUNT_SID,
            authToken: AUTH_TOKEN,
            from: '+15550001111',
            apiBaseUrl: twilio.baseUrl,
          },
        }
      : {}),
    secretKey: SECRET_KEY,
    ...(postalAddress ? { postalAddress } : {}),
    emailConfirmation: smtpUrl !== undefined,
    unconfirmedRetentionDays: 30,
    confirmationReminderDays: 7,
  };
  const store = await openDatabase(database, { confirmSignups: config.emailConfirmation });
  return serve(store, database, config, {
    mailer: { retryBaseMs: 100, maxRetryMs: 300 },
    everyMs: { 'confirmation-emails': 100 },
  });
}

/** The app over this database, composed with these messaging settings, as the server runs it. */
async function serve(
  store: Db,
  database: DatabaseConfig,
  messaging: Partial<MessagingConfig>,
  overrides?: MessagingOverrides,
): Promise<Running> {
  const { app } = await buildTestApp({
    existing: { db: store, database },
    config: { siteUrl: SITE, messaging },
    ...(overrides ? { overrides: { messaging: overrides } } : {}),
    keepOpen: true,
  });
  await app.ready();
  cleanups.push(() => app.close());
  return { app, store };
}

async function signUp(
  app: FastifyInstance,
  email: string,
  phone = '+15551234567',
  name = 'Rosa Díaz',
  language: 'en' | 'es' = 'en',
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/signups',
    payload: { name, phone, email, betaTesting: false, openedForMs: 5000, consentVersion: '2026-11-23', language },
  });
  expect(response.statusCode).toBe(201);
}

const to = (email: string) => (mail: ReceivedMail) => mail.envelope.to.includes(email);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function linksIn(mail: ReceivedMail) {
  const text = mail.parsed.text ?? '';
  const find = (kind: string) => text.match(new RegExp(`${SITE}/${kind}/([A-Za-z0-9_-]+)`))?.[0];
  return { confirm: find('confirm'), preferences: find('preferences'), unsubscribe: find('unsubscribe') };
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`confirmation email (${engine.name})`, () => {
    it('goes out once a sign-up is stored: list headers, both parts, working links, and not the name', async () => {
      const smtp = await sink();
      const { app, store } = await start(engine, { smtpUrl: smtp.url });
      await signUp(app, 'rosa@example.com', '+15551234567', 'Spammy Name Visit evil.example');
      const mail = await smtp.waitFor(to('rosa@example.com'), 10_000);

      expect(mail.parsed.subject).toBe('Please confirm you want launch news from ScamSavvy');
      expect(mail.parsed.from?.value).toEqual([{ name: 'ScamSavvy', address: 'hello@scamsavvy.example' }]);
      const links = linksIn(mail);
      expect(links.confirm).toBeDefined();
      const headers = mail.raw.replace(/\r?\n[ \t]+/g, ' '); // long header lines are folded
      expect(headers).toMatch(new RegExp(`^List-Unsubscribe: <${links.unsubscribe}>`, 'm'));
      expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect(headers).toMatch(/^List-Id: .*<launch\.scamsavvy\.example>/im);
      expect(mail.parsed.text).toContain(links.preferences);
      expect(mail.parsed.html).toContain(links.confirm);
      const everything = `${mail.raw}${mail.parsed.text}${mail.parsed.html}`;
      expect(everything).not.toMatch(/Spammy|evil\.example|Rosa/);

      // The link opens a page; only its button confirms.
      const path = (url: string | undefined) => (url ?? '').slice(SITE.length);
      const opened = await app.inject({ method: 'GET', url: path(links.confirm) });
      expect(opened.statusCode).toBe(200);
      const before = await store.subscribers.subscriberByEmailKey('rosa@example.com');
      expect(before?.confirmedAt).toBeNull();
      const pressed = await app.inject({ method: 'POST', url: path(links.confirm), payload: {} });
      expect(pressed.statusCode).toBe(303);
      const after = await store.subscribers.subscriberByEmailKey('rosa@example.com');
      expect(after?.confirmedAt).not.toBeNull();
      expect((await store.consentEvents.history(after?.id ?? '')).map((event) => event.kind)).toEqual([
        'signed_up',
        'confirmed',
      ]);
    });
  });
}

describe('confirmation email, on SQLite', () => {
  const sqlite = storeEngines[0]!;

  // Issue 54: one rate per channel, kept by the messages the product sends by itself.
  it('takes its turn at the email rate before it goes; the emailed button, asked for this moment, does not wait', async () => {
    const smtp = await sink();
    const turns: string[] = [];
    const database = await sqlite.database();
    const config: MessagingConfig = {
      email: { smtpUrl: smtp.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
      secretKey: SECRET_KEY,
      emailConfirmation: true,
      unconfirmedRetentionDays: 30,
      confirmationReminderDays: 7,
    };
    const store = await openDatabase(database, { confirmSignups: true });
    const { app, product } = await buildTestApp({
      existing: { db: store, database },
      config: { siteUrl: SITE, messaging: config },
      overrides: {
        messaging: {
          rates: { take: async (channel) => void turns.push(channel) },
          everyMs: { 'confirmation-emails': 100 },
        },
      },
      keepOpen: true,
    });
    await app.ready();
    cleanups.push(() => app.close());
    await signUp(app, 'rosa@example.com');
    await smtp.waitFor(to('rosa@example.com'), 10_000);
    expect(turns).toEqual(['email']);
    // The button someone asks for on their page goes at once, through the same product.
    const rosa = await store.subscribers.subscriberByEmailKey('rosa@example.com');
    expect(await product.messaging.buttons?.send(rosa!, { kind: 'back' })).toBe('sent');
    await smtp.waitFor((mail) => to('rosa@example.com')(mail) && /button/i.test(mail.parsed.text ?? ''), 10_000);
    expect(turns).toEqual(['email']);
  });

  it('waits out a mail server that is down: the sign-up still gets 201, the email goes once it is back', async () => {
    const smtp = await sink();
    await smtp.stop();
    const { app, store } = await start(sqlite, { smtpUrl: smtp.url });
    await signUp(app, 'outage@example.com');
    expect(await store.signups.count()).toBe(1);
    await pause(400); // a few failed tries
    expect(smtp.messages()).toHaveLength(0);
    await smtp.restart();
    const mail = await smtp.waitFor(to('outage@example.com'), 10_000);
    expect(mail.parsed.subject).toMatch(/confirm/);
    await pause(400);
    expect(smtp.messages().filter(to('outage@example.com'))).toHaveLength(1);
  });

  it('tries again after a temporary refusal, never after a permanent one', async () => {
    const smtp = await sink();
    smtp.rejectNext(451, 'Try again later', 1);
    const { app } = await start(sqlite, { smtpUrl: smtp.url });
    await signUp(app, 'later@example.com');
    await smtp.waitFor(to('later@example.com'), 10_000);

    smtp.rejectNext(550, '5.1.1 No such user', 1);
    await signUp(app, 'nobody@example.com', '+15550000001');
    await pause(100);
    await signUp(app, 'control@example.com', '+15550000002');
    await smtp.waitFor(to('control@example.com'), 10_000);
    await pause(600); // well past several retry delays
    expect(smtp.messages().filter(to('nobody@example.com'))).toHaveLength(0);
  });

  it('sends at most one a day to one address, and none to someone confirmed', async () => {
    const smtp = await sink();
    const { app, store } = await start(sqlite, { smtpUrl: smtp.url });
    await signUp(app, 'twice@example.com');
    await smtp.waitFor(to('twice@example.com'), 10_000);
    await signUp(app, 'TWICE@example.com');
    await signUp(app, 'twice@example.com');
    await signUp(app, 'once@example.com', '+15550000003');
    const confirmed = await store.subscribers.subscriberByEmailKey('once@example.com');
    await smtp.waitFor(to('once@example.com'), 10_000);
    await store.subscribers.confirm(confirmed?.id ?? '');
    await signUp(app, 'once@example.com', '+15550000003');
    await pause(500);
    expect(smtp.messages().filter(to('twice@example.com'))).toHaveLength(1);
    expect(smtp.messages().filter(to('once@example.com'))).toHaveLength(1);
  });

  it('never reaches someone who left before it could be sent', async () => {
    const smtp = await sink();
    await smtp.stop();
    const { app, store } = await start(sqlite, { smtpUrl: smtp.url });
    // An attempt already past its consent check when the person leaves would still go: the person
    // leaves once the first attempt has failed against the stopped server, so the next one must not go.
    await signUp(app, 'gone@example.com');
    await signUp(app, 'stays@example.com', '+15550000004');
    const gone = await store.subscribers.subscriberByEmailKey('gone@example.com');
    const goneFailed = async () =>
      (await store.messageQueue.rows('confirmation')).some(
        (row) => row.signupId === gone?.id && row.state === 'failed_temporary',
      );
    await expect.poll(goneFailed, { timeout: 10_000 }).toBe(true);
    const messaging = createMessaging(
      { secretKey: SECRET_KEY, emailConfirmation: false, unconfirmedRetentionDays: 30, confirmationReminderDays: 7 },
      store,
      SITE,
    );
    expect(await messaging.subscriptions.leave(gone?.id ?? '', 'preferences_page')).toBe(true);
    await smtp.restart();
    await smtp.waitFor(to('stays@example.com'), 10_000);
    await pause(400);
    expect(smtp.messages().filter(to('gone@example.com'))).toHaveLength(0);
  });
});

describe('POST /api/sms/inbound', () => {
  const sqlite = storeEngines[0]!;
  const url = `${SITE}/api/sms/inbound`;

  let sids = 0;
  async function textIn(app: FastifyInstance, body: string, { from = '+15551234567', token = AUTH_TOKEN } = {}) {
    sids += 1;
    const messageSid = `SM${String(sids).padStart(32, '2')}`;
    return signedTextIn(app, { from, to: '+15550001111', body, messageSid, token });
  }

  it('STOP stops texts to that number however it was typed, records it, and says so; START undoes it', async () => {
    const twilio = await twilioStandIn();
    const { app, store } = await start(sqlite, { twilio });
    await signUp(app, 'a@example.com', '5551234567');
    await signUp(app, 'b@example.com', '+15551234567');
    await signUp(app, 'c@example.com', '+15559999999');

    const stopped = await textIn(app, '  sToP ');
    expect(stopped.statusCode).toBe(200);
    expect(stopped.headers['content-type']).toMatch(/xml/);
    const smsOff = async (email: string) => (await store.subscribers.subscriberByEmailKey(email))?.smsOptOutAt !== null;
    expect(await smsOff('a@example.com')).toBe(true);
    expect(await smsOff('b@example.com')).toBe(true);
    expect(await smsOff('c@example.com')).toBe(false);
    const a = await store.subscribers.subscriberByEmailKey('a@example.com');
    expect((await store.consentEvents.history(a?.id ?? '')).at(-1)).toMatchObject({
      kind: 'sms_off',
      source: 'sms_reply',
    });
    const reply = await twilio.waitFor((sent) => sent.to === '+15551234567' && /no more texts/i.test(sent.body), 5000);
    expect(reply.body).toMatch(/no more texts/i);
    // The answer is recorded like every message we send, so what Twilio reports about it is kept.
    expect(reply.statusCallback).toMatch(/^https:\/\/scamsavvy\.example\/api\/sms\/status\?t=[a-z2-7]{32}$/);
    const token = new URL(reply.statusCallback!).searchParams.get('t')!;
    await expect.poll(async () => (await store.sentMessages.find({ token }))?.state).toBe('sent');
    expect(await store.sentMessages.find({ token })).toMatchObject({
      purpose: 'reply',
      channel: 'sms',
      signupId: null,
    });

    expect((await textIn(app, 'start')).statusCode).toBe(200);
    expect(await smsOff('a@example.com')).toBe(false);
    expect(await smsOff('b@example.com')).toBe(false);
  });

  it('understands the Spanish words and answers in the language of the word; START in the language the number signed up in (issue 45)', async () => {
    const twilio = await twilioStandIn();
    const { app, store } = await start(sqlite, { twilio });
    await signUp(app, 'luz@example.com', '+15552223333', 'Luz Ortega', 'es');
    await signUp(app, 'ann@example.com', '+15554445555', 'Ann Lee', 'en');
    // The joining text in each person's language.
    await twilio.waitFor(
      (sent) => sent.to === '+15552223333' && sent.body === messageWordsIn.es.sms.joining.reply,
      5000,
    );
    await twilio.waitFor(
      (sent) => sent.to === '+15554445555' && sent.body === messageWordsIn.en.sms.joining.reply,
      5000,
    );
    const answerTo = async (phone: string, body: string) => {
      const before = twilio.sent().filter((sent) => sent.to === phone).length;
      expect((await textIn(app, body, { from: phone })).statusCode).toBe(200);
      await expect.poll(() => twilio.sent().filter((sent) => sent.to === phone).length).toBe(before + 1);
      return twilio
        .sent()
        .filter((sent) => sent.to === phone)
        .at(-1)?.body;
    };
    const smsOff = async (email: string) => (await store.subscribers.subscriberByEmailKey(email))?.smsOptOutAt !== null;
    // "No más" stops texts, answered in Spanish, from an English sign-up's phone too: the word decides.
    expect(await answerTo('+15554445555', 'No más')).toBe(messageWordsIn.es.sms.stopped);
    expect(await smsOff('ann@example.com')).toBe(true);
    // START has no language of its own: each number hears it in the language it signed up in.
    expect(await answerTo('+15554445555', 'START')).toBe(messageWordsIn.en.sms.started);
    expect(await answerTo('+15552223333', 'ALTO')).toBe(messageWordsIn.es.sms.stopped);
    expect(await smsOff('luz@example.com')).toBe(true);
    expect(await answerTo('+15552223333', 'start')).toBe(messageWordsIn.es.sms.started);
    expect(await smsOff('luz@example.com')).toBe(false);
    expect(await answerTo('+15552223333', 'Ayuda')).toMatch(/^ScamSavvy: avisos de la salida de la app, 2 msj max\. /);
    expect(await answerTo('+15552223333', 'STOP')).toBe(messageWordsIn.en.sms.stopped);
  });

  it('refuses a request with a bad, forged or missing signature, and changes nothing', async () => {
    const twilio = await twilioStandIn();
    const { app, store } = await start(sqlite, { twilio });
    await signUp(app, 'a@example.com', '+15551234567');

    const forged = await textIn(app, 'STOP', { token: 'b'.repeat(32) });
    expect(forged.statusCode).toBe(403);
    const missing = await app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'From=%2B15551234567&Body=STOP',
    });
    expect(missing.statusCode).toBe(403);
    const params = { From: '+15559999999', Body: 'hello' };
    const tampered = await app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(AUTH_TOKEN, url, params),
      },
      payload: new URLSearchParams({ ...params, From: '+15551234567', Body: 'STOP' }).toString(),
    });
    expect(tampered.statusCode).toBe(403);
    expect((await store.subscribers.subscriberByEmailKey('a@example.com'))?.smsOptOutAt).toBeNull();
    await pause(100);
    // Only the joining text the sign-up brought (decision 041): no answer to anything forged.
    expect(twilio.sent().map((sent) => sent.body)).toEqual([messageWords.sms.joining.reply]);
  });

  it('answers HELP with who we are, where (as every email’s footer says it) and how to reach us, and ignores other texts', async () => {
    const twilio = await twilioStandIn();
    const { app } = await start(sqlite, { twilio, postalAddress: '100 Example Street, Springfield, IL 62701' });
    expect((await textIn(app, 'Help', { from: '+15557654321' })).statusCode).toBe(200);
    const reply = await twilio.waitFor((sent) => sent.to === '+15557654321', 5000);
    expect(reply.body).toMatch(/ScamSavvy/);
    expect(reply.body).toMatch(/STOP/);
    expect(reply.body.split('\n').at(-1)).toBe('ScamSavvy, 100 Example Street, Springfield, IL 62701');
    expect(smsSegments(reply.body).segments).toBe(1);
    expect((await textIn(app, 'who is this?', { from: '+15550000009' })).statusCode).toBe(200);
    await pause(150);
    expect(twilio.sent().filter((sent) => sent.to === '+15550000009')).toHaveLength(0);
  });
  it('with SMS_KEYWORD_REPLIES=twilio acts on STOP, START and HELP but answers none: Twilio answers them, once', async () => {
    const twilio = await twilioStandIn();
    const database = await sqlite.database();
    const config: MessagingConfig = {
      sms: {
        provider: 'twilio',
        accountSid: ACCOUNT_SID,
        authToken: AUTH_TOKEN,
        from: '+15550001111',
        apiBaseUrl: twilio.baseUrl,
        keywordReplies: 'twilio',
      },
      secretKey: SECRET_KEY,
      emailConfirmation: false,
      unconfirmedRetentionDays: 30,
      confirmationReminderDays: 7,
    };
    const store = await openDatabase(database);
    const { app } = await serve(store, database, config, {});
    await signUp(app, 'quiet@example.com', '+15557654329');
    await twilio.waitFor((sent) => sent.to === '+15557654329', 5000); // the joining text
    for (const word of ['STOP', 'HELP'])
      expect((await textIn(app, word, { from: '+15557654329' })).statusCode).toBe(200);
    expect((await store.subscribers.subscriberByEmailKey('quiet@example.com'))?.smsOptOutAt).not.toBeNull();
    await pause(300);
    expect(twilio.sent().filter((sent) => sent.to === '+15557654329')).toHaveLength(1);
  });

  it('answers HELP in two texts, in order, when the postal address does not fit in one beside the words', async () => {
    const twilio = await twilioStandIn();
    const address = 'Suite 1200, 1000 North Example Boulevard, Springfield Gardens, Illinois 62701-1234, USA';
    const { app } = await start(sqlite, { twilio, postalAddress: address });
    expect((await textIn(app, 'help', { from: '+15557654322' })).statusCode).toBe(200);
    await expect.poll(() => twilio.sent().filter((sent) => sent.to === '+15557654322').length).toBe(2);
    const [words, sender] = twilio.sent().filter((sent) => sent.to === '+15557654322');
    expect(words!.body).toMatch(/^ScamSavvy launch texts/);
    expect(sender!.body).toBe(`ScamSavvy, ${address}`);
    for (const text of [words!, sender!]) expect(smsSegments(text.body).segments).toBe(1);
  });
});

describe('createMessaging', () => {
  it('says once at start that no messages will be sent while neither email nor texts are set', async () => {
    const { written: lines, logger } = capturedLog();
    const store = await openDatabase(await storeEngines[0]!.database());
    cleanups.push(() => store.close());
    const messaging = createMessaging(
      { emailConfirmation: false, unconfirmedRetentionDays: 30, confirmationReminderDays: 7 },
      store,
      SITE,
    );
    messaging.start(logger);
    expect(lines.filter((line) => line.includes('No messages will be sent'))).toHaveLength(1);
    expect(messaging.links).toBeUndefined();
    expect(messaging.queueJobs(logger, () => undefined)).toEqual([]);
    await messaging.stop();
  });
});

describe('unconfirmed sign-ups', () => {
  it('are deleted at start once older than UNCONFIRMED_RETENTION_DAYS; confirmed ones stay', async () => {
    const smtp = await sink();
    // The sweep at start reads the product's clock, the machine's: 31 days before it.
    const longAgo = new Date(machineClock.ms() - 31 * 24 * 60 * 60_000);
    const database = await storeEngines[0]!.database();
    const store = await openDatabase(database, { confirmSignups: true, now: () => longAgo });
    await store.signups.add({ name: 'Old', phone: '+15550000010', email: 'old@example.com', betaTesting: false });
    await store.signups.add({ name: 'Kept', phone: '+15550000011', email: 'kept@example.com', betaTesting: false });
    await confirmationsWentOut(store);
    await store.subscribers.confirm((await store.subscribers.subscriberByEmailKey('kept@example.com'))?.id ?? '');
    await serve(store, database, {
      email: { smtpUrl: smtp.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
      secretKey: SECRET_KEY,
      emailConfirmation: true,
      unconfirmedRetentionDays: 30,
      confirmationReminderDays: 7,
    });
    await expect.poll(() => store.signups.count()).toBe(1);
    expect(await store.subscribers.subscriberByEmailKey('old@example.com')).toBeUndefined();
    expect(await store.subscribers.subscriberByEmailKey('kept@example.com')).toBeDefined();
  });
});
