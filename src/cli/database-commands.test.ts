// db:backup, db:check and db:restore as the owner runs them: what each says, and its exit code.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../server/db/open-database.js';
import { createReleaseSqlite } from '../server/db/test-fixtures/release-database.js';
import { rosa } from '../server/test/people.js';
import { runCommand } from '../server/test/run-command.js';
import { sqliteMigrations } from '../server/db/sqlite-migrations.js';
import { main as backup } from './backup-database.js';
import { main as check } from './check-database.js';
import { main as restore } from './restore-database.js';

let dir: string;
let live: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-db-commands-'));
  live = path.join(dir, 'signups.db');
  vi.stubEnv('DATABASE_URL', `sqlite:${live}`);
  vi.stubEnv('BACKUP_DIR', '');
  const store = await openDatabase({ kind: 'sqlite', file: live });
  await store.signups.add(rosa);
  await store.close();
  return () => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  };
});

describe('sudo scamsavvy db:backup', () => {
  it('copies, checks and says what the copy holds; the dashboard has the run', async () => {
    const out = path.join(dir, 'copy.sqlite');
    const result = await runCommand(backup, ['--out', out]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(`Backed up the SQLite file ${live} to ${out} (`);
    expect(result.out).toContain(
      `Checked: it is whole, it is this product's, and its schema is at migration ${sqliteMigrations.length}.`,
    );
    expect(result.out).toContain('It holds 1 person:');
    expect(result.out).toMatch(/^ {2}signups +1$/m);
    const store = await openDatabase({ kind: 'sqlite', file: live }, { migrate: false });
    const { last } = await store.backupRuns.status();
    await store.close();
    expect(last).toMatchObject({ outcome: 'ok', trigger: 'command', file: out, people: 1 });
  });

  it('into a folder (or BACKUP_DIR), names the copy by the time; without either, says what to give', async () => {
    const folder = path.join(dir, 'backups');
    vi.stubEnv('BACKUP_DIR', folder);
    const result = await runCommand(backup, []);
    expect(result.code, result.err).toBe(0);
    expect(readdirSync(folder)).toEqual([expect.stringMatching(/^scamsavvy-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.sqlite$/)]);

    vi.stubEnv('BACKUP_DIR', '');
    const refused = await runCommand(backup, []);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('Say where the copy goes with --out FILE (or set BACKUP_DIR).');
  });

  it('makes nothing over a file that is there, says why, and records the failure', async () => {
    const taken = path.join(dir, 'taken.sqlite');
    writeFileSync(taken, 'mine');
    const result = await runCommand(backup, ['--out', taken]);
    expect(result.code).toBe(1);
    expect(result.err).toBe(`No backup was made. ${taken} already exists: choose another name, or remove it first.\n`);
    expect(readFileSync(taken, 'utf8')).toBe('mine');
  });
});

describe('a file the owner names', () => {
  it('is where they were when they ran it (npm run says so in INIT_CWD), not the project folder', async () => {
    const where = path.join(dir, 'where-i-was');
    mkdirSync(where);
    vi.stubEnv('INIT_CWD', where);
    const result = await runCommand(backup, ['--out', 'mine.sqlite']);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(`to ${path.join(where, 'mine.sqlite')} (`);
    const checked = await runCommand(check, ['--file', 'mine.sqlite']);
    expect(checked.code, checked.err).toBe(0);
  });

  it('that cannot be written or read is named, with why and what to do: never a stack trace', async () => {
    const missingFolder = path.join(dir, 'no-such-folder', 'copy.sqlite');
    const noFolder = await runCommand(backup, ['--out', missingFolder]);
    expect(noFolder).toEqual({
      code: 1,
      out: '',
      err: `No backup was made. Could not write ${missingFolder}: the folder ${path.dirname(missingFolder)} does not exist. Create it, or name a file in a folder that does.\n`,
    });
    const aFile = path.join(dir, 'a-file');
    writeFileSync(aFile, 'x');
    const underFile = await runCommand(backup, ['--out', path.join(aFile, 'copy.sqlite')]);
    expect(underFile.err).toBe(
      `No backup was made. Could not write ${path.join(aFile, 'copy.sqlite')}: part of the path is a file, not a folder. Check the path.\n`,
    );
    const gone = path.join(dir, 'gone.sqlite');
    const restoring = await runCommand(restore, ['--from', gone]);
    expect([restoring.code, restoring.err]).toEqual([
      1,
      `The restore did not happen. Could not read ${gone}: there is no such file. Check the name and the folder.\n`,
    ]);
    const checking = await runCommand(check, ['--file', gone]);
    expect([checking.code, checking.err]).toEqual([
      1,
      `Problem: Could not read ${gone}: there is no such file. Check the name and the folder.\n`,
    ]);
  });
});

describe('sudo scamsavvy db:check', () => {
  it('says all is well of a whole, current database (exit 0)', async () => {
    const result = await runCommand(check, []);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(
      `All is well: the SQLite file ${live} is whole (integrity_check: ok), and its schema is up to date (migration ${sqliteMigrations.length}).`,
    );
  });

  it("says what to do with an older release's database (exit 1)", async () => {
    const old = path.join(dir, 'old.db');
    createReleaseSqlite(old);
    vi.stubEnv('DATABASE_URL', `sqlite:${old}`);
    const result = await runCommand(check, []);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      new RegExp(
        `^To do: the SQLite file .*old\\.db needs \\d+ migrations this release has \\(.*${sqliteMigrations.at(-1)!.version} ${sqliteMigrations.at(-1)!.name}\\)\\. The server runs them when it starts; sudo scamsavvy db:migrate runs them now\\.`,
      ),
    );
  });

  it('checks a backup file as a restore would: a good one passes, a cut one fails (exit 1)', async () => {
    const out = path.join(dir, 'copy.sqlite');
    await runCommand(backup, ['--out', out]);
    const good = await runCommand(check, ['--file', out]);
    expect(good.code, good.err).toBe(0);
    expect(good.out).toContain(
      `All is well: ${out} is an SQLite backup of this product, whole, with its schema at migration ${sqliteMigrations.length}.`,
    );
    const cut = path.join(dir, 'cut.sqlite');
    writeFileSync(cut, readFileSync(out).subarray(0, 8192));
    const bad = await runCommand(check, ['--file', cut]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^Problem: .*cut\.sqlite fails its check \(it is damaged or was cut short\)/);
  });
});

describe('sudo scamsavvy db:restore', () => {
  it('refuses the live database without --replace; with it, keeps a copy of what was there and says where', async () => {
    const out = path.join(dir, 'copy.sqlite');
    await runCommand(backup, ['--out', out]);
    const refused = await runCommand(restore, ['--from', out]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /^The restore did not happen\. The database DATABASE_URL names is not empty \(\d+ rows, 1 person\)/,
    );

    const replaced = await runCommand(restore, ['--from', out, '--replace']);
    expect(replaced.code, replaced.err).toBe(0);
    expect(replaced.out).toMatch(
      /^What the SQLite file .* held before is backed up in .*before-restore-scamsavvy-.*\.sqlite \(\d+ kB, 1 person\)\./,
    );
    expect(replaced.out).toContain(
      `Restored ${out} into the SQLite file ${live}; its schema is up to date for this release.`,
    );
  });

  it('restores into a database that is not there yet, its folder made as on a first start, and says what it now holds', async () => {
    const out = path.join(dir, 'copy.sqlite');
    await runCommand(backup, ['--out', out]);
    const fresh = path.join(dir, 'new-machine', 'data', 'signups.db');
    vi.stubEnv('DATABASE_URL', `sqlite:${fresh}`);
    const result = await runCommand(restore, ['--from', out]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain('It holds 1 person:');
    expect(await runCommand(check, [])).toMatchObject({ code: 0 });
  });

  it('sets a database too damaged to read aside with --replace, keeping it, and restores into its place', async () => {
    const out = path.join(dir, 'copy.sqlite');
    await runCommand(backup, ['--out', out]);
    // Everything after the first page overwritten, and the write-ahead log gone: the tables cannot
    // be read, nor copied.
    rmSync(`${live}-wal`, { force: true });
    rmSync(`${live}-shm`, { force: true });
    const bytes = readFileSync(live);
    bytes.fill(0xff, 4096);
    writeFileSync(live, bytes);

    const refused = await runCommand(restore, ['--from', out]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('cannot be read');
    expect(refused.err).toContain(
      'Add --replace to set it aside (renamed, kept beside it) and restore into its place.',
    );

    const replaced = await runCommand(restore, ['--from', out, '--replace']);
    expect(replaced.code, replaced.err).toBe(0);
    const aside = /set aside, kept as it was, in (\S+)\./.exec(replaced.out)?.[1] ?? '';
    expect(aside).toMatch(/signups\.db\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    expect(readFileSync(aside)).toEqual(bytes);
    expect(replaced.out).toContain('It holds 1 person:');
    expect(await runCommand(check, [])).toMatchObject({ code: 0 });
  });

  it('without --from, says what to give (exit 2)', async () => {
    const result = await runCommand(restore, []);
    expect(result.code).toBe(2);
    expect(result.err).toContain('Say which backup to restore with --from FILE.');
  });
});
