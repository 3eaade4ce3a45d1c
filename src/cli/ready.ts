// `sudo scamsavvy ready` (npm run ready): the launch checks, the same list as the dashboard's "Ready
// for launch" page (docs/production.md, "Before you go live"). Exits 0 when nothing is red, 1 when
// something is; --json prints the same list for scripts.
import { loadConfig } from '../server/config.js';
import { isReady, keptDetail, levelCounts, readyChecks, readyFacts } from '../server/ready/ready-checks.js';
import type { ReadyCheck } from '../server/ready/ready-check.js';
import { CliError, isEntryPoint, openStoreForCli, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';

const usage = `Usage: sudo scamsavvy ready [--json] [--key-kept]

Checks that the world will take the launch: the sending domain's SPF, DKIM and DMARC records and
alignment (through DNS_RESOLVER, or the system's DNS), the bulk-sender rules, Twilio's sign-in and
A2P 10DLC registration, and the site's own facts (privacy contact, statistics, postal address,
https, backups, an owner). Each is green, amber or red, with what to do. Exits 1 while anything is
red (broadcast send refuses then too), 0 otherwise.

  --json       the same list as JSON: { "ready": true|false, "checks": [{ id, area, level, title, found, fix }] }
  --key-kept   says, once, that a copy of SECRET_KEY is kept with your backups (recorded in the audit
               log with the key's fingerprint, never the key; a new key asks again)`;

const AREAS: Record<ReadyCheck['area'], string> = { mail: 'Email', texts: 'Text messages', site: 'The site' };

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const flags = readFlags(argv, { json: { type: 'boolean' }, 'key-kept': { type: 'boolean' } }, usage, { out, err });
  if ('exitCode' in flags) return flags.exitCode;
  const config = loadConfig();
  const { store } = await openStoreForCli();
  let checks: ReadyCheck[];
  try {
    if (flags.values['key-kept']) {
      const key = config.messaging.secretKey;
      if (!key) throw new CliError('SECRET_KEY is not set here: there is no key to keep yet.');
      await store.owners.audit({
        ownerEmail: 'the command line (sudo scamsavvy ready)',
        action: 'key_kept',
        detail: keptDetail(key),
      });
      if (!flags.values.json) out.write('Noted: SECRET_KEY is kept with the backups (the audit log says so).\n\n');
    }
    checks = await readyChecks(readyFacts(config, store, { seed: true }));
    // The seed's answer kept, so the dashboard and a send's refusal give the same one.
    const seed = checks.find((one) => one.id === 'mail-seed');
    if (config.readySeed && config.messaging.email?.smtpUrl && seed)
      await store.owners.audit({
        ownerEmail: 'the command line (sudo scamsavvy ready)',
        action: 'seed_checked',
        detail: `${seed.level}: ${seed.found}`,
      });
  } finally {
    await store.close();
  }
  const ready = isReady(checks);
  if (flags.values.json) {
    out.write(`${JSON.stringify({ ready, checks }, null, 2)}\n`);
    return ready ? 0 : 1;
  }
  const counts = levelCounts(checks);
  out.write(
    `${ready ? 'Ready for launch' : 'Not ready for launch'}: ${counts.red} red, ${counts.amber} amber, ${counts.green} green.\n`,
  );
  for (const area of Object.keys(AREAS) as ReadyCheck['area'][]) {
    const ofArea = checks.filter((one) => one.area === area);
    if (ofArea.length === 0) continue;
    out.write(`\n${AREAS[area]}\n`);
    for (const one of ofArea) {
      out.write(`  ${one.level.padEnd(6)} ${one.title}: ${one.found}\n`);
      if (one.fix) out.write(`         Fix: ${one.fix}\n`);
    }
  }
  return ready ? 0 : 1;
}

if (isEntryPoint(import.meta.url)) runCli(main);
