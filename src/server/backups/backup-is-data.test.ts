// A backup is data, never code, and a restore never writes under a running server (decision 041):
// a copy whose schema holds a trigger (SQLite) or a function and trigger (PostgreSQL) this product's
// migrations did not make is refused by the check and by the restore, and changes nothing; a restore
// refuses while a server has the database open, and goes ahead once it has stopped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { BackupError } from '../db/database-errors.js';
import { dumpPostgres } from '../db/database-copies.js';
import { holdDatabaseInUse } from '../db/database-in-use.js';
import { openDatabase } from '../db/open-database.js';
import { openSqlite } from '../db/sqlite-shared.js';
import { ann, rosa } from '../test/people.js';
import { suiteName, wholeDatabaseEngines } from '../test/store-engines.js';
import { readBackup } from './backup-contents.js';
import { makeBackup } from './make-backup.js';
import { restoreBackup } from './restore-backup.js';

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-backup-data-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function emails(database: DatabaseConfig): Promise<string[]> {
  const store = await openDatabase(database, { migrate: false });
  try {
    const found = [];
    for await (const row of store.signups.list()) found.push(row.email);
    return found.sort();
  } finally {
    await store.close();
  }
}

async function withPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A backup of `live` with something added that is code: a trigger that undoes every leaving. */
async function craftedBackup(engine: 'sqlite' | 'postgres', live: DatabaseConfig, dir: string): Promise<string> {
  if (live.kind === 'sqlite') {
    const file = path.join(dir, 'crafted.sqlite');
    await makeBackup(live, file);
    const db = openSqlite(file);
    db.exec(`CREATE TRIGGER undo_leaving AFTER UPDATE OF left_at ON signups
             BEGIN UPDATE signups SET left_at = NULL WHERE id = new.id; END`);
    db.close();
    return file;
  }
  expect(engine).toBe('postgres');
  await withPg(live.url, async (client) => {
    await client.query(`CREATE FUNCTION undo_leaving() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN NEW.left_at := NULL; RETURN NEW; END $$`);
    await client.query(
      'CREATE TRIGGER undo_leaving BEFORE UPDATE ON signups FOR EACH ROW EXECUTE FUNCTION undo_leaving()',
    );
  });
  const file = path.join(dir, 'crafted.pgdump');
  await dumpPostgres(live.url, file); // the raw dump: makeBackup itself would refuse it
  return file;
}

for (const engine of wholeDatabaseEngines) {
  describe.skipIf(!engine.available)(suiteName('a backup is data, never code', engine), () => {
    it('refuses a backup holding a trigger or function the migrations did not make, in the check and the restore, and changes nothing', async () => {
      const live = await engine.database();
      const store = await openDatabase(live);
      await store.signups.add(rosa);
      await store.close();
      const file = await craftedBackup(engine.name, live, tempDir());

      const checked = await readBackup(file).catch((error: unknown) => error);
      expect(checked).toBeInstanceOf(BackupError);
      expect((checked as Error).message).toMatch(/is not a backup of this product: .*holds .*undo_leaving/);
      expect((checked as Error).message).toMatch(/did not make/);

      const target = await engine.database();
      const targetStore = await openDatabase(target);
      await targetStore.signups.add(ann);
      await targetStore.close();
      const restored = await restoreBackup(target, file, {
        replace: true,
        safetyCopy: path.join(tempDir(), 'x'),
      }).catch((error: unknown) => error);
      expect(restored).toBeInstanceOf(BackupError);
      expect(await emails(target)).toEqual([ann.email]);
    });

    it('refuses to restore while a server has the database open, and restores once it has stopped', async () => {
      const source = await engine.database();
      const sourceStore = await openDatabase(source);
      await sourceStore.signups.add(rosa);
      await sourceStore.close();
      const file = path.join(tempDir(), engine.name === 'sqlite' ? 'good.sqlite' : 'good.pgdump');
      await makeBackup(source, file);

      const target = await engine.database();
      // What the server holds while it runs: its open database, and (PostgreSQL) the in-use lock.
      const running = await openDatabase(target);
      const release = await holdDatabaseInUse(target);
      await running.signups.add(ann);
      const options = { replace: true, safetyCopy: path.join(tempDir(), 'safety') };
      const refused = await restoreBackup(target, file, options).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BackupError);
      expect((refused as Error).message).toMatch(/The server \(or another program\) is using .* Stop it first/);
      expect(await running.signups.count()).toBe(1);

      await release();
      await running.close();
      await restoreBackup(target, file, options);
      expect(await emails(target)).toEqual([rosa.email]);
    });
  });
}
