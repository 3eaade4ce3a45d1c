// `sudo scamsavvy jobs`: the list of recurring jobs with what the record says of each, in-process against
// a temporary SQLite database a runner has written to.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../server/db/open-database.js';
import { JobRunner } from '../server/jobs/job-runner.js';
import { JOB_LIST, JOB_NAMES } from '../server/jobs/job-list.js';
import { capturedLog } from '../server/test/captured-log.js';
import { runCommand } from '../server/test/run-command.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { main } from './jobs.js';

let file: string;

beforeEach(async () => {
  file = tempDatabaseFile();
  vi.stubEnv('DATABASE_URL', `sqlite:${file}`);
  await (await openDatabase({ kind: 'sqlite', file })).close();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('sudo scamsavvy jobs', () => {
  it('--help shows the command as typed on the server, then its form in a development checkout', async () => {
    const help = await runCommand(main, ['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: sudo scamsavvy jobs\n/);
    expect(help.out.trimEnd().split('\n').at(-1)).toBe(
      'In the project folder on your own computer: npm run --silent COMMAND -- OPTIONS (docs/commands.md).',
    );
    const wrong = await runCommand(main, ['--nonsense']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('npm run --silent COMMAND -- OPTIONS');
  });

  it('lists every job of the list, and what each did last as the server recorded it', async () => {
    const before = await runCommand(main, []);
    expect(before.code).toBe(0);
    for (const name of JOB_NAMES) expect(before.out).toContain(`${name}: ${JOB_LIST[name].does}`);
    expect(before.out).toContain('last run:     never');
    expect(before.out).toContain(`next run:     not on: it runs ${JOB_LIST['unconfirmed-sign-ups'].when}`);

    const store = await openDatabase({ kind: 'sqlite', file }, { migrate: false });
    const jobs = new JobRunner({ records: store.backgroundJobs, logger: capturedLog().logger });
    let ran = false;
    jobs.add('phone-changes-forgotten', async () => {
      ran = true;
      return '2 changes forgotten';
    });
    jobs.add('reports-waiting', async () => {
      throw new Error('the database is away');
    });
    await jobs.start();
    await vi.waitFor(
      async () => {
        const records = await store.backgroundJobs.list();
        if (!ran || records.filter((record) => record.lastFinishedAt).length < 2) throw new Error('not yet');
      },
      { timeout: 20_000 },
    );
    await jobs.stop();
    await store.close();

    const after = await runCommand(main, []);
    expect(after.out).toMatch(
      /phone-changes-forgotten: Forget phone number changes nobody agreed to in time\n {2}every hour, on one instance; runs always\n {2}last run: {5}\d{4}-\d\d-\d\d \d\d:\d\d UTC: 2 changes forgotten\n {2}next run: {5}\d{4}-\d\d-\d\d \d\d:\d\d UTC\n {2}last failure: none\n/,
    );
    expect(after.out).toMatch(
      /reports-waiting: .*\n.*\n {2}last run: {5}.* UTC: failed\n.*\n {2}last failure: .* UTC: the database is away\n/,
    );
  });
});
