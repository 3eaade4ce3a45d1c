// What only the SQLite store does: its file settings and its migrations.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDatabaseFile } from '../test/temp-database.js';
import { migrateSqlite } from './migrate.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { openSqlite } from './sqlite-shared.js';
import { openDatabase } from './open-database.js';
import { keepingStatements } from './sqlite-immediate-dialect.js';

describe('the SQLite database', () => {
  it('prepares each statement once, and gives a streamed query that is still reading its own', () => {
    const connection = new Database(':memory:');
    connection.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3);');
    const db = keepingStatements(connection);
    const query = 'SELECT n FROM t ORDER BY n';
    const first = db.prepare(query);
    expect(db.prepare(query)).toBe(first);
    // A stream (an export) still reads `first`: the same query meanwhile gets a statement of its own.
    const streamed = first.iterate([]);
    expect(streamed.next().value).toEqual({ n: 1 });
    const meanwhile = db.prepare(query);
    expect(meanwhile).not.toBe(first);
    expect(meanwhile.all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...streamed]).toEqual([{ n: 2 }, { n: 3 }]);
    expect(db.prepare(query)).toBe(first); // done reading: kept for the next
    db.close();
    expect(connection.open).toBe(false);
  });

  it('uses WAL and synchronous=FULL, and records each migration once', async () => {
    const file = tempDatabaseFile();
    await (await openDatabase({ kind: 'sqlite', file: file })).close();
    await (await openDatabase({ kind: 'sqlite', file: file })).close(); // a second start applies nothing new
    const db = new Database(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual(
      sqliteMigrations.map(({ version, name }) => ({ version, name })),
    );
    db.close();
    // synchronous is per connection: check one opened the way the database opens each of its own.
    const own = openSqlite(file);
    expect(own.pragma('synchronous', { simple: true })).toBe(2);
    own.close();
  });

  it('folds repeated emails from before migration 2 into their first record', async () => {
    const file = tempDatabaseFile();
    const db = new Database(file);
    await migrateSqlite(db, sqliteMigrations.slice(0, 1));
    const insert = db.prepare(
      'INSERT INTO signups (id, name, phone, email, beta_testing, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    insert.run('a', 'Rosa', '+15551234567', 'rosa@example.com', 0, '2026-11-01T10:00:00.000Z');
    insert.run('b', 'Bob', '+15557654321', 'bob@example.com', 0, '2026-11-02T10:00:00.000Z');
    insert.run('c', 'Rosa D', '+15550000000', 'ROSA@example.com', 1, '2026-11-03T10:00:00.000Z');
    db.close();

    const store = await openDatabase({ kind: 'sqlite', file: file });
    const records = [];
    for await (const record of store.signups.list()) records.push(record);
    expect(
      records.map((record) => [record.id, record.name, record.betaTesting, record.signupCount, record.lastSeenAt]),
    ).toEqual([
      ['a', 'Rosa', true, 2, '2026-11-03T10:00:00.000Z'],
      ['b', 'Bob', false, 1, '2026-11-02T10:00:00.000Z'],
    ]);
    await store.close();
  });

  it('writes events while sign-ups keep arriving, rather than waiting for a quiet moment', async () => {
    const store = await openDatabase({ kind: 'sqlite', file: tempDatabaseFile() });
    await store.signups.add({
      name: 'Rosa Díaz',
      phone: '+15551234567',
      email: 'first@example.com',
      betaTesting: false,
    });
    // Sign-ups arrive on every turn of the event loop, so one is always waiting when a batch ends.
    let arriving = true;
    let sent = 0;
    const accepted: Promise<unknown>[] = [];
    const arrive = () => {
      if (!arriving) return;
      sent += 1;
      accepted.push(
        store.signups.add({
          name: 'Rosa Díaz',
          phone: '+15551234567',
          email: `p${sent}@example.com`,
          betaTesting: false,
        }),
      );
      setImmediate(arrive);
    };
    arrive();
    const eventsWritten = store.events
      .record([{ name: 'page_view', params: { page_name: 'home' } }])
      .then(() => ({ whileSignupsArrived: arriving }));
    const giveUp = new Promise<{ whileSignupsArrived: boolean }>((resolve) =>
      setTimeout(() => resolve({ whileSignupsArrived: false }), 3000),
    );
    const outcome = await Promise.race([eventsWritten, giveUp]);
    arriving = false;
    await Promise.all(accepted);
    expect(outcome.whileSignupsArrived).toBe(true);
    expect(await store.signups.count()).toBe(sent + 1);
    await store.close();
  });

  it('does not create a file when asked only to read', async () => {
    await expect(openDatabase({ kind: 'sqlite', file: tempDatabaseFile() }, { migrate: false })).rejects.toThrow();
  });
});
