// signups:export as the owner runs it (issue 55): CSV when no format is said, and a --help whose
// columns are the ones the export writes, from the one list.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../server/db/open-database.js';
import { exportColumns, standingColumns } from '../server/signups/signup-export.js';
import { rosa } from '../server/test/people.js';
import { runCommand } from '../server/test/run-command.js';
import { main as exportSignups } from './export-signups.js';

let dir: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-export-'));
  vi.stubEnv('DATABASE_URL', `sqlite:${path.join(dir, 'signups.db')}`);
  vi.stubEnv('SECRET_KEY', '');
  const store = await openDatabase({ kind: 'sqlite', file: path.join(dir, 'signups.db') });
  await store.signups.add(rosa);
  await store.close();
  return () => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  };
});

describe('sudo scamsavvy signups:export', () => {
  it('writes CSV when no format is said, with every column the export has', async () => {
    const out = path.join(dir, 'list.csv');
    const result = await runCommand(exportSignups, ['--out', out]);
    expect(result.code, result.err).toBe(0);
    expect(result.err).toContain(`Exported 1 sign-up to ${out}.`);
    const [header, row] = readFileSync(out, 'utf8').split('\r\n');
    expect(header).toBe([...exportColumns, ...standingColumns].join(','));
    expect(row).toContain(rosa.email);
  });

  it('writes JSON when asked, and refuses a format it does not know with what it takes', async () => {
    const out = path.join(dir, 'list.json');
    expect((await runCommand(exportSignups, ['--format', 'json', '--out', out])).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual([expect.objectContaining({ email: rosa.email })]);
    const refused = await runCommand(exportSignups, ['--format', 'xlsx']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--format must be csv or json.');
  });

  it('names in --help every column it writes, in order, from the one list', async () => {
    const help = await runCommand(exportSignups, ['--help']);
    expect(help.code).toBe(0);
    const text = help.out.replace(/\s+/g, ' ');
    expect(text).toContain([...exportColumns, ...standingColumns].join(', '));
    expect(text).toContain('[--format csv|json]');
  });
});

describe('the README', () => {
  it('names every column the export writes', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Getting the sign-ups out'));
    const named = section.slice(0, section.indexOf('\n## '));
    const missing = [...exportColumns, ...standingColumns].filter((column) => !named.includes(`\`${column}\``));
    expect(missing).toEqual([]);
  });
});
