// The seed message end to end: sent through a real SMTP server on loopback (signed with our DKIM key),
// delivered as a receiving server would (its Received line, with our relay's address) into a real
// Dovecot mailbox, read back over IMAP, and judged with mailauth against a DNS server on loopback:
// green when SPF, DKIM and DMARC pass, red when one does not, amber when nothing arrives.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { dovecotAvailable } from '../test/dovecot.js';
import { startSeedWorld, type SeedWorld } from '../test/seed-world.js';
import { dkimPublicKey } from './mail-checks.js';
import { readyChecks, readyFacts } from './ready-checks.js';

let world: SeedWorld;

const seedCheck = async (settings: Config, send = true) =>
  (await readyChecks(readyFacts(settings, world.store, { seed: send }))).find((one) => one.id === 'mail-seed');

describe.skipIf(!dovecotAvailable)('the seed message', () => {
  beforeEach(async () => {
    world = await startSeedWorld();
  });

  afterEach(async () => {
    await world.stop();
  });

  it('goes through the mail server, comes back, passes SPF, DKIM and DMARC as the receiving side reads it, and is removed', async () => {
    const check = await seedCheck(world.config());
    expect(check).toMatchObject({
      level: 'green',
      found: 'as the receiving side reads it: SPF pass, DKIM pass (d=scamsavvy.example), DMARC pass',
    });
    expect(await world.dovecot.list('INBOX')).toEqual([]);
  });

  it('is red when the receiving side would fail it: our relay not in SPF, and a DKIM key that is not ours', async () => {
    world.dns.set('scamsavvy.example', ['v=spf1 ip4:192.0.2.1 -all']);
    const { privateKey: other } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    world.dns.set('mail._domainkey.scamsavvy.example', [
      `v=DKIM1; k=rsa; p=${dkimPublicKey(other.export({ type: 'pkcs8', format: 'pem' }).toString())}`,
    ]);
    const check = await seedCheck(world.config());
    expect(check).toMatchObject({
      level: 'red',
      found: expect.stringMatching(/SPF fail, DKIM (fail|neutral), DMARC fail/),
    });
  });

  it('is amber, saying so, when it does not arrive in time; and when no mailbox is set, says how to set one', async () => {
    world.holdDelivery();
    const late = await seedCheck(world.config({ READY_SEED_WAIT_SECONDS: '2' }));
    expect(late).toMatchObject({ level: 'amber', found: 'it did not arrive at seed@inbox.example within 2 s' });
    const none = await seedCheck(world.config({ READY_SEED_ADDRESS: '', READY_SEED_IMAP_URL: '' }));
    expect(none).toMatchObject({
      level: 'amber',
      fix: expect.stringContaining('READY_SEED_ADDRESS and READY_SEED_IMAP_URL'),
    });
    // Where it is not sent (the dashboard, a send's refusal), before the command ever sent one.
    const unsent = await seedCheck(world.config(), false);
    expect(unsent).toMatchObject({
      level: 'amber',
      found: expect.stringMatching(/^not sent yet: only sudo scamsavvy ready sends it/),
    });
  });
});
