// The seed message end to end: sent through a real SMTP server on loopback (signed with our DKIM key),
// delivered as a receiving server would (its Received line, with our relay's address) into a real
// Dovecot mailbox, read back over IMAP, and judged with mailauth against a DNS server on loopback:
// green when SPF, DKIM and DMARC pass, red when one does not, amber when nothing arrives.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Db } from '../db/open-database.js';
import { startDnsServer, type DnsServer } from '../test/dns-server.js';
import { dovecotAvailable, startDovecot, type TestDovecot } from '../test/dovecot.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { tempDatabaseFile } from '../test/temp-database.js';
import { dkimPublicKey } from './mail-checks.js';
import { readyChecks, readyFacts } from './ready-checks.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let dns: DnsServer;
let smtp: SmtpSink;
let dovecot: TestDovecot;
let store: Db;
let delivering = true;

/** The receiving server: each message for the seed mailbox goes into Dovecot with the Received line it would add. */
async function deliverFromSink(): Promise<void> {
  const done = new Set<string>();
  while (delivering) {
    for (const mail of smtp.messages().filter((one) => one.envelope.to.includes('seed@inbox.example'))) {
      if (done.has(mail.raw)) continue;
      done.add(mail.raw);
      const received = `Return-Path: <${mail.envelope.from}>\r\nReceived: from relay.scamsavvy.example (relay.scamsavvy.example [127.0.0.1])\r\n\tby mx.inbox.example with ESMTPS id seed; ${new Date().toUTCString()}\r\n`;
      await dovecot.deliver(received + mail.raw);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function config(extra: Record<string, string> = {}): Config {
  return loadConfig(
    {
      SITE_URL: 'https://scamsavvy.example',
      SECRET_KEY: 'k'.repeat(40),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
      DKIM_DOMAIN: 'scamsavvy.example',
      DKIM_SELECTOR: 'mail',
      DKIM_PRIVATE_KEY: KEY.replace(/\n/g, '\\n'),
      DNS_RESOLVER: dns.address,
      READY_SEED_ADDRESS: 'seed@inbox.example',
      READY_SEED_IMAP_URL: dovecot.url(),
      READY_SEED_WAIT_SECONDS: '20',
      ...extra,
    },
    '/',
  );
}

const seedCheck = async (settings: Config) =>
  (await readyChecks(readyFacts(settings, store, { seed: true }))).find((one) => one.id === 'mail-seed');

describe.skipIf(!dovecotAvailable)('the seed message', () => {
  beforeEach(async () => {
    dns = await startDnsServer({
      'scamsavvy.example': ['v=spf1 ip4:127.0.0.1 -all'],
      'mail._domainkey.scamsavvy.example': [`v=DKIM1; k=rsa; p=${dkimPublicKey(KEY)}`],
      '_dmarc.scamsavvy.example': ['v=DMARC1; p=reject'],
    });
    smtp = await startSmtpSink();
    dovecot = await startDovecot();
    store = await openDatabase({ kind: 'sqlite', file: tempDatabaseFile() });
    delivering = true;
    void deliverFromSink();
  });

  afterEach(async () => {
    delivering = false;
    await store.close();
    await dovecot.stop();
    await smtp.stop();
    await dns.close();
  });

  it('goes through the mail server, comes back, passes SPF, DKIM and DMARC as the receiving side reads it, and is removed', async () => {
    const check = await seedCheck(config());
    expect(check).toMatchObject({
      level: 'green',
      found: 'as the receiving side reads it: SPF pass, DKIM pass (d=scamsavvy.example), DMARC pass',
    });
    expect(await dovecot.list('INBOX')).toEqual([]);
  });

  it('is red when the receiving side would fail it: our relay not in SPF, and a DKIM key that is not ours', async () => {
    dns.set('scamsavvy.example', ['v=spf1 ip4:192.0.2.1 -all']);
    const { privateKey: other } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    dns.set('mail._domainkey.scamsavvy.example', [
      `v=DKIM1; k=rsa; p=${dkimPublicKey(other.export({ type: 'pkcs8', format: 'pem' }).toString())}`,
    ]);
    const check = await seedCheck(config());
    expect(check).toMatchObject({
      level: 'red',
      found: expect.stringMatching(/SPF fail, DKIM (fail|neutral), DMARC fail/),
    });
  });

  it('is amber, saying so, when it does not arrive in time; and when no mailbox is set, says how to set one', async () => {
    delivering = false;
    const late = await seedCheck(config({ READY_SEED_WAIT_SECONDS: '2' }));
    expect(late).toMatchObject({ level: 'amber', found: 'it did not arrive at seed@inbox.example within 2 s' });
    const none = await seedCheck(config({ READY_SEED_ADDRESS: '', READY_SEED_IMAP_URL: '' }));
    expect(none).toMatchObject({
      level: 'amber',
      fix: expect.stringContaining('READY_SEED_ADDRESS and READY_SEED_IMAP_URL'),
    });
  });
});
