// The owner's deletion command, run in-process against a temporary SQLite database.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SignupInput, SignupRecord } from '../shared/signup-schema.js';
import { createAddressHasher } from '../server/messaging/link-tokens.js';
import { openDatabase, type Db } from '../server/db/open-database.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { main } from './delete-signups.js';
import { runCommand } from '../server/test/run-command.js';
import { isSuppressed } from '../server/test/suppressed.js';

const SECRET_KEY = 'test-secret-key-that-is-at-least-32-characters';

const rosa: SignupInput = { name: 'Rosa Díaz', phone: '+15551234567', email: 'rosa@example.com', betaTesting: false };
const ann: SignupInput = { name: 'Ann Díaz', phone: '5551234567', email: 'ann@example.com', betaTesting: true };
const ben: SignupInput = { name: 'Ben Okafor', phone: '+447700900123', email: 'ben@example.com', betaTesting: false };

let file: string;

/** A database with these sign-ups (each repeated as often as it appears), as the server leaves it. */
async function databaseWith(...inputs: SignupInput[]): Promise<SignupRecord[]> {
  const store = await openDatabase({ kind: 'sqlite', file: file });
  for (const input of inputs) await store.signups.add(input);
  const records = await listed(store);
  await store.close();
  return records;
}

async function listed(store: Db): Promise<SignupRecord[]> {
  const records: SignupRecord[] = [];
  for await (const record of store.signups.list()) records.push(record);
  return records;
}

const run = (...argv: string[]) => runCommand(main, argv);

/** Opens the database afterwards and calls `read` with it. */
async function afterwards<T>(read: (store: Db) => Promise<T>): Promise<T> {
  const store = await openDatabase({ kind: 'sqlite', file: file }, { migrate: false });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

beforeEach(() => {
  file = tempDatabaseFile();
  vi.stubEnv('DATABASE_URL', `sqlite:${file}`);
  vi.stubEnv('SECRET_KEY', SECRET_KEY);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('signups:delete', () => {
  it('deletes the sign-up with that email, in any capitals, and its consent history, keeping only the scrambled codes', async () => {
    const [stored] = await databaseWith(rosa, { ...rosa, betaTesting: true }, ben);
    if (!stored) throw new Error('nothing stored');

    const { code, out, err } = await run('--email', '  ROSA@Example.com ');

    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toBe(
      `Deleted the sign-up of r•••@example.com (phone ending 4567), first signed up ${stored.timestamp.slice(0, 10)}, ` +
        'and its consent history (2 entries). Kept a scrambled code of the email and phone so no later message reaches them.\n',
    );
    expect(out).not.toContain('Rosa');
    const hasher = createAddressHasher(SECRET_KEY);
    await afterwards(async (store) => {
      expect((await listed(store)).map((record) => record.email)).toEqual(['ben@example.com']);
      expect(await store.consentEvents.history(stored.id)).toEqual([]);
      expect(await store.suppressions.count()).toBe(2);
      expect(await isSuppressed(store, 'email', hasher.hash('email', 'rosa@example.com'), stored.lastSeenAt)).toBe(
        true,
      );
      expect(await isSuppressed(store, 'phone', hasher.hash('phone', '+15551234567'), stored.lastSeenAt)).toBe(true);
    });
  });

  it('deletes everyone who gave the phone number, however either of them typed it', async () => {
    await databaseWith(rosa, ann, ben);

    const { code, out } = await run('--phone', '(555) 123-4567');

    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Deleted the sign-up of r•••@example\.com \(phone ending 4567\), .*\(1 entry\)\./);
    expect(lines[1]).toMatch(/^Deleted the sign-up of a•••@example\.com \(phone ending 4567\), .*\(1 entry\)\./);
    await afterwards(async (store) => {
      expect((await listed(store)).map((record) => record.email)).toEqual(['ben@example.com']);
      expect(await store.suppressions.count()).toBe(4); // an email and a phone code for each
    });
  });

  it('takes an email and a phone together, deleting a person found by both only once', async () => {
    await databaseWith(rosa, ann, ben);

    const { code, out } = await run('--email', 'rosa@example.com', '--phone', '555-123-4567');

    expect(code).toBe(0);
    expect(
      out
        .trimEnd()
        .split('\n')
        .map((line) => line.slice(0, 40)),
    ).toEqual(['Deleted the sign-up of r•••@example.com ', 'Deleted the sign-up of a•••@example.com ']);
    expect((await afterwards((store) => listed(store))).map((record) => record.email)).toEqual(['ben@example.com']);
  });

  it('says so, deletes nothing and succeeds when no sign-up matches', async () => {
    await databaseWith(rosa);

    const { code, out } = await run('--email', 'nobody@example.com', '--phone', '+15550000000');

    expect(code).toBe(0);
    expect(out).toBe(
      'No sign-up matches the email nobody@example.com or the phone number +15550000000. Nothing was deleted.\n',
    );
    expect(await afterwards((store) => store.signups.count())).toBe(1);
    expect(await afterwards((store) => store.suppressions.count())).toBe(0);
  });

  it('still deletes without SECRET_KEY, and says that no scrambled code was kept', async () => {
    vi.stubEnv('SECRET_KEY', '');
    await databaseWith(rosa);

    const { code, out } = await run('--email', 'rosa@example.com');

    expect(code).toBe(0);
    expect(out).toMatch(
      /^Deleted the sign-up of r•••@example\.com .*\(1 entry\)\. No scrambled code .* SECRET_KEY is not set/,
    );
    await afterwards(async (store) => {
      expect(await store.signups.count()).toBe(0);
      expect(await store.suppressions.count()).toBe(0);
    });
  });

  it.each([
    ['neither --email nor --phone', []],
    ['an unknown option', ['--email', 'rosa@example.com', '--name', 'Rosa']],
    ['--email without an address', ['--email']],
    ['an address without --email', ['rosa@example.com']],
    ['an empty --email', ['--email', ' ']],
    ['a --phone that is not a number', ['--phone', 'call me']],
  ])('refuses with the usage and exit code 2, deleting nothing, given %s', async (_case, argv) => {
    await databaseWith(rosa);

    const { code, out, err } = await run(...argv);

    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('Usage: sudo scamsavvy signups:delete --email ADDRESS');
    expect(await afterwards((store) => store.signups.count())).toBe(1);
  });

  it('refuses a SECRET_KEY the database was not made with, says what to do, and deletes nothing', async () => {
    await databaseWith(rosa);
    expect((await run('--email', 'ben@example.com')).code).toBe(0); // the first key is remembered
    vi.stubEnv('SECRET_KEY', 'another-secret-key-of-a-new-machine-12345');
    await expect(run('--email', 'rosa@example.com')).rejects.toThrow(
      /^SECRET_KEY does not match this database: .* set the new one as SECRET_KEY and the old one as SECRET_KEY_PREVIOUS/,
    );
    expect(await afterwards((store) => store.signups.count())).toBe(1);
    vi.stubEnv('SECRET_KEY_PREVIOUS', SECRET_KEY); // a rotation: the old key kept beside the new
    expect((await run('--email', 'rosa@example.com')).code).toBe(0);
    expect(await afterwards((store) => store.signups.count())).toBe(0);
  });

  it('says plainly when there is no database where DATABASE_URL points', async () => {
    vi.stubEnv('DATABASE_URL', `sqlite:${file}.missing`);
    await expect(run('--email', 'rosa@example.com')).rejects.toThrow(/^There is no database at the SQLite file /);
  });
});
