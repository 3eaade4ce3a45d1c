// The one runner of the recurring work, on every engine: each job runs now and then at its interval,
// every run is on record (what it did, when next, its last failure), a failure is backed off and
// said once per run in the job's own words, and a one-instance job runs on exactly one of several
// instances, the other taking it over when the first stops.
import { setTimeout as pause } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase, type Db } from '../db/open-database.js';
import { capturedLog, ERROR } from '../test/captured-log.js';
import { storeEngines, suiteName } from '../test/store-engines.js';
import { JOB_LIST } from './job-list.js';
import { FIRST_RETRY_MS, JobRunner } from './job-runner.js';

/** Waits until `done()` holds (a wait, never a speed check: the limit only catches a hang). */
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = performance.now() + 20_000; // on the monotonic clock
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await pause(10);
  }
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(suiteName('the job runner', engine), () => {
    async function open(): Promise<Db> {
      const store = await openDatabase(await engine.database());
      onTestFinished(() => store.close());
      return store;
    }

    function runner(store: Db, everyMs = 30) {
      const log = capturedLog();
      const jobs = new JobRunner({
        records: store.backgroundJobs,
        logger: log.logger,
        everyMs: { 'reports-waiting': everyMs, 'phone-changes-forgotten': everyMs },
      });
      onTestFinished(() => jobs.stop());
      return { jobs, lines: log.lines };
    }

    it('runs each job now and at its interval, and keeps what it did and when it runs next', async () => {
      const store = await open();
      const { jobs } = runner(store);
      let runs = 0;
      jobs.add('phone-changes-forgotten', async () => `run ${(runs += 1)}`);
      await jobs.start();
      await until(() => runs >= 3, 'three runs');
      await jobs.stop();
      const [record] = await store.backgroundJobs.list();
      expect(record).toMatchObject({
        name: 'phone-changes-forgotten',
        lastOutcome: 'ok',
        lastSummary: `run ${runs}`,
        failuresInRow: 0,
        lastFailure: null,
      });
      expect(Date.parse(record!.nextRunAt!)).toBeGreaterThan(Date.parse(record!.lastStartedAt!));
      const stopped = runs;
      await pause(100);
      expect(runs).toBe(stopped); // stopped means stopped
      expect(() => jobs.add('phone-changes-forgotten', async () => undefined)).toThrow('added twice');
    });

    it('runs a woken job now, once more when woken while it runs, and records a woken run only when it did something', async () => {
      const store = await open();
      const jobs = new JobRunner({ records: store.backgroundJobs, logger: capturedLog().logger });
      onTestFinished(() => jobs.stop());
      let runs = 0;
      let work = 0;
      let release: (() => void) | undefined;
      jobs.add('confirmation-emails', async () => {
        runs += 1;
        if (runs === 2) await new Promise<void>((resolve) => (release = resolve));
        if (work === 0) return undefined;
        const done = `sent ${work}`;
        work = 0;
        return done;
      });
      jobs.wake('confirmation-emails'); // before the start: nothing to run yet
      await jobs.start();
      await until(() => runs === 1, 'the first run');
      // Its interval is 30 s: only a wake runs it again now.
      await until(async () => (await store.backgroundJobs.list())[0]?.lastOutcome === 'ok', 'the first run on record');
      jobs.wake('confirmation-emails');
      await until(() => release !== undefined, 'the woken run');
      // Woken twice while it runs (a sign-up, then another): one more run right after, not two.
      work = 1;
      jobs.wake('confirmation-emails');
      jobs.wake('confirmation-emails');
      release!();
      await until(() => runs === 3, 'the run the wakes asked for');
      await until(
        async () => (await store.backgroundJobs.list())[0]?.lastSummary === 'sent 1',
        'the woken run on record',
      );
      await pause(100);
      expect(runs).toBe(3);
      // The last woken run had nothing to do: the record still says what the one before did.
      expect((await store.backgroundJobs.list())[0]?.lastSummary).toBe('sent 1');
    });

    it('records a woken run that found nothing to do when the job had failed: it works again', async () => {
      const store = await open();
      const jobs = new JobRunner({ records: store.backgroundJobs, logger: capturedLog().logger });
      onTestFinished(() => jobs.stop());
      let runs = 0;
      jobs.add('joining-texts', async () => {
        runs += 1;
        if (runs === 1) throw new Error('the provider is away');
        return undefined;
      });
      await jobs.start();
      await until(
        async () => (await store.backgroundJobs.list())[0]?.lastOutcome === 'failed',
        'the failure on record',
      );
      jobs.wake('joining-texts');
      await until(async () => (await store.backgroundJobs.list())[0]?.lastOutcome === 'ok', 'the recovery on record');
      expect((await store.backgroundJobs.list())[0]).toMatchObject({ failuresInRow: 0, lastSummary: 'nothing to do' });
    });

    it('backs a failing job off, says why in its own words, keeps the failure, and says when it works again', async () => {
      const store = await open();
      // An interval longer than the first retry: the failure's back-off is what sets the next run.
      const { jobs, lines } = runner(store, 10 * FIRST_RETRY_MS);
      let runs = 0;
      jobs.add('reports-waiting', async () => {
        runs += 1;
        throw new Error('the database is away');
      });
      await jobs.start();
      await until(
        async () => (await store.backgroundJobs.list())[0]?.lastOutcome === 'failed',
        'the failure on record',
      );
      const [record] = await store.backgroundJobs.list();
      expect(record).toMatchObject({ lastFailure: 'the database is away', failuresInRow: 1, lastSummary: null });
      // The next try after the first retry's wait, not the job's interval.
      const wait = Date.parse(record!.nextRunAt!) - Date.parse(record!.lastFailureAt!);
      expect(wait).toBe(FIRST_RETRY_MS);
      expect(lines.filter((line) => line.level === ERROR).map((line) => line.msg)).toEqual([
        `${JOB_LIST['reports-waiting'].does}: failed; it is tried again`,
      ]);
      expect(runs).toBe(1);
    });

    it('runs a one-instance job on exactly one of two instances; the other takes it when the first stops', async () => {
      const store = await open();
      const first = runner(store);
      const second = runner(store);
      const ran = { first: 0, second: 0 };
      first.jobs.add('reports-waiting', async () => void (ran.first += 1));
      second.jobs.add('reports-waiting', async () => void (ran.second += 1));
      await first.jobs.start();
      await until(() => ran.first >= 1, 'the first instance ran it');
      await second.jobs.start();
      const seen = ran.first;
      await until(() => ran.first >= seen + 5, 'the first instance ran it five more times');
      expect(ran.second).toBe(0);
      const [held] = await store.backgroundJobs.list();
      expect(held?.leaseHolder).toBe(first.jobs.instance);
      await first.jobs.stop();
      const stoppedAt = ran.first;
      await until(() => ran.second >= 2, 'the second instance took it over');
      expect(ran.first).toBe(stoppedAt);
      expect((await store.backgroundJobs.list())[0]?.ranOn).toBe(second.jobs.instance);
    });
  });
}
