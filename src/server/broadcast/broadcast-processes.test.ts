// Several sender processes on one PostgreSQL outbox, through a real SMTP server on loopback: each
// person gets the email exactly once, also when one sender is killed with SIGKILL half-way. The
// senders are started as the owner starts them: `sudo scamsavvy broadcast send launch --workers 2`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/open-database.js';
import { waitForMatch } from '../test/poll.js';
import { startCountingSmtpSink, type CountingSmtpSink } from '../test/smtp-sink.js';
import { storeEngines, testDatabaseUrl } from '../test/store-engines.js';
import { createBroadcastControl } from '../compose.js';
import { clockEnvironment } from '../test/clock.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PEOPLE = 3_000;
/** The most one sender holds claimed at once: two batches of at most 200 (BroadcastSender's maxBatch). */
const MOST_IN_FLIGHT = 400;

function environment(databaseUrl: string, sink: CountingSmtpSink): NodeJS.ProcessEnv {
  return {
    ...clockEnvironment(),
    PATH: process.env.PATH,
    DATABASE_URL: databaseUrl,
    SITE_URL: 'https://scamsavvy.example',
    SECRET_KEY: 'k'.repeat(40),
    SMTP_URL: sink.url,
    MAIL_FROM: 'ScamSavvy <news@scamsavvy.example>',
    MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
    APP_STORE_URL: 'https://apps.apple.com/app/id000000',
    PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=example.app',
    EMAIL_CONFIRMATION: 'off',
  };
}

/** `broadcast ARGS…` as the owner runs it, from the sources. */
function broadcastCommand(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): { child: ChildProcess; exited: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/broadcast.ts'), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  onTestFinished(() => {
    for (const pid of childrenOf(child.pid ?? 0)) process.kill(pid, 'SIGKILL');
    child.kill('SIGKILL');
  });
  return { child, exited, output: () => output };
}

/**
 * The sender processes `send --workers N` forked: children of `pid` running `worker`. Only those:
 * tsx also starts a helper process (esbuild's service) under the command, and a test that took it
 * for a sender once killed it instead of one (the command then ended 0, both senders unharmed).
 */
function sendersOf(pid: number): number[] {
  return childrenOf(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').includes('worker');
    } catch {
      return execFileSync('ps', ['-o', 'args=', '-p', String(child)], { encoding: 'utf8' }).includes(' worker ');
    }
  });
}

/** The processes `pid` started. */
function childrenOf(pid: number): number[] {
  if (existsSync('/proc/self/stat')) {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
          const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
        } catch {
          return false; // it ended while we looked
        }
      })
      .map(Number);
  }
  return execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, parent]) => parent === pid)
    .map(([child]) => child!);
}

async function fill(databaseUrl: string, sink: CountingSmtpSink) {
  const store = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 4 });
  onTestFinished(() => store.close());
  const batch = 500;
  for (let start = 0; start < PEOPLE; start += batch)
    await Promise.all(
      Array.from({ length: batch }, (_, offset) =>
        store.signups.add({
          name: `Person ${start + offset}`,
          phone: `+1555${String(start + offset).padStart(7, '0')}`,
          email: `person${start + offset}@example.com`,
          betaTesting: false,
          consentVersion: '2026-11-23',
        }),
      ),
    );
  const config = loadConfig(environment(databaseUrl, sink));
  const broadcasts = createBroadcastControl(config, store).broadcasts;
  const { broadcast, report } = await broadcasts.create({ name: 'launch', template: 'launch' });
  expect(report.channels.email?.recipients).toBe(PEOPLE);
  return { store, broadcast };
}

describe.skipIf(!testDatabaseUrl)('broadcast senders in separate processes on PostgreSQL', () => {
  const postgres = storeEngines.find((engine) => engine.name === 'postgres')!;

  /** A filled list on a fresh PostgreSQL schema, an SMTP sink counting each address, and `send --workers 2` started. */
  async function sendWithTwoSenders({ auth = false }: { auth?: boolean } = {}) {
    const sink = await startCountingSmtpSink(auth ? { auth: { user: 'launch', pass: 'right-password' } } : {});
    onTestFinished(() => sink.stop());
    const database = await postgres.database();
    if (database.kind !== 'postgres') throw new Error('PostgreSQL expected');
    const { store, broadcast } = await fill(database.url, sink);
    const env = environment(database.url, sink);
    const send = broadcastCommand(env, 'send', 'launch', '--not-ready', '--workers', '2', '--rate', '100000');
    return { sink, store, broadcast, env, send };
  }

  it(`two senders send ${PEOPLE.toLocaleString('en-US')} emails, each exactly once`, { timeout: 120_000 }, async () => {
    const { sink, store, broadcast, send } = await sendWithTwoSenders();
    expect(await send.exited, send.output()).toBe(0);
    expect(send.output()).toContain('Sending "launch" with 2 senders');
    expect(send.output()).toContain('Finished: nothing is left to send.');

    const counts = sink.countsByAddress();
    expect(counts.size).toBe(PEOPLE);
    expect([...counts.values()].filter((count) => count !== 1)).toEqual([]);
    expect(await store.outbox.counts(broadcast.id)).toMatchObject({ sent: PEOPLE, unknown: 0, queued: 0 });
    expect((await store.broadcasts.get('launch'))?.state).toBe('finished');
  });

  /**
   * One of the two senders `send` (or `resume`) started is killed with SIGKILL once a share has gone;
   * the owner runs send again, then --resend-unknown: nobody gets two except the reported unknowns,
   * and nobody is left without it.
   */
  async function killOneAndFinish({
    sink,
    store,
    broadcast,
    env,
    send,
    before,
  }: Awaited<ReturnType<typeof sendWithTwoSenders>> & { before: number }) {
    await waitForMatch(
      () => [sendersOf(send.child.pid ?? 0)],
      (senders) => senders.length === 2,
      60_000, // a hang guard: two processes starting from the sources on a busy machine
      'two senders started',
    );
    await waitForMatch(
      () => sink.received(),
      () => sink.received().length >= before + (PEOPLE - before) / 3,
      60_000,
      'a third more sent',
    );
    const [victim] = sendersOf(send.child.pid ?? 0);
    process.kill(victim!, 'SIGKILL');
    // The other sender finishes what it can; the command says one stopped and exits 1.
    expect(await send.exited, send.output()).toBe(1);
    expect(send.output()).toMatch(/Sender \d \(process \d+\) stopped by SIGKILL/);
    // The owner runs it again: it marks the killed sender's in-flight messages unknown and finishes.
    const again = broadcastCommand(env, 'send', 'launch', '--not-ready', '--rate', '100000');
    expect(await again.exited, again.output()).toBe(0);

    const outbox = await store.outbox.counts(broadcast.id);
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
    const status = broadcastCommand(env, 'status', 'launch');
    expect(await status.exited).toBe(0);
    expect(status.output()).toMatch(new RegExp(`^ {2}unknown +${unknown.toLocaleString('en-US')} `, 'm'));

    // The owner would rather risk a second copy than a missed one: nobody is left without it.
    if (unknown > 0) {
      const resend = broadcastCommand(env, 'send', 'launch', '--not-ready', '--resend-unknown', '--rate', '100000');
      expect(await resend.exited, resend.output()).toBe(0);
      expect(resend.output()).toContain(`${unknown.toLocaleString('en-US')} messages whose fate was unknown`);
      const after = sink.countsByAddress();
      expect(after.size).toBe(PEOPLE);
      expect([...after.values()].filter((count) => count > 1).length).toBeLessThanOrEqual(unknown);
    }
  }

  it(
    'a sender killed with SIGKILL half-way: a new one finishes, nobody gets two, only the killed one’s in-flight messages are unknown, and --resend-unknown leaves nobody without it',
    // Up to 75 s on 2 cores with another load beside them; the limit is a hang guard, not a speed check.
    { timeout: 180_000 },
    async () => {
      const sending = await sendWithTwoSenders();
      await killOneAndFinish({ ...sending, before: 0 });
    },
  );

  it(
    'a password revoked mid-send pauses both senders and fails nobody; resumed, one killed, --resend-unknown: everyone once but the unknowns',
    { timeout: 180_000 },
    async () => {
      const first = await sendWithTwoSenders({ auth: true });
      const { sink, store, broadcast, env } = first;
      await waitForMatch(
        () => sink.received(),
        () => sink.received().length >= PEOPLE / 5,
        60_000,
        'a fifth sent',
      );
      sink.refuseAuth(true);
      expect(await first.send.exited, first.send.output()).toBe(0);
      expect(first.send.output()).toMatch(/Paused, and nobody was marked failed for it:\nEmail paused since .*sign-in/);
      const paused = await store.outbox.counts(broadcast.id);
      expect(paused).toMatchObject({ failed_permanent: 0, sending: 0 });
      expect(paused.sent).toBeLessThan(PEOPLE);
      expect((await store.broadcasts.get('launch'))?.state).toBe('paused');
      expect(await store.broadcastSenders.liveSenders(broadcast.id)).toEqual([]);
      const before = sink.received().length;
      expect([...sink.countsByAddress().values()].every((count) => count === 1)).toBe(true);

      sink.refuseAuth(false);
      const resumed = broadcastCommand(env, 'resume', 'launch', '--workers', '2', '--rate', '100000');
      await killOneAndFinish({ ...first, send: resumed, before });
    },
  );
});
