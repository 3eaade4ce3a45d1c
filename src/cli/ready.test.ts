// `sudo scamsavvy ready`: the launch checks in the terminal, against a DNS server on loopback: the
// list by area with each fix, exit 1 while anything is red, and --json with the same list.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../server/db/open-database.js';
import { startDnsServer, type DnsServer } from '../server/test/dns-server.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { runCommand } from '../server/test/run-command.js';
import type { ReadyCheck } from '../server/ready/ready-check.js';
import { main } from './ready.js';

let dns: DnsServer;

beforeEach(async () => {
  dns = await startDnsServer({ 'scamsavvy.example': ['v=spf1 include:_spf.mail.example ~all'] });
  const file = tempDatabaseFile();
  const store = await openDatabase({ kind: 'sqlite', file });
  await store.close();
  for (const [name, value] of Object.entries({
    DATABASE_URL: `sqlite:${file}`,
    SITE_URL: 'https://scamsavvy.example',
    SECRET_KEY: 'k'.repeat(40),
    SMTP_URL: 'smtp://127.0.0.1:9',
    MAIL_FROM: 'ScamSavvy <hello@scamsavvy.example>',
    DNS_RESOLVER: dns.address,
  }))
    vi.stubEnv(name, value);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await dns.close();
});

describe('sudo scamsavvy ready', () => {
  it('prints the list by area with each fix and exits 1 while anything is red; --json says the same', async () => {
    // No DMARC record; the page the command reads is the checkout's own build (or none): red either way.
    const red = await runCommand(main, []);
    expect(red.code).toBe(1);
    expect(red.out).toMatch(/^Not ready for launch: \d+ red, \d+ amber, \d+ green\.$/m);
    expect(red.out).toMatch(
      /^Email\n(?:.*\n)*? {2}red {4}DMARC for scamsavvy\.example: no DMARC record at _dmarc\.scamsavvy\.example\n {9}Fix: Publish a TXT record at _dmarc/m,
    );
    const json = await runCommand(main, ['--json']);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.out) as { ready: boolean; checks: ReadyCheck[] };
    expect(parsed.ready).toBe(false);
    expect(parsed.checks.find((one) => one.id === 'mail-dmarc')?.level).toBe('red');
    // The same checks as the list printed: one line each.
    expect(parsed.checks).toHaveLength(red.out.match(/^ {2}(red|amber|green) /gm)?.length ?? 0);
  });

  it('--key-kept says once, for this key, that SECRET_KEY is kept with the backups: the audit log records it, and the check is green', async () => {
    const before = JSON.parse((await runCommand(main, ['--json'])).out) as { checks: ReadyCheck[] };
    expect(before.checks.find((one) => one.id === 'site-secret-key')?.level).toBe('amber');
    const said = await runCommand(main, ['--key-kept']);
    expect(said.out).toMatch(/^Noted: SECRET_KEY is kept with the backups/);
    expect(said.out).toMatch(/^ {2}green {2}SECRET_KEY is kept with the backups: you said so on /m);
    const store = await openDatabase({ kind: 'sqlite', file: process.env.DATABASE_URL!.slice('sqlite:'.length) });
    const [entry] = await store.owners.auditLog(1);
    await store.close();
    expect(entry).toMatchObject({
      action: 'key_kept',
      detail: expect.stringMatching(/^SECRET_KEY [0-9a-f]{16} is kept with the backups$/),
    });
    expect(JSON.stringify(entry)).not.toContain('k'.repeat(40));
  });
});
