// The owner commands, in-process against a temporary SQLite database: add, list, link, remove.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { secretHash } from '../server/secrets.js';
import { openDatabase } from '../server/db/open-database.js';
import { runCommand } from '../server/test/run-command.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { main } from './owners.js';

let file: string;
const run = (...argv: string[]) => runCommand(main, argv);

beforeEach(async () => {
  file = tempDatabaseFile();
  vi.stubEnv('DATABASE_URL', `sqlite:${file}`);
  vi.stubEnv('SITE_URL', 'https://scamsavvy.example');
  // The database the server (or db:migrate) made: no owner command makes one.
  await (await openDatabase({ kind: 'sqlite', file })).close();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('owner commands', () => {
  it('owner:add refuses where there is no database, and makes none: the owner would be added to the wrong one', async () => {
    const missing = path.join(path.dirname(file), 'not-here', 'signups.db');
    vi.stubEnv('DATABASE_URL', `sqlite:${missing}`);
    const answer = await run('add', '--email', 'owner@example.com');
    expect(answer).toEqual({
      code: 1,
      out: '',
      err: `There is no database at the SQLite file ${missing}. Check DATABASE_URL, or start the server once to create it.\n`,
    });
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(path.dirname(missing))).toBe(false);
  });

  it('adds an owner (once, in any capitals), lists them, and removes them', async () => {
    expect(await run('add', '--email', ' Owner@Example.com ')).toEqual({
      code: 0,
      out: 'owner@example.com is an owner now. They sign in at https://scamsavvy.example/owner/sign-in with this address.\n',
      err: '',
    });
    expect((await run('add', '--email', 'owner@example.com')).out).toBe('owner@example.com is already an owner.\n');
    expect((await run('list')).out).toMatch(/^owner@example\.com {2}added \d{4}-\d{2}-\d{2}, never signed in\n$/);
    expect((await run('remove', '--email', 'OWNER@example.com')).code).toBe(0);
    expect(await run('remove', '--email', 'owner@example.com')).toEqual({
      code: 1,
      out: '',
      err: 'owner@example.com is not an owner.\n',
    });
    expect((await run('list')).out).toBe('No owners yet. Add one: sudo scamsavvy owner:add --email you@example.com\n');
  });

  it('without SITE_URL, names the address the server answers at: this computer, on the PORT of the settings', async () => {
    vi.stubEnv('SITE_URL', undefined);
    vi.stubEnv('PORT', '4123');
    expect((await run('add', '--email', 'owner@example.com')).out).toBe(
      'owner@example.com is an owner now. They sign in at http://localhost:4123/owner/sign-in with this address.\n',
    );
    expect((await run('link', '--email', 'owner@example.com')).out).toMatch(/^http:\/\/localhost:4123\/owner\//);
  });

  it('prints a sign-in link that the database knows only by its hash', async () => {
    await run('add', '--email', 'owner@example.com');
    const { code, out } = await run('link', '--email', 'owner@example.com');
    expect(code).toBe(0);
    const token = out.match(/^https:\/\/scamsavvy\.example\/owner\/sign-in\/([A-Za-z0-9_-]{43})\n/)?.[1] ?? '';
    expect(token).not.toBe('');
    const store = await openDatabase({ kind: 'sqlite', file: file }, { migrate: false });
    try {
      expect(await store.owners.linkUsable(secretHash(token))).toBe(true);
      expect(await store.owners.linkUsable(token)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('refuses a link for someone who is not an owner, and an address that is not one', async () => {
    await run('add', '--email', 'owner@example.com');
    expect(await run('link', '--email', 'stranger@example.com')).toEqual({
      code: 1,
      out: '',
      err: 'stranger@example.com is not an owner. Add them first: sudo scamsavvy owner:add --email stranger@example.com\n',
    });
    expect((await run('add', '--email', 'not an address')).err).toBe(
      '--email must be an email address, not "not an address".\n',
    );
    expect((await run('add')).code).toBe(1);
    expect((await run('promote', '--email', 'owner@example.com')).code).toBe(2);
  });
});
