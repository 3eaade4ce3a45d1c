// Test support: the seed message's world: a DNS server on loopback with the domain's records, a real
// SMTP server our mail goes to, Dovecot as the seed mailbox, and the receiving server between them
// (each message for the seed address delivered with the Received line it would add).
import { generateKeyPairSync } from 'node:crypto';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Db } from '../db/open-database.js';
import { dkimPublicKey } from '../ready/mail-checks.js';
import { startDnsServer, type DnsServer } from './dns-server.js';
import { startDovecot, type TestDovecot } from './dovecot.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { tempDatabaseFile } from './temp-database.js';
import { machineClock } from './clock.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const SEED_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
export const SEED_ADDRESS = 'seed@inbox.example';

export interface SeedWorld {
  dns: DnsServer;
  smtp: SmtpSink;
  dovecot: TestDovecot;
  store: Db;
  /** The SQLite file of `store`, for a command's DATABASE_URL. */
  file: string;
  /** The settings as environment variables (a command reads them so). */
  env(extra?: Record<string, string>): Record<string, string>;
  config(extra?: Record<string, string>): Config;
  /** Stops the receiving server: nothing more arrives. */
  holdDelivery(): void;
  stop(): Promise<void>;
}

export async function startSeedWorld(): Promise<SeedWorld> {
  const dns = await startDnsServer({
    'scamsavvy.example': ['v=spf1 ip4:127.0.0.1 -all'],
    'mail._domainkey.scamsavvy.example': [`v=DKIM1; k=rsa; p=${dkimPublicKey(SEED_KEY)}`],
    '_dmarc.scamsavvy.example': ['v=DMARC1; p=reject'],
  });
  const smtp = await startSmtpSink();
  const dovecot = await startDovecot();
  const file = tempDatabaseFile();
  const store = await openDatabase({ kind: 'sqlite', file });
  let delivering = true;
  const delivered = new Set<string>();
  const receive = async () => {
    while (delivering) {
      for (const mail of smtp.messages().filter((one) => one.envelope.to.includes(SEED_ADDRESS))) {
        if (delivered.has(mail.raw)) continue;
        delivered.add(mail.raw);
        const received = `Return-Path: <${mail.envelope.from}>\r\nReceived: from relay.scamsavvy.example (relay.scamsavvy.example [127.0.0.1])\r\n\tby mx.inbox.example with ESMTPS id seed; ${machineClock.now().toUTCString()}\r\n`;
        await dovecot.deliver(received + mail.raw);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  void receive();
  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: `sqlite:${file}`,
    SITE_URL: 'https://scamsavvy.example',
    SECRET_KEY: 'k'.repeat(40),
    SMTP_URL: smtp.url,
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
    DKIM_DOMAIN: 'scamsavvy.example',
    DKIM_SELECTOR: 'mail',
    DKIM_PRIVATE_KEY: SEED_KEY.replace(/\n/g, '\\n'),
    DNS_RESOLVER: dns.address,
    READY_SEED_ADDRESS: SEED_ADDRESS,
    READY_SEED_IMAP_URL: dovecot.url(),
    READY_SEED_WAIT_SECONDS: '20',
    ...extra,
  });
  return {
    dns,
    smtp,
    dovecot,
    store,
    file,
    env,
    config: (extra = {}) => loadConfig(env(extra), '/'),
    holdDelivery: () => {
      delivering = false;
    },
    async stop() {
      delivering = false;
      await store.close();
      await dovecot.stop();
      await smtp.stop();
      await dns.close();
    },
  };
}
