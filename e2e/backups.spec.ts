// Backups of the running, built server, as the owner makes them: during a sign-up rush, killed
// halfway, and on the server's own schedule with the dashboard's "Last backup".
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { expect, test } from '@playwright/test';
import { startBuiltServer, type RunningServer } from '../scripts/built-server.mjs';

const run = promisify(execFile);
const databaseUrl = process.env.TEST_DATABASE_URL;
const SECRET_KEY = 'a-test-secret-that-is-long-enough-for-the-check';

/** One of the owner's commands, from the build, with these settings; its exit code, never a throw. */
async function command(script: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [`dist/node/cli/${script}.js`, ...args], {
      env: { ...process.env, ...env },
      // A JSON export of the rush is over Node's default 1 MB: cut there it would not parse.
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

const signUp = (url: string, email: string, phone = '+15551234567') =>
  fetch(`${url}/api/signups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rosa Díaz', phone, email, openedForMs: 5000 }),
  });

interface Exported {
  id: string;
  email: string;
  [field: string]: unknown;
}

const exportOf = async (env: Record<string, string>) =>
  JSON.parse((await command('export-signups', ['--format', 'json'], env)).stdout) as Exported[];

/** A database of each engine of its own: an SQLite file, or a PostgreSQL database (dropped after). */
const engines = [
  { name: 'sqlite', available: true },
  { name: 'postgres', available: databaseUrl !== undefined },
] as const;

async function newDatabase(
  engine: 'sqlite' | 'postgres',
  dir: string,
  cleanups: (() => Promise<void>)[],
): Promise<string> {
  if (engine === 'sqlite') return `sqlite:${path.join(dir, `${randomBytes(4).toString('hex')}.db`)}`;
  const name = `e2e_db_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(databaseUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client(databaseUrl);
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });
  const url = new URL(databaseUrl ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

for (const [index, engine] of engines.entries()) {
  test.describe(`a backup during a sign-up rush, on ${engine.name}`, () => {
    test.skip(!engine.available, 'needs PostgreSQL: set TEST_DATABASE_URL');
    let dir: string;
    const cleanups: (() => Promise<void>)[] = [];
    const servers: RunningServer[] = [];

    test.beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-backup-rush-'));
    });
    test.afterEach(async () => {
      await Promise.all(servers.splice(0).map((server) => server.stop()));
      for (const cleanup of cleanups.splice(0)) await cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    test('holds every sign-up acknowledged before it started, passes its check, and restores into an empty database that matches, takes sign-ups and keeps every suppression', async () => {
      test.setTimeout(180_000);
      const env = {
        DATABASE_URL: await newDatabase(engine.name, dir, cleanups),
        SECRET_KEY,
        SIGNUP_RATE_LIMIT_PER_MINUTE: '0',
        SIGNUP_RATE_LIMIT_PER_HOUR: '0',
      };
      const server = await startBuiltServer(4362 + index, env);
      servers.push(server);
      // A person who asked to be deleted: only the suppression of their address stays.
      expect((await signUp(server.url, 'gone@example.com', '+15550009999')).status).toBe(201);
      expect((await command('delete-signups', ['--email', 'gone@example.com'], env)).code).toBe(0);
      const suppressions = (await command('suppressions', ['list'], env)).stdout;
      expect(suppressions.match(/deleted \(owner\)/g)).toHaveLength(2); // the email and the phone

      // 50 connections signing people up until told to stop; each acknowledgement noted as it comes.
      const acknowledged: string[] = [];
      let stop = false;
      let sent = 0;
      const rush = Array.from({ length: 50 }, async () => {
        while (!stop) {
          const email = `rush${sent++}@example.com`;
          const response = await signUp(server.url, email);
          if (response.status === 201) acknowledged.push(email);
          else throw new Error(`A sign-up was refused during the rush: ${response.status} ${await response.text()}`);
        }
      });
      while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 20));
      const before = [...acknowledged];
      const file = path.join(dir, `during-the-rush.${engine.name === 'sqlite' ? 'sqlite' : 'pgdump'}`);
      const backup = await command('backup-database', ['--out', file], env);
      const duringBackup = acknowledged.length - before.length;
      stop = true;
      await Promise.all(rush);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain("Checked: it is whole, it is this product's");
      // The rush went on while the copy was made.
      expect(duringBackup).toBeGreaterThan(0);

      const checked = await command('check-database', ['--file', file], env);
      expect(checked.code, checked.stderr).toBe(0);

      const restoredEnv = { ...env, DATABASE_URL: await newDatabase(engine.name, dir, cleanups) };
      const restore = await command('restore-database', ['--from', file], restoredEnv);
      expect(restore.code, restore.stderr).toBe(0);

      const live = new Map((await exportOf(env)).map((person) => [person.id, person]));
      const restored = await exportOf(restoredEnv);
      const restoredEmails = new Set(restored.map((person) => person.email));
      expect(before.filter((email) => !restoredEmails.has(email))).toEqual([]);
      // Every person in the copy is exactly as the live database has them.
      for (const person of restored) expect(person).toEqual(live.get(person.id));
      expect((await command('suppressions', ['list'], restoredEnv)).stdout).toBe(suppressions);

      const again = await startBuiltServer(4364 + index, restoredEnv);
      servers.push(again);
      expect((await signUp(again.url, 'after-the-restore@example.com')).status).toBe(201);
      expect((await command('suppressions', ['list'], restoredEnv)).stdout).toBe(suppressions);
    });
  });
}

test.describe('a backup killed halfway', () => {
  test('leaves no file under its final name, and the backups before it untouched', async () => {
    test.setTimeout(120_000);
    const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-backup-kill-'));
    try {
      const folder = path.join(dir, 'backups');
      const env = { DATABASE_URL: `sqlite:${path.join(dir, 'signups.db')}`, BACKUP_DIR: folder };
      expect((await command('migrate-database', [], env)).code).toBe(0);
      // Enough to copy that the copy takes a while: 40 MB of page events.
      const db = new Database(path.join(dir, 'signups.db'));
      const insert = db.prepare(
        "INSERT INTO analytics_events (name, page_name, params, created_at) VALUES ('page_view', 'home', ?, '2026-11-26T00:00:00.000Z')",
      );
      const params = JSON.stringify({ padding: 'x'.repeat(100_000) });
      db.transaction(() => {
        for (let row = 0; row < 400; row++) insert.run(params);
      })();
      db.close();
      expect((await command('backup-database', [], env)).code).toBe(0);
      const [previous] = readdirSync(folder);
      const previousHash = createHash('sha256')
        .update(readFileSync(path.join(folder, previous ?? '')))
        .digest('hex');
      await new Promise((resolve) => setTimeout(resolve, 1100)); // the next copy's name is a second later

      const child = spawn(process.execPath, ['dist/node/cli/backup-database.js'], {
        env: { ...process.env, ...env },
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // Killed the moment its half-written copy appears.
      const watcher = watch(folder, (_event, name) => {
        if (name?.startsWith('.partial-')) child.kill('SIGKILL');
      });
      const signal = await exited.then(() => child.signalCode);
      watcher.close();
      expect(signal).toBe('SIGKILL');

      const names = readdirSync(folder);
      // The copy it was writing is there, half-written and under its temporary name; no new backup is.
      expect(names.filter((name) => name.startsWith('.partial-')).length).toBeGreaterThan(0);
      expect(names.filter((name) => !name.startsWith('.partial-'))).toEqual([previous]);
      expect(
        createHash('sha256')
          .update(readFileSync(path.join(folder, previous ?? '')))
          .digest('hex'),
      ).toBe(previousHash);
      expect((await command('check-database', ['--file', path.join(folder, previous ?? '')], env)).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test.describe("the server's own backups", () => {
  test('come on schedule, keep exactly BACKUP_KEEP, and the dashboard says when the last was made and that BACKUP_COMMAND failed', async () => {
    test.setTimeout(120_000);
    const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-backup-schedule-'));
    const folder = path.join(dir, 'backups');
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'signups.db')}`,
      SITE_URL: 'http://127.0.0.1:4366',
      BACKUP_DIR: folder,
      BACKUP_EVERY_HOURS: '0.0004', // about every 1.4 seconds
      BACKUP_KEEP: '2',
      BACKUP_COMMAND: 'echo "remote: bucket not found" >&2; exit 4; true',
    };
    const server = await startBuiltServer(4366, env);
    try {
      expect((await signUp(server.url, 'rosa@example.com')).status).toBe(201);
      // Waits for the fourth run: by then two backups were removed by the rotation.
      const runs = () => {
        const db = new Database(path.join(dir, 'signups.db'), { readonly: true });
        try {
          return db.prepare('SELECT outcome, copy_outcome FROM backup_runs').all() as {
            outcome: string;
            copy_outcome: string;
          }[];
        } finally {
          db.close();
        }
      };
      await expect.poll(() => runs().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(4);
      expect(runs().every((row) => row.outcome === 'ok' && row.copy_outcome === 'failed')).toBe(true);
      expect(readdirSync(folder).filter((name) => name.startsWith('scamsavvy-'))).toHaveLength(2);

      await command('owners', ['add', '--email', 'owner@example.com'], env);
      const { stdout } = await command('owners', ['link', '--email', 'owner@example.com'], env);
      const link = /http:\/\/\S+\/owner\/sign-in\/\S+/.exec(stdout)?.[0] ?? '';
      const signIn = await fetch(link, { method: 'POST', headers: { origin: env.SITE_URL }, redirect: 'manual' });
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const overview = await (await fetch(`${server.url}/owner`, { headers: { cookie } })).text();
      expect(overview).toContain('Last backup:');
      expect(overview).toMatch(/1 person, \d+ kB, in scamsavvy-[\dT-]+Z\.sqlite\./);
      expect(overview).toContain(
        'But it was not copied off this machine: BACKUP_COMMAND failed with exit code 4: remote: bucket not found',
      );
      expect(overview).toContain(`the last 2 are kept in ${folder}`);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
