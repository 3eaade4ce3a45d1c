// Test support: a broadcast's world on one engine: a real SMTP server on loopback (counting what
// each address gets), the Twilio stand-in, a fresh database, and people to send to.
import { onTestFinished } from 'vitest';
import { loadConfig, type Config } from '../config.js';
import type { Transports } from '../messaging/transports.js';
import { transportsFrom, type Broadcasts } from '../broadcast/broadcasts.js';
import { compose } from '../compose.js';
import { openDatabase, type Db } from '../db/open-database.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import { startCountingSmtpSink, type CountingSmtpSink } from './smtp-sink.js';
import { storeEngines } from './store-engines.js';
import { startTwilioStandIn, type TwilioStandIn } from './twilio-stand-in.js';
import { DAYTIME_TEXTS } from './clock.js';

export const ACCOUNT_SID = `AC${'1'.repeat(32)}`;
export const AUTH_TOKEN = 'a'.repeat(32);

export function configFor(smtpUrl: string, twilio?: TwilioStandIn, extra: Record<string, string> = {}): Config {
  return loadConfig({
    // Texts go in the daytime where their person is: the launch texts go at DAYTIME whatever the hour.
    ...DAYTIME_TEXTS,
    SITE_URL: 'https://scamsavvy.example',
    SECRET_KEY: 'k'.repeat(40),
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'ScamSavvy <news@scamsavvy.example>',
    MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
    APP_STORE_URL: 'https://apps.apple.com/app/id000000',
    PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=example.app',
    BETA_IOS_URL: 'https://testflight.apple.com/join/EXAMPLE',
    BETA_ANDROID_URL: 'https://play.google.com/apps/testing/example.app',
    ...(twilio
      ? {
          TWILIO_ACCOUNT_SID: ACCOUNT_SID,
          TWILIO_AUTH_TOKEN: AUTH_TOKEN,
          TWILIO_FROM: '+15550000000',
          TWILIO_API_BASE_URL: twilio.baseUrl,
        }
      : {}),
    ...extra,
  });
}

export interface Person {
  email: string;
  phone: string;
  id: string;
}

/**
 * `count` people, confirmed unless said otherwise, each number having said YES to the joining text
 * (decision 041) unless `textsConfirmed` says otherwise; returns them in the outbox's order (by id).
 */
export async function addPeople(
  store: Db,
  count: number,
  {
    prefix = 'person',
    beta = () => false,
    confirmed = () => true,
    textsConfirmed = () => true,
  }: {
    prefix?: string;
    beta?: (index: number) => boolean;
    confirmed?: (index: number) => boolean;
    textsConfirmed?: (index: number) => boolean;
  } = {},
): Promise<Person[]> {
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      store.signups.add({
        name: `Person ${index}`,
        phone: `+1555${String(index).padStart(7, '0')}`,
        email: `${prefix}${index}@example.com`,
        betaTesting: beta(index),
        consentVersion: '2026-11-23',
      }),
    ),
  );
  const people: Person[] = [];
  const saidYes: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `${prefix}${index}@example.com`;
    const subscriber = await store.subscribers.subscriberByEmailKey(email);
    if (!subscriber) throw new Error(`${email} was not stored`);
    if (confirmed(index)) await store.subscribers.confirm(subscriber.id);
    if (textsConfirmed(index)) saidYes.push(subscriber.phone);
    people.push({ email, phone: subscriber.phone, id: subscriber.id });
  }
  // The numbers' YES to their joining texts, a few hundred at a time (one transaction each).
  for (let start = 0; start < saidYes.length; start += 500)
    await store.optOuts.confirmTexts(saidYes.slice(start, start + 500), 'sms_reply');
  return people.sort((a, b) => (a.id < b.id ? -1 : 1));
}

export async function setup(
  engineName: 'sqlite' | 'postgres',
  {
    texts = false,
    smtp,
    env = {},
    file,
  }: {
    texts?: boolean;
    smtp?: CountingSmtpSink;
    env?: Record<string, string>;
    /** An SQLite file made beforehand (a release's database) instead of a fresh one. */
    file?: string;
  } = {},
) {
  const engine = storeEngines.find((each) => each.name === engineName);
  if (!engine) throw new Error(engineName);
  const sink = smtp ?? (await startCountingSmtpSink());
  onTestFinished(() => sink.stop());
  const twilio = texts ? await startTwilioStandIn({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN }) : undefined;
  if (twilio) onTestFinished(() => twilio.stop());
  const database = file ? { kind: 'sqlite' as const, file } : await engine.database();
  const store = await openDatabase(database);
  onTestFinished(() => store.close());
  const config = configFor(sink.url, twilio, env);
  // Composed as the server composes it; the tests drive a sender of their own through its control.
  // The launch checks have tests of their own (ready/): this world, no one's domain, starts ready.
  const product = compose(config, store, { readiness: async () => [] });
  const control = product.owner.broadcastControl!();
  const { broadcasts } = control;
  const transports: Transports = transportsFrom(config);
  onTestFinished(() => transports.email?.close());
  const send = (broadcast: Broadcast, options: Parameters<Broadcasts['sender']>[2] = {}) =>
    broadcasts
      .sender(broadcast, transports, {
        rates: { email: 2_000, sms: 2_000 },
        heartbeatMs: 50,
        retryBaseMs: 20,
        maxRetryMs: 40,
        ...options,
      })
      .run(broadcast);
  return { sink, twilio, store, config, product, control, broadcasts, transports, send, database };
}

/** Each address's count of messages, for these people. */
export function countsFor(sink: CountingSmtpSink, people: Person[]): number[] {
  const counts = sink.countsByAddress();
  return people.map((person) => counts.get(person.email) ?? 0);
}
