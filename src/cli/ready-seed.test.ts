// `sudo scamsavvy ready` sends the seed message (through a real SMTP server, into Dovecot, judged
// against a DNS server on loopback) and keeps its answer: the dashboard and a send's refusal, which
// do not send one, give the same answer until the next.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dovecotAvailable } from '../server/test/dovecot.js';
import { startSeedWorld, type SeedWorld } from '../server/test/seed-world.js';
import { runCommand } from '../server/test/run-command.js';
import { readyChecks, readyFacts } from '../server/ready/ready-checks.js';
import { main } from './ready.js';

let world: SeedWorld;

describe.skipIf(!dovecotAvailable)('sudo scamsavvy ready and the seed message', () => {
  beforeEach(async () => {
    world = await startSeedWorld();
  });

  afterEach(async () => {
    vi.unstubAllEnvs();
    await world.stop();
  });

  it("sent by the command, its answer is the dashboard's too (and a send's refusal's), until the next one", async () => {
    for (const [name, value] of Object.entries(world.env())) vi.stubEnv(name, value);
    const ran = await runCommand(main, []);
    expect(ran.out).toMatch(/green {2}A seed message, read back: as the receiving side reads it: SPF pass, DKIM pass/);
    const here = (await readyChecks(readyFacts(world.config(), world.store))).find((one) => one.id === 'mail-seed');
    expect(here).toMatchObject({
      level: 'green',
      found: expect.stringMatching(
        /^as the receiving side reads it: SPF pass, DKIM pass \(d=scamsavvy\.example\), DMARC pass \(the seed sudo scamsavvy ready sent on \d{4}-\d\d-\d\d\)$/,
      ),
    });
  });
});
