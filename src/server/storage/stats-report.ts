// Turns sign-up figures into the plain-text report `npm run signups:stats` prints.
import { firstDay, type CountedLabel, type SignupStats } from './signup-store.js';

const BAR_WIDTH = 40;
const number = (value: number) => value.toLocaleString('en-US');
const percent = (part: number, whole: number) => (whole === 0 ? '0%' : `${Math.round((part / whole) * 100)}%`);

/** Every day of the window, oldest first, with 0 for days that had no sign-ups. */
export function fillDays(byDay: CountedLabel[], now: Date, days: number): CountedLabel[] {
  const counts = new Map(byDay.map((day) => [day.label, day.count]));
  const start = new Date(`${firstDay(now, days)}T00:00:00Z`);
  return Array.from({ length: days }, (_, index) => {
    const label = new Date(start.getTime() + index * 86_400_000).toISOString().slice(0, 10);
    return { label, count: counts.get(label) ?? 0 };
  });
}

function table(rows: CountedLabel[], total: number): string[] {
  if (rows.length === 0) return ['  (none yet)'];
  const width = Math.max(...rows.map((row) => row.label.length));
  const countWidth = Math.max(...rows.map((row) => number(row.count).length));
  return rows.map(
    (row) =>
      `  ${row.label.padEnd(width)}  ${number(row.count).padStart(countWidth)}  ${percent(row.count, total).padStart(4)}`,
  );
}

export function formatStatsReport(
  stats: SignupStats,
  { where, now, days }: { where: string; now: Date; days: number },
): string {
  const repeats = stats.submissions - stats.total;
  const daysFilled = fillDays(stats.byDay, now, days);
  const busiest = Math.max(1, ...daysFilled.map((day) => day.count));
  const countWidth = Math.max(...daysFilled.map((day) => number(day.count).length));
  const lines = [
    `ScamSavvy sign-ups, from ${where}`,
    '',
    `People on the list   ${number(stats.total)}`,
    `Sign-ups made        ${number(stats.submissions)}${repeats > 0 ? ` (${number(repeats)} from people already on the list)` : ''}`,
    `Want to beta test    ${number(stats.betaTesting)} (${percent(stats.betaTesting, stats.total)} of people)`,
    '',
    `New people per day, last ${days} days (UTC)`,
    ...daysFilled.map((day) => {
      const bar = day.count === 0 ? '' : '█'.repeat(Math.max(1, Math.round((day.count / busiest) * BAR_WIDTH)));
      return `  ${day.label}  ${number(day.count).padStart(countWidth)}  ${bar}`;
    }),
    '',
    'Top sources (utm_source, else the referring site)',
    ...table(stats.topSources, stats.total),
    '',
    'Top campaigns (utm_campaign)',
    ...table(stats.topCampaigns, stats.total),
  ];
  return `${lines.join('\n')}\n`;
}
