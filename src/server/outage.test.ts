// The database goes away and comes back: the API answers 503 quickly, logs it once, and recovers by itself.
import net from 'node:net';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from './test/build-test-app.js';
import type { DatabaseConfig } from './config.js';
import { loggerOptions } from './logger.js';
import { RETRY_AFTER_SECONDS } from './signups/signup-routes.js';
import { openDatabase, type Db } from './db/open-database.js';
import { tempPostgresUrl, testDatabaseUrl } from './test/store-engines.js';
import { tempDatabaseFile } from './test/temp-database.js';
import { capturedLog } from './test/captured-log.js';

/*
 * The product gives up on the database after a few seconds (SQLite's busy timeout, PostgreSQL's
 * connection timeout); without those limits a request would wait for minutes. What is asserted is the
 * answer (503, the retry hint, one log line); the test's time limit only catches a hang, and no test
 * times the machine (docs/testing.md, "Time").
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function appWith(store: Db, database: DatabaseConfig) {
  const { written: lines, logger } = capturedLog(loggerOptions('info'));
  const { app } = await buildTestApp({
    existing: { db: store, database },
    logger,
    keepOpen: true,
  });
  cleanups.push(() => app.close());
  let count = 0;
  const signUp = () => {
    count += 1;
    return app.inject({
      method: 'POST',
      url: '/api/signups',
      payload: { name: 'Rosa Díaz', phone: '+15551234567', email: `rosa${count}@example.com`, openedForMs: 5000 },
    });
  };
  const logged = (text: string) => lines.filter((line) => line.includes(text)).length;
  return { app, signUp, logged };
}

async function expectUnavailable(response: Awaited<ReturnType<Awaited<ReturnType<typeof appWith>>['signUp']>>) {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
  expect(response.json().error.code).toBe('unavailable');
  expect(response.body).not.toMatch(/SQLITE|ECONN|database is locked|at /);
}

/** PostgreSQL behind a TCP proxy that stands for the network between them: `cut` closes it, `listen` opens it again. */
async function postgresBehindProxy() {
  const target = new URL(await tempPostgresUrl());
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port = 0) =>
    new Promise<number>((resolve) =>
      proxy.listen(port, '127.0.0.1', () => resolve((proxy.address() as net.AddressInfo).port)),
    );
  const cut = () =>
    new Promise<void>((resolve) => {
      proxy.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  const port = await listen();
  cleanups.push(() => (proxy.listening ? cut() : undefined));
  const viaProxy = new URL(target);
  viaProxy.host = `127.0.0.1:${port}`;
  const database = { kind: 'postgres' as const, url: viaProxy.toString(), poolSize: 2 };
  return { database, cut, reopen: () => listen(port) };
}

describe('when the database is unavailable', () => {
  it('SQLite locked by another process: 503 with a retry hint, logged once, and back to 201 when released', async () => {
    const file = tempDatabaseFile();
    const database = { kind: 'sqlite' as const, file };
    const store = await openDatabase(database);
    const { signUp, logged } = await appWith(store, database);
    expect((await signUp()).statusCode).toBe(201);

    const other = new Database(file);
    other.exec('BEGIN EXCLUSIVE');
    await expectUnavailable(await signUp());
    await expectUnavailable(await signUp());
    expect(logged('the sign-up database is unavailable')).toBe(1);

    other.exec('COMMIT');
    other.close();
    expect((await signUp()).statusCode).toBe(201);
    expect(logged('the sign-up database is back')).toBe(1);
    expect(await store.signups.count()).toBe(2); // the two refused sign-ups were not stored, and said so
  }, 60_000); // two lock waits of 2 s each: a hang guard sized for a busy machine

  it.skipIf(!testDatabaseUrl)(
    'PostgreSQL unreachable: 503 with a retry hint, logged once, and back to 201 when it returns',
    async () => {
      const { database, cut, reopen } = await postgresBehindProxy();
      const store = await openDatabase(database);
      const { signUp, logged } = await appWith(store, database);
      expect((await signUp()).statusCode).toBe(201);

      await cut();
      await expectUnavailable(await signUp());
      await expectUnavailable(await signUp());
      expect(logged('the sign-up database is unavailable')).toBe(1);

      await reopen();
      expect((await signUp()).statusCode).toBe(201);
      expect(logged('the sign-up database is back')).toBe(1);
      expect(await store.signups.count()).toBe(2);
    },
    60_000,
  );

  it.skipIf(!testDatabaseUrl)(
    'PostgreSQL cut while a transaction holds a connection: that work fails, the process lives on, and sign-ups come back',
    async () => {
      const { database, cut, reopen } = await postgresBehindProxy();
      const store = await openDatabase(database);
      const { signUp } = await appWith(store, database);
      expect((await signUp()).statusCode).toBe(201);
      // The connection ends while it is checked out with no query in flight: pg then emits 'error'
      // on the client, which nothing but the product's own listener hears (else the process dies).
      const held = store.reportsTransaction(async () => {
        await cut();
        await new Promise((resolve) => setTimeout(resolve, 200));
      });
      await expect(held).rejects.toThrow();
      await reopen();
      expect((await signUp()).statusCode).toBe(201);
    },
    60_000,
  );
});
