// `npx tsx scripts/release-backups.ts`: the backups this release leaves behind, for the test that
// every later release restores them: the release fixture's people, consent, suppression, broadcast
// and owner, brought up to this release's schema, then copied by makeBackup. Run it once per release
// whose schema changed (a file that is there already is never written over):
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx scripts/release-backups.ts
// They go into src/server/backups/test-fixtures/, which backups.test.ts restores from, every file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/server/db/open-database.js';
import { sqliteMigrations } from '../src/server/db/sqlite-migrations.js';
import { createReleasePostgres, createReleaseSqlite } from '../src/server/db/test-fixtures/release-database.js';
import { makeBackup } from '../src/server/backups/make-backup.js';

const version = sqliteMigrations.length;
const here = path.join(import.meta.dirname, '../src/server/backups/test-fixtures');
const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-release-backups-'));
try {
  const file = path.join(dir, 'signups.db');
  createReleaseSqlite(file);
  await (await openDatabase({ kind: 'sqlite', file })).close();
  console.log(
    (await makeBackup({ kind: 'sqlite', file }, path.join(here, `backup-at-migration-${version}.sqlite`))).file,
  );

  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('Set TEST_DATABASE_URL to make the PostgreSQL backup too.');
  const name = `release_backup_${process.pid}`;
  const admin = new pg.Client(base);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    await createReleasePostgres(url.toString());
    await (await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 })).close();
    const made = await makeBackup(
      { kind: 'postgres', url: url.toString(), poolSize: 2 },
      path.join(here, `backup-at-migration-${version}.pgdump`),
    );
    console.log(made.file);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
