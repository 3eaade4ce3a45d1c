// The seed message: one real email through the relay (SMTP_URL, signed as list mail is) to a mailbox
// of the owner's we can read (READY_SEED_ADDRESS, READY_SEED_IMAP_URL), read back over IMAP, and its
// SPF, DKIM and DMARC results worked out from the message itself with mailauth, from the receiving
// server's Received line: what an inbox provider will make of the launch, before the launch.
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate } from 'mailauth';
import type { EmailConfig } from '../messaging-config.js';
import { imapConnection, parseImapUrl } from '../bounces/bounce-mailbox.js';
import { createEmailSender } from '../messaging/email-sender.js';
import { listIdentity } from '../messaging/transports.js';

export interface SeedSettings {
  /** READY_SEED_ADDRESS: where the seed goes. */
  address: string;
  /** READY_SEED_IMAP_URL: where it is read back (imaps://user:password@host:993/INBOX). */
  imapUrl: string;
  /** How long it may take to arrive (READY_SEED_WAIT_SECONDS, 60 by default). */
  waitMs: number;
}

/** What the receiving side would make of our mail: each result as mailauth words it ('pass', 'fail', 'none' …). */
export type SeedOutcome =
  | { arrived: false; why: string }
  | { arrived: true; spf: string; dkim: string; dmarc: string; signedBy: string | undefined };

/** The header that finds our seed among the mailbox's mail. */
const SEED_HEADER = 'X-ScamSavvy-Seed';

export async function seedRoundTrip(
  email: EmailConfig,
  siteUrl: string,
  seed: SeedSettings,
  dnsServer: string | undefined,
  pollMs = 2_000,
): Promise<SeedOutcome> {
  const token = randomBytes(12).toString('hex');
  const sender = createEmailSender(email, listIdentity(siteUrl));
  try {
    await sender.send({
      to: seed.address,
      subject: `ScamSavvy launch check ${token.slice(0, 8)}`,
      text: 'This is the launch check of ScamSavvy (sudo scamsavvy ready): it is read back and removed.',
      html: '<p>This is the launch check of ScamSavvy (sudo scamsavvy ready): it is read back and removed.</p>',
      unsubscribeUrl: `${siteUrl}/`,
      headers: { [SEED_HEADER]: token },
    });
  } catch (error) {
    return { arrived: false, why: `the mail server did not take it: ${(error as Error).message}` };
  } finally {
    sender.close();
  }
  let raw: Buffer | undefined;
  try {
    raw = await readBack(seed, token, pollMs);
  } catch (error) {
    return { arrived: false, why: `the mailbox could not be read: ${(error as Error).message}` };
  }
  if (!raw)
    return { arrived: false, why: `it did not arrive at ${seed.address} within ${Math.round(seed.waitMs / 1000)} s` };
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (dnsServer) resolver.setServers([dnsServer]);
  const result = await authenticate(raw, {
    trustReceived: true,
    disableArc: true,
    disableBimi: true,
    resolver: (name: string, rrtype: string) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>,
  });
  const passed = result.dkim.results.find((one) => one.status.result === 'pass');
  return {
    arrived: true,
    spf: result.spf ? result.spf.status.result : 'none',
    dkim: passed ? 'pass' : (result.dkim.results[0]?.status.result ?? 'none'),
    dmarc: result.dmarc ? result.dmarc.status.result : 'none',
    signedBy: passed?.signingDomain,
  };
}

/** The seed's whole source once it is in the mailbox (and then removed), or undefined after the wait. */
async function readBack(seed: SeedSettings, token: string, pollMs: number): Promise<Buffer | undefined> {
  const location = parseImapUrl(seed.imapUrl);
  const until = Date.now() + seed.waitMs;
  for (;;) {
    const connection = imapConnection(location);
    await connection.connect();
    try {
      const lock = await connection.getMailboxLock(location.mailbox);
      try {
        const found = await connection.search({ header: { [SEED_HEADER.toLowerCase()]: token } }, { uid: true });
        const uid = Array.isArray(found) ? found[0] : undefined;
        if (uid !== undefined) {
          const message = await connection.fetchOne(String(uid), { source: true }, { uid: true });
          await connection.messageDelete(String(uid), { uid: true });
          if (message && message.source) return message.source;
        }
      } finally {
        lock.release();
      }
    } finally {
      await connection.logout().catch(() => undefined);
    }
    if (Date.now() + pollMs > until) return undefined;
    await sleep(pollMs);
  }
}
