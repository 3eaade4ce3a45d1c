// `api-keys create|list|revoke` in-process against a temporary SQLite database: a key is printed once
// and kept only as its hash, a live name is one key, the audit log names the command line.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { secretHash } from '../server/secrets.js';
import { openDatabase } from '../server/db/open-database.js';
import { runCommand } from '../server/test/run-command.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { COMMAND_LINE, main } from './api-keys.js';
import { rawSql } from '../server/test/raw-sql.js';

let file: string;
const run = (...argv: string[]) => runCommand(main, argv);

beforeEach(async () => {
  file = tempDatabaseFile();
  vi.stubEnv('DATABASE_URL', `sqlite:${file}`);
  vi.stubEnv('SITE_URL', 'https://scamsavvy.example');
  await (await openDatabase({ kind: 'sqlite', file })).close();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('api-keys commands', () => {
  it('makes a key shown once and kept as its hash, lists it, and revokes it', async () => {
    const made = await run('create', '--name', 'Zapier', '--scope', 'read');
    expect(made.code).toBe(0);
    const key = /^(ssk_[A-Za-z0-9_]{43})\n/.exec(made.out)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(made.out).toContain('It is shown only now');
    expect(made.out).toContain(
      `curl -H "Authorization: Bearer ${key}" https://scamsavvy.example/api/v1/signups?limit=1`,
    );
    const store = await openDatabase({ kind: 'sqlite', file }, { migrate: false });
    try {
      const rows = await rawSql({ kind: 'sqlite', file }, 'SELECT key_hash FROM api_keys');
      expect(rows).toEqual([{ key_hash: secretHash(key) }]);
      expect(JSON.stringify(await rawSql({ kind: 'sqlite', file }, 'SELECT * FROM api_keys'))).not.toContain(key);
      const log = await store.owners.auditLog(5);
      expect(log[0]).toMatchObject({ ownerEmail: COMMAND_LINE, action: 'api_key_made', subject: 'Zapier' });
      expect(JSON.stringify(log)).not.toContain(key);
    } finally {
      await store.close();
    }
    expect((await run('create', '--name', 'Zapier', '--scope', 'write')).err).toBe(
      'A key named "Zapier" already exists. Revoke it first, or choose another name.\n',
    );
    expect((await run('list')).out).toMatch(
      /^Zapier {2}read, ending in .{4}, made \d{4}-\d{2}-\d{2} by the command line .*, never used\n$/,
    );
    expect(await run('revoke', '--name', 'Zapier')).toEqual({
      code: 0,
      out: 'The key "Zapier" no longer works.\n',
      err: '',
    });
    expect((await run('list')).out).toContain(', REVOKED ');
    expect((await run('revoke', '--name', 'Zapier')).code).toBe(1);
    // The name is free again once its key is revoked.
    expect((await run('create', '--name', 'Zapier', '--scope', 'write')).code).toBe(0);
  });

  it('says what is wrong with a name or a scope', async () => {
    expect((await run('create', '--name', 'Zapier')).err).toContain('The scope is one of: read, write');
    expect((await run('create', '--name', 'Zapier', '--scope', 'admin')).code).toBe(1);
    expect((await run('create', '--name', '<script>', '--scope', 'read')).err).toContain('A name is 1 to 60');
    expect((await run('create', '--scope', 'read')).err).toContain('--name is required.');
    expect((await run('list')).out).toBe(
      'No API keys yet. Make one: sudo scamsavvy api-keys create --name Zapier --scope read\n',
    );
    expect((await run('rotate')).code).toBe(2);
  });
});
