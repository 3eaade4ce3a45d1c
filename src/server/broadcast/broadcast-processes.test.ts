// Several sender processes on one PostgreSQL outbox, through a real SMTP server on loopback: each
// person gets the email exactly once, also when one sender is killed with SIGKILL half-way.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../config.js';
import { openSignupStore } from '../storage/open-signup-store.js';
import { waitForMatch } from '../test/poll.js';
import { startCountingSmtpSink, type CountingSmtpSink } from '../test/smtp-sink.js';
import { storeEngines, testDatabaseUrl } from '../test/store-engines.js';
import { Broadcasts } from './broadcasts.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PEOPLE = 5_000;
/** The most one sender holds claimed at once: two batches of at most 200 (BroadcastSender's maxBatch). */
const MOST_IN_FLIGHT = 400;

function environment(databaseUrl: string, sink: CountingSmtpSink): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: databaseUrl,
    SITE_URL: 'https://scamsavvy.example',
    SECRET_KEY: 'k'.repeat(40),
    SMTP_URL: sink.url,
    MAIL_FROM: 'ScamSavvy <news@scamsavvy.example>',
    APP_STORE_URL: 'https://apps.apple.com/app/id000000',
    PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=example.app',
    EMAIL_CONFIRMATION: 'off',
  };
}

/** One sender process, as `broadcast send --workers N` starts them. */
function startWorker(env: NodeJS.ProcessEnv): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'src/cli/broadcast.ts'), 'worker', 'launch', '--rate', '100000'],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL') console.error(`sender exited ${code}: ${errors}`);
      resolve(code);
    }),
  );
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  return { child, exited };
}

async function fill(databaseUrl: string, sink: CountingSmtpSink) {
  const store = await openSignupStore({ kind: 'postgres', url: databaseUrl, poolSize: 4 });
  onTestFinished(() => store.close());
  const batch = 500;
  for (let start = 0; start < PEOPLE; start += batch)
    await Promise.all(
      Array.from({ length: batch }, (_, offset) =>
        store.add({
          name: `Person ${start + offset}`,
          phone: `+1555${String(start + offset).padStart(7, '0')}`,
          email: `person${start + offset}@example.com`,
          betaTesting: false,
          consentVersion: '2026-11-23',
        }),
      ),
    );
  const config = loadConfig(environment(databaseUrl, sink));
  const broadcasts = new Broadcasts(config, store.broadcasts, store);
  const { broadcast, report } = await broadcasts.create({ name: 'launch', template: 'launch' });
  expect(report.channels.email?.recipients).toBe(PEOPLE);
  return { store, broadcast };
}

describe.skipIf(!testDatabaseUrl)('broadcast senders in separate processes on PostgreSQL', () => {
  const postgres = storeEngines.find((engine) => engine.name === 'postgres')!;

  it(`two senders send ${PEOPLE.toLocaleString('en-US')} emails, each exactly once`, { timeout: 120_000 }, async () => {
    const sink = await startCountingSmtpSink();
    onTestFinished(() => sink.stop());
    const database = await postgres.database();
    if (database.kind !== 'postgres') throw new Error('PostgreSQL expected');
    const { store, broadcast } = await fill(database.url, sink);
    const env = environment(database.url, sink);
    const senders = [startWorker(env), startWorker(env)];
    expect(await Promise.all(senders.map((sender) => sender.exited))).toEqual([0, 0]);

    const counts = sink.countsByAddress();
    expect(counts.size).toBe(PEOPLE);
    expect([...counts.values()].filter((count) => count !== 1)).toEqual([]);
    expect(await store.broadcasts.counts(broadcast.id)).toMatchObject({ sent: PEOPLE, unknown: 0, queued: 0 });
    expect((await store.broadcasts.get('launch'))?.state).toBe('finished');
  });

  it(
    'a sender killed with SIGKILL half-way: a new one finishes, nobody gets two, only the killed one’s in-flight messages are unknown',
    { timeout: 120_000 },
    async () => {
      const sink = await startCountingSmtpSink();
      onTestFinished(() => sink.stop());
      const database = await postgres.database();
      if (database.kind !== 'postgres') throw new Error('PostgreSQL expected');
      const { store, broadcast } = await fill(database.url, sink);
      const env = environment(database.url, sink);
      const [victim, survivor] = [startWorker(env), startWorker(env)];
      await waitForMatch(
        () => sink.received(),
        () => sink.received().length >= PEOPLE / 3,
        60_000,
        'a third sent',
      );
      victim.child.kill('SIGKILL');
      await victim.exited;
      const replacement = startWorker(env);
      expect(await Promise.all([survivor.exited, replacement.exited])).toEqual([0, 0]);

      const outbox = await store.broadcasts.counts(broadcast.id);
      const unknown = outbox.unknown;
      expect(unknown).toBeLessThanOrEqual(MOST_IN_FLIGHT);
      expect(outbox).toMatchObject({ queued: 0, sending: 0, failed_temporary: 0, failed_permanent: 0 });
      expect(outbox.sent + unknown).toBe(PEOPLE);
      const counts = sink.countsByAddress();
      const twice = [...counts.entries()].filter(([, count]) => count > 1);
      expect(twice).toEqual([]);
      // Everyone got it, except some of the unknown ones (killed before their message left).
      expect(PEOPLE - counts.size).toBeLessThanOrEqual(unknown);
      expect((await store.broadcasts.get('launch'))?.state).toBe('finished');
    },
  );
});
