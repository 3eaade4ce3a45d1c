// `sudo scamsavvy jobs`: what the server does by itself, again and again (jobs/job-list.ts), and how each
// job did last: the same list as the dashboard's overview.
import { jobStatuses } from '../server/jobs/job-status.js';
import { isEntryPoint, openStoreForCli, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';

const usage = `Usage: sudo scamsavvy jobs

Lists the server's recurring jobs: what each does, how often and on which instance, its last run,
its next run and its last failure, as the running servers recorded them. Reads DATABASE_URL.`;

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const flags = readFlags(argv, {}, usage, { out, err });
  if ('exitCode' in flags) return flags.exitCode;
  const { store, where } = await openStoreForCli();
  try {
    const statuses = jobStatuses(await store.backgroundJobs.list());
    out.write(`Recurring jobs of the server on ${where}:\n`);
    for (const job of statuses)
      out.write(
        [
          '',
          `${job.name}: ${job.does}`,
          `  ${job.schedule}; runs ${job.when}`,
          `  last run:     ${job.lastRun}`,
          `  next run:     ${job.nextRun}`,
          `  last failure: ${job.lastFailure}`,
          '',
        ].join('\n'),
      );
    return 0;
  } finally {
    await store.close();
  }
}

if (isEntryPoint(import.meta.url)) runCli(main);
