// Backups and restores on both engines: a copy holds what the database held and passes its check; a
// restore refuses what it must and brings back people, consent history and suppressions; an older
// release's database comes back migrated; the folder keeps exactly BACKUP_KEEP.
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { openDatabase } from '../db/open-database.js';
import { readLiveDatabase } from '../db/database-inspection.js';
import { BackupError } from '../db/database-errors.js';
import { createReleasePostgres, createReleaseSqlite, ROSA } from '../db/test-fixtures/release-database.js';
import { ann, rosa } from '../test/people.js';
import { suiteName, wholeDatabaseEngines } from '../test/store-engines.js';
import { readBackup } from './backup-contents.js';
import { sqliteMigrations } from '../db/sqlite-migrations.js';
import { backupFileName, listBackups, SAFETY_COPY_PREFIX, STALE_PARTIAL_MS } from './backup-files.js';
import { makeBackup, PARTIAL_PREFIX } from './make-backup.js';
import { restoreBackup } from './restore-backup.js';
import { createBackupSchedule, nextBackupAt, runBackup, RETRY_AFTER_FAILURE_MS } from './backup-schedule.js';
import type { BackupRun } from '../db/backup-runs-repository.js';
import { migrateSqlite } from '../db/migrate.js';
import { openSqlite } from '../db/sqlite-shared.js';
import { checkBackupFile, checkLiveDatabase } from './database-check.js';
import { testClock } from '../test/clock.js';

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-backups-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Two people and a repeat sign-up, through the same writer the API uses. */
async function fill(database: DatabaseConfig): Promise<void> {
  const store = await openDatabase(database);
  try {
    await store.signups.add(rosa);
    await store.signups.add(ann);
    await store.signups.add({ ...rosa, betaTesting: false });
  } finally {
    await store.close();
  }
}

/** Every table's rows, without the backup record (a restore brings the copy's, not today's). */
async function tables(database: DatabaseConfig) {
  return (await readLiveDatabase(database)).tables.filter((table) => table.table !== 'backup_runs');
}

async function signupRows(database: DatabaseConfig) {
  const store = await openDatabase(database, { migrate: false });
  try {
    const rows = [];
    for await (const row of store.signups.list()) rows.push(row);
    return rows;
  } finally {
    await store.close();
  }
}

for (const engine of wholeDatabaseEngines) {
  describe.skipIf(!engine.available)(suiteName('backups and restores', engine), () => {
    const extension = engine.name === 'sqlite' ? 'sqlite' : 'pgdump';

    it('a backup holds every table as it was, passes its check, and restores into an empty database that then takes sign-ups', async () => {
      const live = await engine.database();
      await fill(live);
      const file = path.join(tempDir(), `copy.${extension}`);
      const made = await makeBackup(live, file);
      expect(made.file).toBe(file);
      expect(made.contents.kind).toBe(engine.name);
      expect(made.contents.people).toBe(2);
      expect(made.contents.schemaVersion).toBe(sqliteMigrations.length);
      expect(made.contents.tables).toEqual(
        await tables(live).then((rows) =>
          [...rows, { table: 'backup_runs', rows: 0 }].sort((a, b) => a.table.localeCompare(b.table)),
        ),
      );
      // Readable by its owner only.
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readdirSync(path.dirname(file))).toEqual([`copy.${extension}`]);

      const empty = await engine.database();
      const restored = await restoreBackup(empty, file, { replace: false, safetyCopy: path.join(tempDir(), 'unused') });
      expect(restored.safety).toBeUndefined();
      // Into an empty database: what came after the backup is unknown, and marked so (decision 041).
      expect(restored.carried).toBeUndefined();
      const marked = (rows: Awaited<ReturnType<typeof tables>>) =>
        rows.map((row) => (row.table === 'restore_marks' ? { ...row, rows: row.rows + 1 } : row));
      expect(await tables(empty)).toEqual(marked(await tables(live)));
      expect(await signupRows(empty)).toEqual(await signupRows(live));

      const store = await openDatabase(empty);
      try {
        await store.signups.add({ ...ann, email: 'new@example.com' });
        expect(await store.signups.count()).toBe(3);
      } finally {
        await store.close();
      }
    });

    it("an older release's database, backed up, comes back migrated with its people, consent history and suppressions", async () => {
      const old = await engine.database();
      if (old.kind === 'sqlite') createReleaseSqlite(old.file);
      else await createReleasePostgres(old.url);
      const file = path.join(tempDir(), `old.${extension}`);
      const made = await makeBackup(old, file);
      expect(made.contents.schemaVersion).toBeLessThan(14);

      const target = await engine.database();
      await restoreBackup(target, file, { replace: false, safetyCopy: path.join(tempDir(), 'unused') });
      const after = await readLiveDatabase(target);
      expect(after.recorded?.map((row) => row.version)).toEqual(sqliteMigrations.map((migration) => migration.version));
      const rows = (name: string) => after.tables.find((table) => table.table === name)?.rows;
      const before = made.contents.tables;
      // Each table's rows, under its name of today (migration 23 renamed the broadcasts' outbox).
      const named = { outbox: 'broadcast_messages' } as Record<string, string>;
      for (const name of ['signups', 'consent_events', 'suppressions', 'broadcasts', 'outbox', 'owners'])
        expect(rows(name), name).toBe(before.find((table) => table.table === (named[name] ?? name))?.rows);
      expect(rows('outbox')).toBe(3);
      expect(rows('suppressions')).toBe(1);
      expect((await signupRows(target)).map((row) => row.id)).toContain(ROSA);
    });

    it('every backup a release left in test-fixtures/ restores in this one, migrated, with its people, consent and suppressions', async () => {
      const fixtures = path.join(import.meta.dirname, 'test-fixtures');
      const made = readdirSync(fixtures).filter((name) => name.endsWith(`.${extension}`));
      expect(made.length).toBeGreaterThan(0);
      for (const name of made) {
        const target = await engine.database();
        const restored = await restoreBackup(target, path.join(fixtures, name), {
          replace: false,
          safetyCopy: path.join(tempDir(), 'unused'),
        });
        const after = await readLiveDatabase(target);
        expect(after.recorded?.length, name).toBe(sqliteMigrations.length);
        const rows = (table: string) => after.tables.find((entry) => entry.table === table)?.rows;
        expect(restored.contents.people, name).toBe(2);
        expect([rows('signups'), rows('consent_events'), rows('suppressions'), rows('owners')], name).toEqual([
          2, 4, 1, 1,
        ]);
        expect((await signupRows(target)).map((row) => row.email).sort(), name).toEqual([
          'Rosa@Example.com',
          'bob@example.com',
        ]);
      }
    });

    it('refuses a database that holds people without --replace; with it, backs up what is there first', async () => {
      const source = await engine.database();
      await fill(source);
      const file = path.join(tempDir(), `copy.${extension}`);
      await makeBackup(source, file);

      const target = await engine.database();
      const store = await openDatabase(target);
      await store.signups.add({ ...ann, email: 'only-here@example.com' });
      await store.close();
      const safetyCopy = path.join(tempDir(), `before.${extension}`);
      const refused = await restoreBackup(target, file, { replace: false, safetyCopy }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(BackupError);
      expect((refused as Error).message).toMatch(/is not empty \(\d+ rows, 1 person\).*--replace/);
      expect(existsSync(safetyCopy)).toBe(false);
      expect((await signupRows(target)).map((row) => row.email)).toEqual(['only-here@example.com']);

      const replaced = await restoreBackup(target, file, { replace: true, safetyCopy });
      expect(replaced.safety?.file).toBe(safetyCopy);
      expect((await readBackup(safetyCopy)).people).toBe(1);
      expect((await signupRows(target)).map((row) => row.email).sort()).toEqual([ann.email, rosa.email]);
    });

    it('refuses a truncated copy, a file that is not a backup, and a backup of the other engine, and changes nothing', async () => {
      const source = await engine.database();
      await fill(source);
      const dir = tempDir();
      const file = path.join(dir, `copy.${extension}`);
      await makeBackup(source, file);
      const cut = path.join(dir, `cut.${extension}`);
      writeFileSync(cut, readFileSync(file).subarray(0, Math.floor(statSync(file).size / 2)));
      const notOurs = path.join(dir, 'notes.txt');
      writeFileSync(notOurs, 'Call the bank back on Monday.\n');

      const target = await engine.database();
      const options = { replace: true, safetyCopy: path.join(dir, 'unused') };
      await expect(restoreBackup(target, cut, options)).rejects.toThrow(
        /fails its check \(it is damaged or was cut short\)/,
      );
      await expect(restoreBackup(target, notOurs, options)).rejects.toThrow(/is not a backup of this product/);
      const other: DatabaseConfig =
        engine.name === 'sqlite'
          ? { kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none', poolSize: 1 }
          : { kind: 'sqlite', file: path.join(dir, 'x.db') };
      await expect(restoreBackup(other, file, options)).rejects.toThrow(/backup, and DATABASE_URL names/);
      expect((await readLiveDatabase(target)).tables.reduce((sum, table) => sum + table.rows, 0)).toBe(0);
      expect(existsSync(path.join(dir, 'unused'))).toBe(false);
    });
  });
}

describe('a database set up by a later release', () => {
  it('is refused by a restore, and db:check says so of it and of its backup', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'later.db');
    const db = openSqlite(file);
    await migrateSqlite(db, [...sqliteMigrations, { version: 99, name: 'from-a-later-release', up: () => undefined }]);
    db.close();
    const later: DatabaseConfig = { kind: 'sqlite', file };
    const copy = path.join(dir, 'later.sqlite');
    const made = await makeBackup(later, copy);
    expect(made.contents).toMatchObject({ schemaVersion: 99, newerThanThisRelease: true });

    const target = await wholeDatabaseEngines[0]!.database();
    await expect(restoreBackup(target, copy, { replace: false, safetyCopy: path.join(dir, 'unused') })).rejects.toThrow(
      `${copy} was made by a later release of this product (its schema is at migration 99)`,
    );
    expect((await readLiveDatabase(target)).exists).toBe(false);

    const newest = sqliteMigrations.length;
    expect(await checkBackupFile(copy)).toMatchObject({
      ok: false,
      said: [
        expect.stringContaining(
          `made by a later release (its schema is at migration 99; this release knows up to ${newest})`,
        ),
      ],
    });
    expect(await checkLiveDatabase(later, 'the later file')).toMatchObject({
      ok: false,
      said: [
        `Problem: the later file was set up by a later release (its schema is at migration 99; this release knows up to ${newest}). Run that release, or a newer one.`,
      ],
    });
  });
});

describe('the backup folder', () => {
  const database = async (): Promise<DatabaseConfig> => {
    const config = await wholeDatabaseEngines[0]!.database();
    await fill(config);
    return config;
  };

  it('keeps exactly BACKUP_KEEP backups, newest first, and touches nothing else in the folder', async () => {
    const live = await database();
    const dir = tempDir();
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    const records: BackupRun[] = [];
    let clock = Date.parse('2026-11-20T03:00:00Z');
    for (let day = 0; day < 5; day++) {
      clock += 86_400_000;
      const at = new Date(clock);
      const run = await runBackup({
        database: live,
        dir,
        keep: 3,
        runs: { record: async (r) => void records.push(r) },
        trigger: 'schedule',
        now: () => at,
      });
      expect(run.outcome, run.detail ?? '').toBe('ok');
    }
    expect(records).toHaveLength(5);
    expect(await listBackups(dir)).toEqual([
      backupFileName('sqlite', new Date('2026-11-25T03:00:00Z')),
      backupFileName('sqlite', new Date('2026-11-24T03:00:00Z')),
      backupFileName('sqlite', new Date('2026-11-23T03:00:00Z')),
    ]);
    expect(readdirSync(dir)).toContain('notes.txt');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  // Issue 54, path 11: a restore's safety copy holds everyone then on the list, deleted people too.
  it("lets a restore's safety copy go with the backups of its time, so no copy outlives the privacy notice's days", async () => {
    const live = await database();
    const dir = tempDir();
    const copy = (at: string) => `${SAFETY_COPY_PREFIX}${backupFileName('sqlite', new Date(at))}`;
    writeFileSync(path.join(dir, copy('2026-11-21T12:00:00Z')), 'before a restore');
    writeFileSync(path.join(dir, copy('2026-11-23T12:00:00Z')), 'before a later restore');
    let clock = Date.parse('2026-11-20T03:00:00Z');
    const present = () => readdirSync(dir).filter((name) => name.startsWith(SAFETY_COPY_PREFIX));
    for (let day = 0; day < 5; day++) {
      clock += 86_400_000;
      const at = new Date(clock);
      await runBackup({
        database: live,
        dir,
        keep: 3,
        runs: { record: async () => undefined },
        trigger: 'schedule',
        now: () => at,
      });
      // While fewer than three backups are newer than a copy, it stays: the backups of its time are kept too.
      if (day === 2) expect(present().sort()).toEqual([copy('2026-11-21T12:00:00Z'), copy('2026-11-23T12:00:00Z')]);
    }
    // Kept: the backups of 11-23, 11-24 and 11-25; the copy of 11-21 went as that day's backup did.
    expect(present()).toEqual([copy('2026-11-23T12:00:00Z')]);
  });

  it('removes a half-written copy nobody writes any more, and leaves a fresh one', async () => {
    const live = await database();
    const dir = tempDir();
    const stale = path.join(dir, `${PARTIAL_PREFIX}aaaa-scamsavvy-2026-11-20T03-00-00Z.sqlite`);
    const fresh = path.join(dir, `${PARTIAL_PREFIX}bbbb-scamsavvy-2026-11-21T03-00-00Z.sqlite`);
    writeFileSync(stale, 'half');
    writeFileSync(fresh, 'half');
    // Each file's time set by the test, on the run's clock (the file system's own may be elsewhere).
    const now = testClock()();
    const old = new Date(now.getTime() - STALE_PARTIAL_MS - 60_000);
    utimesSync(stale, old, old);
    utimesSync(fresh, now, now);
    await runBackup({
      database: live,
      dir,
      runs: { record: async () => undefined },
      trigger: 'schedule',
      now: () => now,
    });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(await listBackups(dir)).toHaveLength(1);
  });

  it("hands each backup to BACKUP_COMMAND with its path, and records the command's failure with what it said", async () => {
    const live = await database();
    const dir = tempDir();
    const offsite = tempDir();
    const records: BackupRun[] = [];
    const runs = { record: async (run: BackupRun) => void records.push(run) };
    const clock = testClock();
    const copied = await runBackup({
      database: live,
      dir,
      runs,
      trigger: 'schedule',
      command: `cp {file} ${offsite}/`,
      now: clock,
    });
    expect(copied.copyOutcome).toBe('ok');
    expect(readdirSync(offsite)).toEqual([path.basename(copied.file ?? '')]);

    clock.advance(5000);
    const failed = await runBackup({
      database: live,
      dir,
      runs,
      trigger: 'schedule',
      command: 'echo "bucket not found" >&2; exit 3; true',
      now: clock,
    });
    expect(failed.outcome).toBe('ok');
    expect(failed.copyOutcome).toBe('failed');
    expect(failed.copyDetail).toBe('BACKUP_COMMAND failed with exit code 3: bucket not found');
    expect(records.map((run) => run.copyOutcome)).toEqual(['ok', 'failed']);
  });

  it('BACKUP_COMMAND gets only PATH, HOME, BACKUP_FILE and BACKUP_COMMAND_ENV, and what it says is cut and scrubbed', async () => {
    vi.stubEnv('SECRET_KEY', 'the-secret-key-nobody-may-see-1234567890');
    vi.stubEnv('TWILIO_AUTH_TOKEN', 'twilio-token-abcdefabcdef');
    vi.stubEnv('RCLONE_CONFIG_PASS', 'rclone-pass-987654');
    const seen = path.join(tempDir(), 'env.txt');
    const run = await runBackup({
      database: await database(),
      dir: tempDir(),
      runs: { record: async () => undefined },
      trigger: 'schedule',
      command: `env > ${seen}; echo "auth failed for $RCLONE_CONFIG_PASS password=hunter22 https://me:pw@host/x $SECRET_KEY ${'x'.repeat(400)}" >&2; exit 5`,
      commandEnv: ['RCLONE_CONFIG_PASS'],
    });
    vi.unstubAllEnvs();
    const names = readFileSync(seen, 'utf8')
      .split('\n')
      .map((line) => line.split('=')[0])
      .filter((name) => name && !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(name));
    expect(names.sort()).toEqual(['BACKUP_FILE', 'HOME', 'PATH', 'RCLONE_CONFIG_PASS'].sort());
    expect(run.copyOutcome).toBe('failed');
    expect(run.copyDetail).toMatch(/^BACKUP_COMMAND failed with exit code 5: /);
    expect(run.copyDetail).not.toMatch(/rclone-pass-987654|hunter22|:pw@|the-secret-key|xxxxxxxxxx/);
    expect(run.copyDetail).toContain('auth failed for [hidden] password=[hidden]');
    expect((run.copyDetail ?? '').length).toBeLessThan(400);
  });

  it('records a backup that could not be made, with why, and throws nothing', async () => {
    const dir = tempDir();
    const notAFolder = path.join(dir, 'file');
    writeFileSync(notAFolder, '');
    const records: BackupRun[] = [];
    const run = await runBackup({
      database: await database(),
      dir: notAFolder,
      runs: { record: async (r) => void records.push(r) },
      trigger: 'schedule',
    });
    expect(run.outcome).toBe('failed');
    expect(run.detail).toMatch(/EEXIST|ENOTDIR|not a directory/);
    expect(records).toEqual([run]);

    const missing = await runBackup({
      database: { kind: 'sqlite', file: path.join(dir, 'gone.db') },
      dir: path.join(dir, 'backups'),
      runs: { record: async () => undefined },
      trigger: 'schedule',
    });
    expect(missing.detail).toBe(`There is no database at ${path.join(dir, 'gone.db')}.`);
    expect(readdirSync(path.join(dir, 'backups'))).toEqual([]);
  });

  it('the next backup is due at once without one, the interval after a good one, within the hour after a failure', () => {
    const day = 86_400_000;
    const at = '2026-11-26T03:00:00.000Z';
    const run = (outcome: 'ok' | 'failed') => ({ startedAt: at, outcome }) as BackupRun;
    expect(nextBackupAt(undefined, day)).toBe(0);
    expect(nextBackupAt(run('ok'), day)).toBe(Date.parse(at) + day);
    expect(nextBackupAt(run('failed'), day)).toBe(Date.parse(at) + RETRY_AFTER_FAILURE_MS);
    expect(nextBackupAt(run('failed'), 60_000)).toBe(Date.parse(at) + 60_000);
  });

  it('with the database away, a failed backup is not tried again at once: the schedule waits, and says why', async () => {
    const dir = tempDir();
    const errors: string[] = [];
    const schedule = createBackupSchedule({
      config: { dir: path.join(dir, 'backups'), everyHours: 24, keep: 14 },
      database: { kind: 'sqlite', file: path.join(dir, 'gone.db') },
      // Neither the record nor its reading works: the database is away.
      runs: { record: () => Promise.reject(new Error('away')), status: () => Promise.reject(new Error('away')) },
      log: { info: () => undefined, error: (details) => void errors.push(JSON.stringify(details)) },
    });
    // The job's failure, with the reason, on record (the runner backs it off).
    await expect(schedule.runIfDue()).rejects.toThrow(/^the backup failed: There is no database at/);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('There is no database at');
    // Asked again at once (the runner's first retry): not due for an hour, nothing tried, nothing said.
    expect(await schedule.runIfDue()).toMatch(/^the next is due at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(errors).toHaveLength(1);
    expect(schedule.checkEveryMs).toBe(5 * 60_000);
  });

  it("makes a backup at once when only the owner's own db:backup was made, and records it for the dashboard", async () => {
    const live = await database();
    const dir = tempDir();
    const store = await openDatabase(live);
    // The owner's own backup, to somewhere else, a moment ago.
    const clock = testClock();
    await store.backupRuns.record({
      ...({ outcome: 'ok', trigger: 'command', file: '/tmp/elsewhere.sqlite', bytes: 1, people: 2 } as const),
      startedAt: clock().toISOString(),
      finishedAt: clock().toISOString(),
      detail: null,
      copyOutcome: null,
      copyDetail: null,
    });
    const schedule = createBackupSchedule({
      config: { dir: path.join(dir, 'backups'), everyHours: 24, keep: 14 },
      database: live,
      runs: store.backupRuns,
      log: { info: () => undefined, error: () => undefined },
      now: clock,
    });
    try {
      expect(await schedule.runIfDue()).toMatch(/^made scamsavvy-.*\.sqlite$/);
      expect((await store.backupRuns.status('schedule')).last?.outcome).toBe('ok');
      expect(await listBackups(path.join(dir, 'backups'))).toHaveLength(1);
      expect((await store.backupRuns.status()).last?.trigger).toBe('schedule');
      // Made: the next is a day away, and asking again makes none.
      expect(await schedule.runIfDue()).toMatch(/^the next is due at /);
      expect(await listBackups(path.join(dir, 'backups'))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('refuses to write over a file that is there, and into a folder that is not', async () => {
    const live = await database();
    const dir = tempDir();
    const file = path.join(dir, 'taken.sqlite');
    writeFileSync(file, 'mine');
    await expect(makeBackup(live, file)).rejects.toThrow(`${file} already exists`);
    expect(readFileSync(file, 'utf8')).toBe('mine');
    await expect(makeBackup(live, path.join(dir, 'nowhere', 'x.sqlite'))).rejects.toThrow('There is no folder');
  });
});
