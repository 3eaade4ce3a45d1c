// `npm run test:clock`: the whole suite with this machine's clock set to hours across the day and
// to a US daylight-saving change, optionally with a CPU kept busy beside it, then a line per hour.
// No test may pass or fail by the hour it runs at (docs/testing.md, "Time").
//
//   npm run test:clock                          every hour below, `npm test` each time
//   npm run test:clock -- --at 07:00,23:30      only these hours (the next time each comes)
//   npm run test:clock -- --at 2027-03-14T06:55:00Z
//   npm run test:clock -- --load                with `stress-ng --cpu 1` beside the suite
//   npm run test:clock -- --unit                the unit and component tests only (about 5 minutes a run)
//   npm run test:clock -- --only src/server/broadcast   Vitest on one file or folder
//
// The clock is moved with Debian's faketime (libfaketime), for this process's children: Node, the
// build, Chromium, Dovecot. PostgreSQL is its own server: a private one is started on the same moved
// clock (a sign-up's time is the database's own), from this machine's PostgreSQL binaries. Redis
// keeps the real clock (it only counts seconds). Caddy is a Go program, which libfaketime cannot
// move; the production test's own certificate authority issues for long enough that a clock moved
// forward still trusts it, so every hour here is the next time it comes, never one already past.
import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const HOURS = ['03:00', '07:00', '12:00', '19:00', '23:30'];
const LOGS = 'test-results-clock';

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
if (args.includes('--help')) {
  console.log(
    'npm run test:clock [-- --at HH:MM,…|ISO,…] [--load] [--unit | --only PATH]\nRuns the suite at hours across the day and near a US daylight-saving change.',
  );
  process.exit(0);
}
const only = option('--only'); // a test file or folder: Vitest alone, on that
const unitOnly = args.includes('--unit') || only !== undefined;
const load = args.includes('--load');

function need(command, install) {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0) {
    console.error(`test:clock needs ${command}: ${install}`);
    process.exit(2);
  }
}
/** Debian's libfaketime (package faketime): preloaded into every process the suite starts. */
const libfaketime = existsSync('/usr/lib')
  ? readdirSync('/usr/lib')
      .map((dir) => path.join('/usr/lib', dir, 'faketime', 'libfaketime.so.1'))
      .find((file) => existsSync(file))
  : undefined;
if (!libfaketime) {
  console.error('test:clock needs libfaketime: apt-get install faketime');
  process.exit(2);
}
if (load) need('stress-ng', 'apt-get install stress-ng');

/** The next time the clock shows HH:MM in UTC, from now on. */
function nextAt(clock, now = Date.now()) {
  const [hours, minutes] = clock.split(':').map(Number);
  const today = new Date(now);
  today.setUTCHours(hours, minutes, 0, 0);
  return today.getTime() > now ? today : new Date(today.getTime() + 86_400_000);
}

/** Five minutes before New York's next change of clocks (2 a.m. local): the suite runs across it. */
function nextDaylightSavingChange(now = Date.now()) {
  const offset = (ms) =>
    new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'shortOffset' })
      .formatToParts(new Date(ms))
      .find((part) => part.type === 'timeZoneName').value;
  for (let day = 1; day < 400; day += 1) {
    const noon = new Date(now + day * 86_400_000);
    noon.setUTCHours(12, 0, 0, 0);
    const before = offset(noon.getTime() - 86_400_000);
    if (offset(noon.getTime()) !== before) {
      // 2 a.m. on the old offset (GMT-5 or GMT-4), in UTC.
      const hoursBehind = Number(before.replace('GMT', ''));
      const change = Date.UTC(noon.getUTCFullYear(), noon.getUTCMonth(), noon.getUTCDate(), 2 - hoursBehind);
      return new Date(change - 5 * 60_000);
    }
  }
  throw new Error('no daylight-saving change in New York within a year');
}

const instants = (option('--at')?.split(',') ?? [...HOURS, 'dst']).map((value) => {
  if (value === 'dst') return { label: 'US daylight-saving change', at: nextDaylightSavingChange() };
  if (/^\d\d:\d\d$/.test(value)) return { label: `${value} UTC`, at: nextAt(value) };
  const at = new Date(value);
  if (Number.isNaN(at.getTime()) || at.getTime() < Date.now())
    throw new Error(`--at ${value}: an HH:MM, or a time to come (ISO 8601)`);
  return { label: at.toISOString(), at };
});

/** The directory of this machine's PostgreSQL server binaries, if any. */
function postgresBin() {
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [
    pgConfig.status === 0 ? pgConfig.stdout.trim() : undefined,
    ...(existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => `/usr/lib/postgresql/${version}/bin`)
      : []),
  ];
  return candidates.find(
    (dir) => dir && existsSync(path.join(dir, 'postgres')) && existsSync(path.join(dir, 'initdb')),
  );
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** A private PostgreSQL on the moved clock; undefined when this machine has no server binaries. */
async function startPostgres(fakeEnv) {
  const bin = postgresBin();
  if (!bin) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-clock-pg-'));
  // PostgreSQL refuses to run as root: as root, it runs as the postgres user.
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asRoot) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout), 0);
  const data = path.join(dir, 'data');
  const initdb = [...user, path.join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync'];
  const init = spawnSync(initdb[0], initdb.slice(1), { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const command = [
    ...user,
    path.join(bin, 'postgres'),
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'max_connections=300',
  ];
  const server = spawn(command[0], command.slice(1), {
    env: { ...process.env, ...fakeEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  server.stderr.on('data', (chunk) => (output += chunk));
  for (let tries = 0; ; tries += 1) {
    const ready = spawnSync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]);
    if (ready.status === 0) break;
    if (tries > 300 || server.exitCode !== null) throw new Error(`PostgreSQL did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      // The postmaster itself (runuser does not pass a signal on): SIGINT is its fast shutdown.
      const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGINT');
      await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.on('exit', resolve)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function run(command, commandArgs, env, logFile) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => {
      writeFileSync(logFile, output);
      resolve({ code, output });
    });
  });
}

/** The totals line `npm test` ends with, or Vitest's own counts. */
function totals(output) {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const ours = [...plain.matchAll(/^(\d+) passed, (\d+) failed, (\d+) skipped/gm)].at(-1);
  if (ours) return ours[0];
  const vitest = plain.match(/Tests\s+(.*)$/m);
  return vitest ? vitest[1].trim() : 'no totals (see the log)';
}

mkdirSync(LOGS, { recursive: true });
const stress = load ? spawn('stress-ng', ['--cpu', '1', '--quiet'], { stdio: 'ignore' }) : undefined;
const results = [];
try {
  for (const { label, at } of instants) {
    const shift = Math.round((at.getTime() - Date.now()) / 1000);
    // Relative: every process started under it shows the same moved time, going on as time does.
    const fakeEnv = {
      LD_PRELOAD: libfaketime,
      FAKETIME: `${shift >= 0 ? '+' : ''}${shift}`,
      FAKETIME_DONT_FAKE_MONOTONIC: '1', // timers and hang guards keep running as time does
    };
    console.log(
      `\n━━ test:clock: ${label}: the clock at ${at.toISOString()} (${shift} s from now)${load ? ', one CPU busy' : ''}`,
    );
    const postgres = await startPostgres(fakeEnv);
    const env = { ...process.env, ...fakeEnv };
    if (postgres) env.TEST_DATABASE_URL = postgres.url;
    else {
      console.log('No PostgreSQL server binaries here to run on the moved clock: the PostgreSQL tests skip.');
      delete env.TEST_DATABASE_URL;
    }
    const logFile = path.join(LOGS, `${at.toISOString().replaceAll(':', '-')}.log`);
    const started = Date.now();
    const { code, output } = unitOnly
      ? await run('node_modules/.bin/vitest', ['run', ...(only ? [only] : [])], env, logFile)
      : await run('npm', ['test'], env, logFile);
    await postgres?.stop();
    results.push({ label, at, code, totals: totals(output), minutes: (Date.now() - started) / 60_000, logFile });
  }
} finally {
  stress?.kill();
}

console.log(`\n━━ test:clock${load ? ' (one CPU busy)' : ''}${unitOnly ? ', unit and component tests' : ''}`);
for (const result of results)
  console.log(
    `${result.at.toISOString()}  ${result.label.padEnd(26)} ${result.code === 0 ? 'ok    ' : 'FAILED'} ${result.totals} (${result.minutes.toFixed(1)} min; ${result.logFile})`,
  );
process.exit(results.every((result) => result.code === 0) ? 0 : 1);
