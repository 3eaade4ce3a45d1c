import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { SignupInput } from '../../shared/signup-schema.js';
import { tempDatabaseFile } from '../test/temp-database.js';
import { SqliteSignupStore } from './sqlite-signup-store.js';

const rosa: SignupInput = { name: 'Rosa Díaz', phone: '+15551234567', email: 'rosa@example.com', betaTesting: true };

async function all(store: SqliteSignupStore) {
  const records = [];
  for await (const record of store.list()) records.push(record);
  return records;
}

describe('SqliteSignupStore', () => {
  it('stores a sign-up with a random id and the server time, and reads it back equal', async () => {
    const store = new SqliteSignupStore(tempDatabaseFile());
    const before = Date.now();
    const record = await store.add(rosa);
    expect(record).toMatchObject(rosa);
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(record.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(record.timestamp)).toBeLessThanOrEqual(Date.now());
    expect(await all(store)).toEqual([record]);
    await store.close();
  });

  it('keeps what it acknowledged after the file is closed and opened again', async () => {
    const file = tempDatabaseFile();
    const first = new SqliteSignupStore(file);
    const record = await first.add(rosa);
    await first.close();
    const second = new SqliteSignupStore(file);
    expect(await all(second)).toEqual([record]);
    await second.close();
  });

  it('writes a burst of sign-ups, each once, with distinct ids', async () => {
    const store = new SqliteSignupStore(tempDatabaseFile());
    const records = await Promise.all(
      Array.from({ length: 500 }, (_, index) => store.add({ ...rosa, email: `person${index}@example.com` })),
    );
    expect(new Set(records.map((record) => record.id)).size).toBe(500);
    expect(await store.count()).toBe(500);
    expect(new Set((await all(store)).map((record) => record.email)).size).toBe(500);
    await store.close();
  });

  it('lists more than one batch in creation order', async () => {
    const store = new SqliteSignupStore(tempDatabaseFile());
    for (let index = 0; index < 2100; index += 1) void store.add({ ...rosa, email: `p${index}@example.com` });
    await store.add({ ...rosa, email: 'last@example.com' });
    const records = await all(store);
    expect(records).toHaveLength(2101);
    const times = records.map((record) => record.timestamp);
    expect([...times].sort()).toEqual(times);
    await store.close();
  });

  it('uses WAL and synchronous=FULL, and records the migration once', async () => {
    const file = tempDatabaseFile();
    await new SqliteSignupStore(file).close();
    await new SqliteSignupStore(file).close(); // a second start applies nothing new
    const db = new Database(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT version, name FROM schema_migrations').all()).toEqual([
      { version: 1, name: 'create-signups' },
    ]);
    db.close();
    const store = new SqliteSignupStore(file);
    // synchronous is per connection: check the store's own.
    expect((store as unknown as { db: Database.Database }).db.pragma('synchronous', { simple: true })).toBe(2);
    await store.close();
  });

  it('refuses to open an unmigrated file when asked only to read', () => {
    expect(() => new SqliteSignupStore(tempDatabaseFile(), { migrate: false })).toThrow(/no signups table/);
  });

  it('rejects adds after it is closed', async () => {
    const store = new SqliteSignupStore(tempDatabaseFile());
    await store.close();
    await expect(store.add(rosa)).rejects.toThrow(/closed/);
  });

  it('never overwrites an existing record: a clashing id is replaced, its batch neighbours still land', async () => {
    const file = tempDatabaseFile();
    const first = new SqliteSignupStore(file);
    const existing = await first.add(rosa);
    await first.close();
    const ids = [existing.id, 'fresh-1', 'fresh-2'];
    const store = new SqliteSignupStore(file, { newId: () => ids.shift() ?? 'unexpected' });
    const [clashing, neighbour] = await Promise.all([
      store.add({ ...rosa, email: 'second@example.com' }),
      store.add({ ...rosa, email: 'third@example.com' }),
    ]);
    const records = await all(store);
    expect(records).toHaveLength(3);
    expect(records.find((record) => record.id === existing.id)?.email).toBe('rosa@example.com');
    expect(clashing.id).not.toBe(existing.id);
    expect(records.find((record) => record.id === clashing.id)?.email).toBe('second@example.com');
    expect(records.find((record) => record.id === neighbour.id)?.email).toBe('third@example.com');
    await store.close();
  });
});
