// `npm run suppressions -- list|lift`, in-process against a temporary SQLite database.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMessagingCore } from '../server/consent/create-messaging.js';
import { openDatabase, type Db } from '../server/db/open-database.js';
import { runCommand } from '../server/test/run-command.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { main } from './suppressions.js';

const SECRET_KEY = 'test-secret-key-that-is-at-least-32-characters';
let file: string;

const run = (...argv: string[]) => runCommand(main, argv);

async function withStore<T>(read: (store: Db) => Promise<T>): Promise<T> {
  const store = await openDatabase({ kind: 'sqlite', file });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

beforeEach(async () => {
  file = tempDatabaseFile();
  vi.stubEnv('DATABASE_URL', `sqlite:${file}`);
  vi.stubEnv('SECRET_KEY', SECRET_KEY);
  await withStore(async (store) => {
    const { subscriptions } = createMessagingCore({ secretKey: SECRET_KEY }, store);
    for (const email of ['rosa@example.com', 'ann@example.com'])
      await store.signups.add({ name: 'Someone', email, phone: '', betaTesting: false });
    const rosa = (await store.subscribers.subscriberByEmailKey('rosa@example.com'))!;
    const ann = (await store.subscribers.subscriberByEmailKey('ann@example.com'))!;
    await subscriptions.markUndeliverable(rosa, 'email');
    await store.optOuts.suppressByReport(
      ann.id,
      { kind: 'email', hash: subscriptions.emailHash(ann.email)!, reason: 'complained', source: 'provider_report' },
      'email_complained',
    );
  });
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('suppressions', () => {
  it('lists the suppression list masked, newest first, marking what may not be lifted', async () => {
    const { code, out } = await run('list');
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/email an•••@example\.com: complained \(provider_report\).*not liftable/);
    expect(lines[1]).toMatch(/email ro•••@example\.com: undeliverable \(provider_answer\)/);
    expect(out).toContain('1 entry may have been our fault and can be lifted');
    expect(out).not.toContain('rosa@example.com');
    expect((await run('list', '--reason', 'complained')).out).not.toContain('ro•••');
    expect((await run('list', '--reason', 'nonsense')).code).toBe(2);
  });

  it('lifts only what may have been our fault, after asking once (--yes), and writes it in the audit log', async () => {
    const refused = await run('lift', '--reason', 'complained', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('never lifted this way');
    const unasked = await run('lift');
    expect(unasked.code).toBe(1);
    expect(unasked.err).toContain('say it once more with --yes');
    expect(unasked.out).toContain('ro•••@example.com');
    const lifted = await run('lift', '--yes');
    expect(lifted).toMatchObject({ code: 0 });
    expect(lifted.out).toContain('Lifted 1 suppression.');
    expect((await run('list')).out).not.toContain('ro•••');
    await withStore(async (store) => {
      expect((await store.owners.auditLog(5))[0]).toMatchObject({
        action: 'lifted_suppressions',
        ownerEmail: 'the command line (npm run suppressions)',
      });
    });
  });
});
