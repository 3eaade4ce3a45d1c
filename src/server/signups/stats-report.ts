// Turns sign-up figures and the page funnel into the plain-text report `sudo scamsavvy signups:stats` prints.
import { SCROLL_THRESHOLDS, type ScrollPercentage } from '../../shared/analytics-events.js';
import { firstDay } from '../db/utc-days.js';
import type { CountedLabel, SignupStats } from '../db/signups-repository.js';
import type { FunnelDay } from '../db/events-repository.js';
import { number } from '../../shared/plain-numbers.js';
import { DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, type Language } from '../../shared/languages.js';

const BAR_WIDTH = 40;
/** 1,234: figures as the owner's commands and pages print them. */
/** A share of a whole, rounded: "25%"; "0%" of nothing. */
export const percent = (part: number, whole: number) => (whole === 0 ? '0%' : `${Math.round((part / whole) * 100)}%`);

/** The UTC days (YYYY-MM-DD) of the window, oldest first. */
function windowDays(now: Date, days: number): string[] {
  const start = new Date(`${firstDay(now, days)}T00:00:00Z`);
  return Array.from({ length: days }, (_, index) =>
    new Date(start.getTime() + index * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Every day of the window, oldest first, with 0 for days that had no sign-ups. */
export function fillDays(byDay: CountedLabel[], now: Date, days: number): CountedLabel[] {
  const counts = new Map(byDay.map((day) => [day.label, day.count]));
  return windowDays(now, days).map((label) => ({ label, count: counts.get(label) ?? 0 }));
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
  const throughFamily = new Map(stats.throughFamilyByDay.map((day) => [day.label, day.count]));
  const busiest = Math.max(1, ...daysFilled.map((day) => day.count));
  const countWidth = Math.max(...daysFilled.map((day) => number(day.count).length));
  const lines = [
    `ScamSavvy sign-ups, from ${where}`,
    '',
    `People on the list   ${number(stats.total)}`,
    `Sign-ups made        ${number(stats.submissions)}${repeats > 0 ? ` (${number(repeats)} from people already on the list)` : ''}`,
    `Want to beta test    ${number(stats.betaTesting)} (${percent(stats.betaTesting, stats.total)} of people)`,
    `Confirmed email      ${number(stats.confirmed)} (${percent(stats.confirmed, stats.total)} of people)`,
    `Through family link  ${number(stats.throughFamily)} (${percent(stats.throughFamily, stats.total)} of people)`,
    '',
    `New people per day, last ${days} days (UTC); in brackets, how many came through a family member's link`,
    ...daysFilled.map((day) => {
      const bar = day.count === 0 ? '' : '█'.repeat(Math.max(1, Math.round((day.count / busiest) * BAR_WIDTH)));
      const family = throughFamily.get(day.label);
      return `  ${day.label}  ${number(day.count).padStart(countWidth)}  ${bar}${family ? ` (${number(family)})` : ''}`;
    }),
    '',
    'Top sources (utm_source, else the referring site)',
    ...table(stats.topSources, stats.total),
    '',
    'Top campaigns (utm_campaign)',
    ...table(stats.topCampaigns, stats.total),
    '',
    'People by language (the page they signed up on; their messages go in it)',
    ...table(
      stats.byLanguage.map(({ language, count }) => ({ label: LANGUAGE_NAMES[language].english, count })),
      stats.total,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** A day of the funnel with nothing counted. */
export function emptyFunnelDay(day: string): FunnelDay {
  return {
    day,
    landingViews: 0,
    dialogOpens: 0,
    signups: 0,
    formFailures: 0,
    downloadIntents: 0,
    shares: 0,
    scrollDepth: { 25: 0, 50: 0, 75: 0, 100: 0 },
  };
}

/** Every day of the window, oldest first, with zeros for days without events. */
export function fillFunnelDays(funnel: FunnelDay[], now: Date, days: number): FunnelDay[] {
  const byDay = new Map(funnel.map((day) => [day.day, day]));
  return windowDays(now, days).map((day) => byDay.get(day) ?? emptyFunnelDay(day));
}

/** One row per day, each language's events added together (the funnel read `byLanguage`). */
export function acrossLanguages(funnel: FunnelDay[]): FunnelDay[] {
  const days = new Map<string, FunnelDay[]>();
  for (const row of funnel) days.set(row.day, [...(days.get(row.day) ?? []), row]);
  return [...days.entries()].map(([day, rows]) => ({ ...totalFunnel(rows), day }));
}

/** The window's totals for each language that has events, in the order of LANGUAGES. */
export function funnelByLanguage(funnel: FunnelDay[]): { language: Language; total: FunnelDay }[] {
  return LANGUAGES.flatMap((language) => {
    const rows = funnel.filter((row) => (row.language ?? DEFAULT_LANGUAGE) === language);
    return rows.length === 0 ? [] : [{ language, total: totalFunnel(rows) }];
  });
}

/** The window's totals, labelled "Total"; shares are then worked out from the totals, not averaged. */
export function totalFunnel(days: FunnelDay[]): FunnelDay {
  return days.reduce((total, day) => {
    const scrollDepth = { ...total.scrollDepth };
    for (const threshold of SCROLL_THRESHOLDS) scrollDepth[threshold] += day.scrollDepth[threshold];
    return {
      day: total.day,
      landingViews: total.landingViews + day.landingViews,
      dialogOpens: total.dialogOpens + day.dialogOpens,
      signups: total.signups + day.signups,
      formFailures: total.formFailures + day.formFailures,
      downloadIntents: total.downloadIntents + day.downloadIntents,
      shares: total.shares + day.shares,
      scrollDepth,
    };
  }, emptyFunnelDay('Total'));
}

/** part/whole as a percentage, or "-" when there is nothing to divide by (no views that day). */
function share(part: number, whole: number, decimals = 0): string {
  return whole === 0 ? '-' : `${((part / whole) * 100).toFixed(decimals)}%`;
}

/** A count and its share of the day's views, aligned in both parts; no share on a day without views. */
function scrollCell(day: FunnelDay, threshold: ScrollPercentage, countWidth: number): string {
  const reached = day.scrollDepth[threshold];
  const ofViews = day.landingViews === 0 ? '' : share(reached, day.landingViews);
  return `${number(reached).padStart(countWidth)} ${ofViews.padStart(4)}`;
}

/** Rows under headers, two spaces apart: the first column left-aligned, the figures right-aligned. */
function grid(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const align = (text: string, column: number) =>
    column === 0 ? text.padEnd(widths[0] ?? 0) : text.padStart(widths[column] ?? 0);
  return [headers, ...rows].map((cells) => `  ${cells.map(align).join('  ')}`.trimEnd());
}

/**
 * The page funnel for the window: one table of views, sign-up steps and downloads, one of scroll
 * depth, each with a total row. Both fit an 80-column terminal.
 */
export function formatFunnelReport(rows: FunnelDay[], { now, days }: { now: Date; days: number }): string {
  if (rows.length === 0) return `Page funnel per day: no first-party page events in the last ${days} days.\n`;
  const funnel = acrossLanguages(rows);
  const filled = fillFunnelDays(funnel, now, days);
  const table = [...filled, totalFunnel(filled)];
  const countWidth = Math.max(
    ...table.flatMap((day) => SCROLL_THRESHOLDS.map((threshold) => number(day.scrollDepth[threshold]).length)),
  );
  const lines = [
    `Page funnel per day (first-party events, UTC), last ${days} days`,
    ...grid(
      ['Day', 'Views', 'Opens', 'Sign-ups', 'Conversion', 'Form errors', 'Downloads', 'Shares'],
      table.map((day) => [
        day.day,
        number(day.landingViews),
        number(day.dialogOpens),
        number(day.signups),
        share(day.signups, day.landingViews, 1),
        number(day.formFailures),
        number(day.downloadIntents),
        number(day.shares),
      ]),
    ),
    '  Views: landing-page views. Opens: sign-up form opened. Conversion: sign-ups',
    '  per view. Form errors: submissions that failed. Downloads: app-store buttons.',
    '  Shares: links passed on with "Tell a family member" (after joining, or from',
    '  the preferences page).',
    '',
    'Scroll depth on the landing page (times each mark was reached, share of views)',
    ...grid(
      ['Day', ...SCROLL_THRESHOLDS.map((threshold) => `Reached ${threshold}%`)],
      table.map((day) => [day.day, ...SCROLL_THRESHOLDS.map((threshold) => scrollCell(day, threshold, countWidth))]),
    ),
    '',
    `Page funnel by language (English page /, Spanish page /es/), last ${days} days`,
    ...grid(
      ['Language', 'Views', 'Opens', 'Sign-ups', 'Conversion', 'Form errors', 'Downloads', 'Shares'],
      funnelByLanguage(rows).map(({ language, total }) => [
        LANGUAGE_NAMES[language].english,
        number(total.landingViews),
        number(total.dialogOpens),
        number(total.signups),
        share(total.signups, total.landingViews, 1),
        number(total.formFailures),
        number(total.downloadIntents),
        number(total.shares),
      ]),
    ),
  ];
  return `${lines.join('\n')}\n`;
}
