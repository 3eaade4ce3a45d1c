// The migration runner: the same numbers on both engines, and databases from the current release
// (ea7849e, where PostgreSQL numbered its migrations differently) upgrading without loss.
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { storeEngines, tempPostgresUrl, testDatabaseUrl } from '../test/store-engines.js';
import { tempDatabaseFile } from '../test/temp-database.js';
import { isSchemaCurrent, migratePostgres, migrateSqlite, renumbering } from './migrate.js';
import { openDatabase } from './open-database.js';
import { postgresMigrations } from './postgres-migrations.js';
import { NotMigratedError } from './database-errors.js';
import type { Db } from './open-database.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import {
  BOB,
  BROADCAST,
  createReleasePostgres,
  createReleaseSqlite,
  OWNER,
  ROSA,
} from './test-fixtures/release-database.js';
import { digest, RELEASE_DIGESTS, RELEASE_SQLITE_LAST, sqliteSchema } from './test-fixtures/release-migrate.js';

const unified = sqliteMigrations.map(({ version, name }) => ({ version, name }));

interface RecordedRow {
  version: number;
  name: string;
  appliedAt: string;
}

/** schema_migrations as it is on disk, read around the code under test. */
async function recorded(database: DatabaseConfig): Promise<RecordedRow[]> {
  const query = 'SELECT version, name, applied_at AS "appliedAt" FROM schema_migrations ORDER BY version';
  if (database.kind === 'sqlite') {
    const db = new Database(database.file, { readonly: true });
    try {
      return db.prepare(query).all() as RecordedRow[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    const { rows } = await client.query<{ version: number; name: string; appliedAt: Date }>(query);
    return rows.map((row) => ({ ...row, appliedAt: row.appliedAt.toISOString() }));
  } finally {
    await client.end();
  }
}

async function listed(db: Db) {
  const records = [];
  for await (const record of db.signups.list()) records.push(record);
  return records;
}

/** Everything the release fixture put in, read back through today's repositories. */
async function expectReleaseRowsReadable(db: Db): Promise<void> {
  expect(await listed(db)).toMatchObject([
    {
      id: ROSA,
      name: 'Rosa Díaz',
      email: 'Rosa@Example.com',
      betaTesting: true,
      timestamp: '2026-11-01T10:00:00.000Z',
      lastSeenAt: '2026-11-03T10:00:00.000Z',
      signupCount: 2,
      utmCampaign: 'launch',
      confirmedAt: '2026-11-01T10:05:00.000Z',
    },
    { id: BOB, name: 'Bob Ng', betaTesting: false, signupCount: 1, emailOptOutAt: '2026-11-04T09:00:00.000Z' },
  ]);
  expect((await db.consentEvents.history(ROSA)).map((event) => event.kind)).toEqual(['signed_up', 'confirmed']);
  expect(await db.consentEvents.history(BOB)).toEqual([
    { kind: 'signed_up', source: 'signup_form', consentVersion: 'v1', at: '2026-11-02T10:00:00.000Z', evidence: null },
    {
      kind: 'email_off',
      source: 'preferences_page',
      consentVersion: null,
      at: '2026-11-04T09:00:00.000Z',
      evidence: null,
    },
  ]);
  expect(await db.suppressions.count()).toBe(1);
  expect(await db.events.funnel({ days: 1, now: new Date('2026-11-02T12:00:00.000Z') })).toMatchObject([
    { landingViews: 1, signups: 1 },
  ]);
  const broadcast = await db.broadcasts.get(BROADCAST);
  expect(broadcast).toMatchObject({
    name: BROADCAST,
    channels: ['email', 'sms'],
    confirmation: 'confirmed_only',
    state: 'sending',
    content: { subject: 'We are live' },
    startedAt: '2026-11-05T08:01:00.000Z',
  });
  expect(await db.outbox.counts(broadcast!.id)).toMatchObject({ sent: 1, queued: 1, failed_temporary: 1, total: 3 });
  expect(await db.owners.list()).toEqual([
    { id: 1, email: OWNER, createdAt: '2026-10-30T12:00:00.000Z', lastSignInAt: '2026-11-05T07:00:00.000Z' },
  ]);
  expect(await db.owners.auditLog(10)).toMatchObject([
    { ownerEmail: OWNER, action: 'exported', detail: 'CSV, 2 people' },
  ]);
}

async function expectSignupsStillWork(db: Db): Promise<void> {
  await db.signups.add({ name: 'Chen Li', phone: '+15550001111', email: 'chen@example.com', betaTesting: false });
  await db.signups.add({ name: 'Rosa Díaz', phone: '+15551234567', email: 'rosa@example.com', betaTesting: false });
  expect(await db.signups.count()).toBe(3);
  expect((await listed(db)).find((record) => record.id === ROSA)).toMatchObject({ signupCount: 3 });
}

describe('migration numbers', () => {
  it('never edits a shipped migration: each makes what it made in the release, so the release fixture is exact', () => {
    const db = new Database(':memory:');
    // The release's six; a later migration changes the schema, not the release's part of it.
    for (const migration of sqliteMigrations.filter(({ version }) => version <= RELEASE_SQLITE_LAST)) migration.up(db);
    expect(digest(sqliteSchema(db))).toBe(RELEASE_DIGESTS.sqliteSchema);
    db.close();
    const postgres = postgresMigrations
      .filter(({ name }) => name in RELEASE_DIGESTS.postgres)
      .map((migration) => [migration.name, digest(migration.sql)]);
    expect(Object.fromEntries(postgres)).toEqual(RELEASE_DIGESTS.postgres);
  });

  it('gives the same change the same version and name on both engines', () => {
    expect(postgresMigrations.map(({ version, name }) => ({ version, name }))).toEqual(unified);
    expect(unified.map((migration) => migration.version)).toEqual(unified.map((_, index) => index + 1));
  });

  it('moves rows recorded under the old numbers forward, highest first', () => {
    const old = ['create-signups', 'create-analytics-events', 'messaging', 'broadcasts', 'owners'].map(
      (name, index) => ({
        version: index + 1,
        name,
      }),
    );
    expect(renumbering(old, unified)).toEqual([
      { from: 5, to: 6 },
      { from: 4, to: 5 },
      { from: 3, to: 4 },
      { from: 2, to: 3 },
    ]);
    expect(renumbering(unified, unified)).toEqual([]);
  });

  it('refuses a move onto a version another migration holds', () => {
    const rows = [
      { version: 3, name: 'owners' },
      { version: 6, name: 'something-else' },
    ];
    expect(() => renumbering(rows, unified)).toThrow(/cannot move "owners" from version 3 to 6/);
  });

  it('counts a schema as current only when every version is recorded under its own name', () => {
    expect(isSchemaCurrent(unified, unified)).toBe(true);
    expect(isSchemaCurrent([...unified, { version: unified.length + 1, name: 'from-a-newer-release' }], unified)).toBe(
      true,
    );
    expect(isSchemaCurrent(unified.slice(0, unified.length - 1), unified)).toBe(false);
    expect(isSchemaCurrent(undefined, unified)).toBe(false);
  });
});

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`migrations on ${engine.name}`, () => {
    it('records every version once on a fresh database, and nothing more on a second start', async () => {
      const database = await engine.database();
      await (await openDatabase(database)).close();
      const first = await recorded(database);
      expect(first.map(({ version, name }) => ({ version, name }))).toEqual(unified);
      await (await openDatabase(database)).close();
      expect(await recorded(database)).toEqual(first);
    });

    it('applies nothing of a run that fails: one transaction', async () => {
      const database = await engine.database();
      if (database.kind === 'sqlite') {
        const db = new Database(database.file);
        const broken = {
          version: sqliteMigrations.length + 1,
          name: 'broken',
          up: () => {
            throw new Error('broken');
          },
        };
        await expect(migrateSqlite(db, [...sqliteMigrations, broken])).rejects.toThrow('broken');
        expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'signups'").all()).toEqual([]);
        db.close();
      } else {
        const pool = new pg.Pool({ connectionString: database.url, max: 1 });
        const broken = { version: postgresMigrations.length + 1, name: 'broken', sql: 'SELECT no_such_column' };
        await expect(migratePostgres(pool, [...postgresMigrations, broken])).rejects.toThrow(/no_such_column/);
        expect((await pool.query("SELECT to_regclass('signups') AS t")).rows).toEqual([{ t: null }]);
        await pool.end();
      }
    });
  });
}

describe('a database from the current release (ea7849e)', () => {
  it('SQLite: opens, keeps its numbers and every row, and takes new sign-ups', async () => {
    const database: DatabaseConfig = { kind: 'sqlite', file: tempDatabaseFile() };
    createReleaseSqlite(database.file);
    const before = await recorded(database);
    expect(before.map(({ version, name }) => ({ version, name }))).toEqual(unified.slice(0, RELEASE_SQLITE_LAST));

    // The owner's read-only commands never write: they ask for the migrations first.
    await expect(openDatabase(database, { migrate: false })).rejects.toBeInstanceOf(NotMigratedError);

    const db = await openDatabase(database, { migrate: true });
    await expectReleaseRowsReadable(db);
    await expectSignupsStillWork(db);
    await db.close();
    // SQLite kept its numbers: the release's rows as they were, today's appended after them.
    const after = await recorded(database);
    expect(after.slice(0, RELEASE_SQLITE_LAST)).toEqual(before);
    expect(after.map(({ version, name }) => ({ version, name }))).toEqual(unified);
  });

  describe.skipIf(!testDatabaseUrl)('PostgreSQL', () => {
    it('moves its old numbers (2..5) to 3..6, applies only the new no-op 2, and keeps every row', async () => {
      const database: DatabaseConfig = { kind: 'postgres', url: await tempPostgresUrl(), poolSize: 2 };
      await createReleasePostgres(database.url);
      const before = await recorded(database);
      expect(before.map(({ version, name }) => [version, name])).toEqual([
        [1, 'create-signups'],
        [2, 'create-analytics-events'],
        [3, 'messaging'],
        [4, 'broadcasts'],
        [5, 'owners'],
      ]);

      const db = await openDatabase(database, { migrate: true });
      await expectReleaseRowsReadable(db);
      await expectSignupsStillWork(db);
      await db.close();

      const after = await recorded(database);
      expect(after.map(({ version, name }) => ({ version, name }))).toEqual(unified);
      // Moved rows keep when they were applied: they were renumbered, not run again.
      const appliedAt = new Map(before.map((row) => [row.name, row.appliedAt]));
      // Migrations newer than the release (2, and 7 on) run now; the others were only renumbered.
      for (const row of after.filter((row) => row.version !== 2 && row.version <= 6))
        expect(row.appliedAt).toBe(appliedAt.get(row.name));
      expect(appliedAt.has(after[1]!.name)).toBe(false);
    });

    it('upgrades once when two instances start together', async () => {
      const database: DatabaseConfig = { kind: 'postgres', url: await tempPostgresUrl(), poolSize: 2 };
      await createReleasePostgres(database.url);
      const opened = await Promise.all([openDatabase(database), openDatabase(database)]);
      await Promise.all(opened.map((db) => db.close()));
      expect((await recorded(database)).map(({ version, name }) => ({ version, name }))).toEqual(unified);
    });

    // Decision: the read-only open does not count the old numbers as current. It cannot renumber
    // (it never writes), and the old rows lack version 2, so it throws NotMigratedError, whose
    // message asks to start the server once or run `sudo scamsavvy db:migrate`, as for any database
    // behind the code. After that one migrating start it reads normally.
    it('asks for a migration before the read-only commands read it', async () => {
      const database: DatabaseConfig = { kind: 'postgres', url: await tempPostgresUrl(), poolSize: 2 };
      await createReleasePostgres(database.url);
      await expect(openDatabase(database, { migrate: false })).rejects.toBeInstanceOf(NotMigratedError);
      await (await openDatabase(database, { migrate: true })).close();
      const readOnly = await openDatabase(database, { migrate: false });
      await expectReleaseRowsReadable(readOnly);
      await readOnly.close();
    });
  });
});
