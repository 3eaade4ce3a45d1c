// The one runner of the server's recurring work (jobs/job-list.ts says what runs): each job run now
// and then every so often, a failure backed off and logged in the same words for every job, every
// run recorded for the dashboard and `sudo scamsavvy jobs`, and a one-instance job run by exactly one
// instance (a lease in the database, renewed by each run; an instance that stops lets it go, one
// that dies loses it when it runs out). Decision 043 says why it is ours and this small.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { BackgroundJobsRepository } from '../db/background-jobs-repository.js';
import { JOB_LIST, type JobName } from './job-list.js';

/** What a run did, in a few words for the owner ("acted on 2 reports"); nothing: it had nothing to do. */
export type JobRun = (signal: AbortSignal) => Promise<string | void>;

/** After a failure the next try waits this long, doubling with each failure in a row, never longer than the job's interval. */
export const FIRST_RETRY_MS = 30_000;

export interface JobRunnerOptions {
  records: Pick<BackgroundJobsRepository, 'ensure' | 'lease' | 'release' | 'started' | 'finished'>;
  logger: FastifyBaseLogger;
  /** Another interval for a job (the tests' short ones). */
  everyMs?: Partial<Record<JobName, number>>;
  now?: () => Date;
}

interface Scheduled {
  name: JobName;
  run: JobRun;
  everyMs: number;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  failuresInRow: number;
  /** Woken while it ran: it runs once more as soon as it ends. */
  again?: boolean;
  /** The planned run was asked for by wake(), not by the interval. */
  woken?: boolean;
}

/** This process, as the dashboard names where a job ran: host, process id and a random part. */
export function instanceName(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export class JobRunner {
  readonly instance = instanceName();
  private readonly jobs = new Map<JobName, Scheduled>();
  private readonly controller = new AbortController();
  private started = false;
  private readonly now: () => Date;

  constructor(private readonly options: JobRunnerOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Adds a job of the list with what it runs (before start), at the list's interval or at `everyMs`
   * when the settings make it another (the backups' check, with a short BACKUP_EVERY_HOURS); a
   * test's interval (options.everyMs) wins over both.
   */
  add(name: JobName, run: JobRun, everyMs?: number): void {
    if (this.jobs.has(name)) throw new Error(`the job ${name} is added twice`);
    if (this.started) throw new Error(`the job ${name} is added after the jobs started`);
    const interval = this.options.everyMs?.[name] ?? everyMs ?? JOB_LIST[name].everyMs;
    this.jobs.set(name, { name, run, everyMs: interval, failuresInRow: 0 });
  }

  /** The jobs added, by name. */
  names(): JobName[] {
    return [...this.jobs.keys()];
  }

  /** Runs every job now, then each at its interval. A database that is away only delays the record. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.options.records
      .ensure(this.names())
      .catch((error: Error) =>
        this.options.logger.warn(
          { err: error.message },
          'jobs: could not put the jobs on record; they run all the same',
        ),
      );
    for (const job of this.jobs.values()) this.plan(job, 0);
  }

  /** Stops every job: no new run starts, runs under way are asked to stop and waited for, leases let go. */
  async stop(): Promise<void> {
    this.controller.abort();
    for (const job of this.jobs.values()) clearTimeout(job.timer);
    await Promise.all([...this.jobs.values()].map((job) => job.running?.catch(() => undefined)));
    const held = [...this.jobs.values()].filter((job) => JOB_LIST[job.name].where === 'one').map((job) => job.name);
    await this.options.records.release(held, this.instance).catch(() => undefined);
  }

  /**
   * Runs a job soon, before its interval is up (a sign-up was stored: its confirmation email is
   * due): in `afterMs`, so that many wakes make one run; once more right after the run under way.
   * A woken run that had nothing to do is not recorded (the interval's runs keep the record).
   */
  wake(name: JobName, afterMs = 0): void {
    const job = this.jobs.get(name);
    if (!job || !this.started || this.controller.signal.aborted) return;
    if (job.running) {
      job.again = true;
      return;
    }
    if (job.woken) return; // already coming soon
    clearTimeout(job.timer);
    this.plan(job, afterMs, true);
  }

  private plan(job: Scheduled, waitMs: number, woken = false): void {
    if (this.controller.signal.aborted) return;
    job.woken = woken;
    job.timer = setTimeout(() => {
      job.running = this.runOnce(job).finally(() => {
        job.running = undefined;
      });
    }, waitMs);
    job.timer.unref();
  }

  private async runOnce(job: Scheduled): Promise<void> {
    const { records, logger } = this.options;
    const { where, does } = JOB_LIST[job.name];
    const log = logger.child({ job: job.name });
    let waitMs = job.everyMs;
    try {
      // A one-instance job: run here only while this instance holds its lease, renewed by each
      // run for a little more than one interval; another instance takes it once a run is missed.
      if (where === 'one') {
        const held = await records.lease(
          job.name,
          this.instance,
          new Date(this.now().getTime() + job.everyMs * 2 + 5_000),
        );
        if (!held) return;
      }
      const startedAt = this.now();
      const woken = job.woken === true;
      job.woken = false;
      const started = () => records.started(job.name, this.instance, startedAt, job.everyMs).catch(() => undefined);
      if (!woken) await started();
      let said: string;
      let outcome: 'ok' | 'failed';
      try {
        const done = await job.run(this.controller.signal);
        // Woken, healthy, and nothing to do: nothing worth a record (after a failure it is recorded).
        if (woken && !done && job.failuresInRow === 0) return;
        said = done || 'nothing to do';
        outcome = 'ok';
        if (job.failuresInRow > 0) log.info({ after: job.failuresInRow }, `${does}: works again`);
        job.failuresInRow = 0;
      } catch (error) {
        if (this.controller.signal.aborted) return;
        job.failuresInRow += 1;
        outcome = 'failed';
        said = (error as Error)?.message ?? String(error);
        waitMs = Math.min(job.everyMs, FIRST_RETRY_MS * 2 ** (job.failuresInRow - 1));
        log.error(
          { err: said, failuresInRow: job.failuresInRow, retryInMs: waitMs },
          `${does}: failed; it is tried again`,
        );
      }
      if (woken) await started();
      const endedAt = this.now();
      const nextRunAt = new Date(endedAt.getTime() + waitMs);
      await records
        .finished(job.name, { outcome, said, failuresInRow: job.failuresInRow, nextRunAt }, endedAt)
        .catch(() => undefined);
    } catch (error) {
      // The record itself is away (the database): the job is tried again at its interval.
      log.warn({ err: (error as Error).message }, `${does}: could not reach its record; tried again later`);
    } finally {
      // Woken while it ran: once more now (unless it failed: then its back-off holds).
      const again = job.again === true && job.failuresInRow === 0;
      job.again = false;
      this.plan(job, again ? 0 : waitMs, again);
    }
  }
}
