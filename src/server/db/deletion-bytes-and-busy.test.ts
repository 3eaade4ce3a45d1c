// Issue 54, paths 11 and 12. Deleted means deleted down to the file's bytes (SQLite: secure_delete,
// and the write-ahead log emptied after a deletion), and busy is not an error: a deletion while
// another process holds the write lock waits its turn instead of failing with "database is locked".
import { spawn } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { SITE } from '../test/site.js';

const SECRET_KEY = 'test-secret-key-that-is-long-enough-123';

async function signUp(app: FastifyInstance, name: string, email: string, phone: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/signups',
    payload: { name, phone, email, betaTesting: false, openedForMs: 5000, consentVersion: '2026-11-23' },
  });
  expect(response.statusCode).toBe(201);
}

/**
 * Another process takes SQLite's write lock, writes, and keeps it a second before it commits (a
 * second process, as a broadcast sender is: this one's SQLite calls block its own thread while they wait).
 */
async function holdSqliteLock(file: string): Promise<() => Promise<void>> {
  const script = `
    const db = require('better-sqlite3')(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
    db.prepare("UPDATE signups SET last_seen_at = last_seen_at").run();
    process.stdout.write('held\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder ended first (${code})`)));
  });
  return () => new Promise((resolve) => (child.exitCode === null ? child.once('exit', () => resolve()) : resolve()));
}

/** Another connection locks the signups table against writes for a moment, in a transaction. */
async function holdPostgresLock(url: string): Promise<() => Promise<void>> {
  const other = new pg.Client(url);
  await other.connect();
  await other.query('BEGIN');
  await other.query('LOCK TABLE signups IN EXCLUSIVE MODE');
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await other.query('COMMIT');
    await other.end();
  };
}

const start = (engine: (typeof storeEngines)[number] | 'sqlite') =>
  buildTestApp({ engine, config: { siteUrl: SITE, messaging: { secretKey: SECRET_KEY } } });

describe('deleted means deleted, down to the bytes (SQLite)', () => {
  it("leaves none of a deleted person's words in the database file or its write-ahead log", async () => {
    const { app, db, product, database } = await start('sqlite');
    if (database.kind !== 'sqlite') throw new Error('SQLite expected');
    await signUp(app, 'Zebulon Quackenbush', 'zebulon.quackenbush@example.com', '+15551239876');
    for (let n = 0; n < 20; n++)
      await signUp(app, `Neighbour ${n}`, `neighbour${n}@example.com`, `+1555000${1000 + n}`);
    const removed = await product.messaging.subscriptions.removeByAddress(
      { email: 'zebulon.quackenbush@example.com' },
      'owner',
    );
    expect(removed).toHaveLength(1);
    const bytes = [database.file, `${database.file}-wal`]
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString('latin1'))
      .join('\n');
    for (const word of ['Quackenbush', 'zebulon', '5551239876']) expect(bytes).not.toContain(word);
    // The others are still there, as they were.
    expect(await db.subscribers.subscriberByEmailKey('neighbour7@example.com')).toMatchObject({ name: 'Neighbour 7' });
  });
});

for (const engine of storeEngines)
  describe.skipIf(!engine.available)(suiteName('a deletion while another process writes', engine), () => {
    it('waits its turn and succeeds, instead of failing with "database is locked"', async () => {
      const { app, db, product, database } = await start(engine);
      await signUp(app, 'Ada Byers', 'ada@example.com', '+15551230077');
      // Another process (a broadcast sender, the server during a launch send) takes the write lock
      // and keeps it a moment, writing.
      const release =
        database.kind === 'sqlite' ? await holdSqliteLock(database.file) : await holdPostgresLock(database.url);
      // It waits while the lock is held (SQLite's busy handler, PostgreSQL's lock queue), then goes through.
      const deletion = product.messaging.subscriptions.removeByAddress({ email: 'ada@example.com' }, 'owner');
      await release();
      expect(await deletion).toHaveLength(1);
      expect(await db.subscribers.subscriberByEmailKey('ada@example.com')).toBeUndefined();
    });
  });
