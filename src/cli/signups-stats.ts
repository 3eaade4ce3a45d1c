// `sudo scamsavvy signups:stats [--days N] [--top N]`: how the sign-ups are going, as text.
import { formatFunnelReport, formatStatsReport } from '../server/signups/stats-report.js';
import { CliError, openStoreForCli, readFlags, runCli } from './cli-support.js';

const usage = `Usage: sudo scamsavvy signups:stats [--days N] [--top N]

Prints the total number of people on the list, repeats, the share who want to beta test, new
people per day as a small chart, the top sources and campaigns, and the landing page's funnel
per day from its first-party events. Reads DATABASE_URL.
  --days N   how many days the chart and the funnel cover (default 30)
  --top N    how many sources and campaigns to list (default 10)`;

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 3660)
    throw new CliError(`--${name} must be a whole number from 1 to 3660.`);
  return parsed;
}

runCli(async (argv) => {
  const flags = readFlags(argv, { days: { type: 'string' }, top: { type: 'string' } }, usage);
  if ('exitCode' in flags) return flags.exitCode;
  const { values } = flags;
  const days = positive('days', values.days, 30);
  const top = positive('top', values.top, 10);
  const { store, where } = await openStoreForCli();
  try {
    const now = new Date();
    const [stats, funnel] = await Promise.all([
      store.signups.stats({ days, top, now }),
      store.events.funnel({ days, now, byLanguage: true }),
    ]);
    process.stdout.write(
      `${formatStatsReport(stats, { where, now, days })}\n${formatFunnelReport(funnel, { now, days })}`,
    );
    return 0;
  } finally {
    await store.close();
  }
});
