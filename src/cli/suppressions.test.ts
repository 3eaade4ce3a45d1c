// `sudo scamsavvy suppressions list|lift|import`, in-process against a temporary SQLite database.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMessagingCore } from '../server/compose-messaging.js';
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
        ownerEmail: 'the command line (sudo scamsavvy suppressions)',
      });
    });
  });

  describe('import', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-import-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, text: string) => {
      const where = path.join(dir, name);
      writeFileSync(where, text);
      return where;
    };

    it("adds a provider's CSV (a header, a reason per row, the provider's time) and keeps those people out", async () => {
      await withStore((store) =>
        store.signups.add({ name: 'Maria', email: 'maria@example.com', phone: '', betaTesting: false }),
      );
      const csv = file(
        'suppressions.csv',
        [
          'Email Address,Reason,Created At',
          'Maria@Example.com,unsubscribed,2026-11-20T10:00:00Z',
          'stranger@example.net,SpamComplaint,2026-11-21T10:00:00Z',
          '+1 (555) 010-0199,STOP,not a time',
          '',
        ].join('\n'),
      );
      const unasked = await run('import', csv);
      expect(unasked.code).toBe(1);
      expect(unasked.out).toContain(
        '3 rows (1 left emails, 1 complained emails, 1 sms_stop numbers); 1 person on the list among them.',
      );
      expect(unasked.err).toContain('say it once more with --yes');
      const done = await run('import', csv, '--yes');
      expect(done).toMatchObject({ code: 0 });
      expect(done.out).toContain('Added 3 entries to the suppression list');
      // Once only: the same file again adds nothing.
      expect((await run('import', csv, '--yes')).out).toContain('Added 0 entries');
      await withStore(async (store) => {
        const { subscriptions } = createMessagingCore({ secretKey: SECRET_KEY }, store);
        const maria = (await store.subscribers.subscriberByEmailKey('maria@example.com'))!;
        // Her own "no", as if she had left from our own link; only her emailed button undoes it.
        expect(await subscriptions.exclusions(maria, ['email'])).toEqual({ email: 'suppressed' });
        const rows = await store.suppressions.rows({ reasons: ['left'] });
        expect(rows).toEqual([
          expect.objectContaining({ source: 'suppression_import', createdAt: '2026-11-20T10:00:00.000Z' }),
        ]);
        const stop = await store.suppressions.entries('phone', [subscriptions.phoneHash('+15550100199')!]);
        expect([...stop.values()][0]?.stop).toBe(true);
        expect((await store.owners.auditLog(5))[0]).toMatchObject({ action: 'imported_suppressions' });
      });
    });

    it('reads a JSON list with one --reason for the file, and a headerless CSV', async () => {
      const json = file(
        'bounces.json',
        JSON.stringify({
          items: [{ address: 'ann@example.com', code: '550', created_at: 'Fri, 20 Nov 2026 11:02:55 GMT' }],
        }),
      );
      expect((await run('import', json, '--reason', 'bounced', '--yes')).out).toContain('Added 1 entry');
      const plain = file('plain.csv', 'someone@example.org,complaint\n');
      expect((await run('import', plain, '--yes')).out).toContain('Added 1 entry');
      await withStore(async (store) => {
        expect((await store.suppressions.rows({ reasons: ['bounced'] }))[0]?.createdAt).toBe(
          '2026-11-20T11:02:55.000Z',
        );
      });
    });

    it('refuses a file with any unreadable row, naming each, and imports nothing', async () => {
      const before = await withStore((store) => store.suppressions.count());
      const bad = file(
        'bad.csv',
        'email,reason\nok@example.com,bounced\nnot-an-address,bounced\nx@example.com,maybe\ny@example.com,\n',
      );
      const refused = await run('import', bad, '--yes');
      expect(refused.code).toBe(1);
      expect(refused.err).toContain('Nothing was imported: 3 rows cannot be read.');
      expect(refused.err).toContain('line 3: "not-an-address" is not an email address or phone number');
      expect(refused.err).toContain('line 4: "maybe" is not a reason this command knows');
      expect(refused.err).toContain("line 5: no reason (give the file's reason with --reason)");
      expect(await withStore((store) => store.suppressions.count())).toBe(before);
      expect((await run('import', bad, '--reason', 'perhaps', '--yes')).err).toContain('--reason must be one of');
      expect((await run('import', path.join(dir, 'missing.csv'), '--yes')).err).toContain('there is no such file');
      expect((await run('import')).code).toBe(2);
    });
  });
});
