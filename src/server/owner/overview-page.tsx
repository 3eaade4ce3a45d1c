// The dashboard's first page: the same figures `sudo scamsavvy signups:stats` prints, from the same store
// queries, as figures, a chart with its table, the page's funnel and the top sources and campaigns.
import { share } from '../broadcast/broadcast-progress.js';
import { ownerWords } from './owner-words.js';
import type { CountedLabel, SignupStats } from '../db/signups-repository.js';
import type { FunnelDay } from '../db/events-repository.js';
import type { ListHealth } from '../db/message-health-repository.js';
import type { BackupStatus } from '../db/backup-runs-repository.js';
import type { SuppressionReason } from '../db/suppressions.table.js';
import { fileSize, number } from '../../shared/plain-numbers.js';
import { LANGUAGE_NAMES, LANGUAGES } from '../../shared/languages.js';
import {
  acrossLanguages,
  emptyFunnelDay,
  fillDays,
  fillFunnelDays,
  funnelByLanguage,
  percent,
  totalFunnel,
} from '../signups/stats-report.js';
import { renderOwnerPage, ScrollTable, shortTime } from './owner-layout.js';
import { SignupsChart } from './signups-chart.js';
import type { JobStatus } from '../jobs/job-status.js';

const words = ownerWords.overview;

export interface OverviewData {
  stats: SignupStats;
  funnel: FunnelDay[];
  days: number;
  now: Date;
  ownerEmail: string;
  /** EMAIL_CONFIRMATION is on: without it nobody is asked, and "0 % confirmed" would say what is not so. */
  confirmationOn: boolean;
  /** What came back after sends: the suppression list by reason, the recent bounce and complaint rates. */
  health?: ListHealth;
  /** The last backup and how the automatic ones are set (absent: the page says nothing of backups). */
  backups?: BackupsSummary;
  /** The recurring jobs, as `sudo scamsavvy jobs` prints them (absent: the page says nothing of them). */
  jobs?: JobStatus[];
}

export interface BackupsSummary {
  status: BackupStatus;
  /** BACKUP_DIR and its companions; absent while automatic backups are off. */
  schedule?: { everyHours: number; keep: number; dir: string };
}

const fileName = (file: string | null) => (file ?? '').split('/').at(-1) ?? '';

/** "Background work": each recurring job, its last run, next run and last failure (a failed last run in red). */
function JobsSection({ jobs }: { jobs: JobStatus[] }) {
  const [often, lastRun, nextRun, lastFailure] = words.jobFields;
  return (
    <section aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">{words.jobsHeading}</h2>
      <ul className="jobs">
        {jobs.map((job) => (
          <li key={job.name} data-job={job.name} data-last={job.lastOk === false ? 'failed' : 'ok'}>
            <h3>
              {job.does} <span className="figure__note">({job.name})</span>
            </h3>
            <dl>
              <dt>{often}</dt>
              <dd>{job.schedule}</dd>
              <dt>{lastRun}</dt>
              <dd className={job.lastOk === false ? 'cell--error' : undefined}>{job.lastRun}</dd>
              <dt>{nextRun}</dt>
              <dd>{job.nextRun}</dd>
              <dt>{lastFailure}</dt>
              <dd>{job.lastFailure}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Last backup: …": when, what it holds, where, and whether it was copied off the machine; a failure in red with the last good one. */
function BackupSection({ backups }: { backups: BackupsSummary }) {
  const { last, lastGood } = backups.status;
  const failed = last?.outcome === 'failed' || last?.copyOutcome === 'failed' || (!last && !backups.schedule);
  return (
    <section aria-labelledby="backup-heading">
      <h2 id="backup-heading">{words.backupHeading}</h2>
      <div
        className={failed ? 'notice notice--error' : 'notice'}
        data-backup={last?.outcome ?? (backups.schedule ? 'none' : 'off')}
      >
        <p>
          {words.lastBackup}{' '}
          {!last ? (
            words.backupNone
          ) : (
            <>
              <time dateTime={last.startedAt}>{shortTime(last.startedAt)} UTC</time>,{' '}
              {last.outcome === 'ok'
                ? words.backupOk(last.people ?? 0, fileSize(last.bytes ?? 0), fileName(last.file))
                : words.backupFailed(last.detail ?? '')}
            </>
          )}
        </p>
        {last?.outcome === 'failed' ? (
          <p>
            {lastGood
              ? words.lastGoodBackup(shortTime(lastGood.startedAt), fileName(lastGood.file))
              : words.noGoodBackup}
          </p>
        ) : null}
        {last?.copyOutcome === 'ok' ? <p>{words.copiedOff}</p> : null}
        {last?.copyOutcome === 'failed' ? <p>{words.copyFailed(last.copyDetail ?? '')}</p> : null}
        <p>
          {backups.schedule
            ? words.backupSchedule(backups.schedule.everyHours, backups.schedule.keep, backups.schedule.dir)
            : words.backupsOff}
        </p>
        <p>{words.keyWithBackups}</p>
      </div>
    </section>
  );
}

/** A table of labels and their counts: the label heads its row, the count is right-aligned. */
function CountTable({ label, columns, rows }: { label: string; columns: string[]; rows: [string, ...number[]][] }) {
  const [first, ...counts] = columns;
  return (
    <ScrollTable label={label}>
      <thead>
        <tr>
          <th scope="col">{first}</th>
          {counts.map((column) => (
            <th scope="col" className="number" key={column}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, ...values]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            {values.map((count, index) => (
              <td className="number" key={counts[index]}>
                {number(count)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

function ListHealthSection({ health, days }: { health: ListHealth; days: number }) {
  const reasons = Object.entries(health.suppressed).filter(([, count]) => (count ?? 0) > 0);
  return (
    <section>
      <h2 id="health-heading">{words.healthHeading(days)}</h2>
      <p>{words.healthIntro}</p>
      <ul className="figures">
        <li data-figure="emails">
          <span className="figure__label">{words.healthEmails}</span>
          <span className="figure__value">{number(health.messages)}</span>
        </li>
        <li data-figure="bounce-rate">
          <span className="figure__label">{words.healthBounced}</span>
          <span className="figure__value">{share(health.bounceRate)}</span>
          <span className="figure__note">{number(health.hardBounced)}</span>
        </li>
        <li data-figure="complaint-rate">
          <span className="figure__label">{words.healthComplained}</span>
          <span className="figure__value">{share(health.complaintRate)}</span>
          <span className="figure__note">{number(health.complained)}</span>
        </li>
      </ul>
      {health.authFailures.length > 0 && (
        <div className="status status--error" role="status" data-figure="auth-failures">
          <h3>{words.authFailuresHeading}</h3>
          <ul>
            {health.authFailures.map((failure) => (
              <li key={`${failure.mechanism} ${failure.domain}`}>
                {words.authFailure(failure.mechanism, failure.domain, failure.reports)}
              </li>
            ))}
          </ul>
          <p>{words.authFailuresFix}</p>
        </div>
      )}
      <h3>{words.suppressedHeading}</h3>
      {reasons.length === 0 ? (
        <p>{words.none}</p>
      ) : (
        <CountTable
          label={words.suppressedHeading}
          columns={[words.reason, words.addresses]}
          rows={reasons.map(([reason, count]) => [words.reasons[reason as SuppressionReason] ?? reason, count ?? 0])}
        />
      )}
    </section>
  );
}

/** New today, and in the last seven days counting today, from the filled days (oldest first). */
export function recentCounts(filled: CountedLabel[]): { today: number; week: number } {
  return {
    today: filled.at(-1)?.count ?? 0,
    week: filled.slice(-7).reduce((sum, day) => sum + day.count, 0),
  };
}

function TopTable({
  heading,
  column,
  rows,
  total,
}: {
  heading: string;
  column: string;
  rows: CountedLabel[];
  total: number;
}) {
  return (
    <section>
      <h2 id={`${column}-heading`}>{heading}</h2>
      {rows.length === 0 ? (
        <p>{words.none}</p>
      ) : (
        <ScrollTable label={heading}>
          <thead>
            <tr>
              <th scope="col">{column}</th>
              <th scope="col" className="number">
                {words.count}
              </th>
              <th scope="col" className="number">
                {words.share}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <td className="number">{number(row.count)}</td>
                <td className="number">{percent(row.count, total)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}

export function overviewPage({
  stats,
  funnel,
  days,
  now,
  ownerEmail,
  health,
  confirmationOn,
  backups,
  jobs,
}: OverviewData): string {
  const filled = fillDays(stats.byDay, now, days);
  const recent = recentCounts(filled);
  const inWindow = filled.reduce((sum, day) => sum + day.count, 0);
  // The funnel of both pages, then of each language's page (issue 45): every language a column.
  const total = totalFunnel(fillFunnelDays(acrossLanguages(funnel), now, days));
  const perLanguage = new Map(funnelByLanguage(funnel).map(({ language, total: sum }) => [language, sum]));
  const columns: { label: string; total: FunnelDay }[] = [
    { label: words.funnelAll, total },
    ...LANGUAGES.map((language) => ({
      label: words.funnelLanguage(LANGUAGE_NAMES[language].english),
      total: perLanguage.get(language) ?? emptyFunnelDay('Total'),
    })),
  ];
  const conversion = (sum: FunnelDay) =>
    sum.landingViews === 0 ? '–' : `${((sum.signups / sum.landingViews) * 100).toFixed(1)}%`;
  const figures: { id: string; label: string; value: string; note?: string }[] = [
    { id: 'people', label: words.people, value: number(stats.total) },
    { id: 'today', label: words.newToday, value: number(recent.today) },
    { id: 'week', label: words.newThisWeek, value: number(recent.week) },
    confirmationOn
      ? {
          id: 'confirmed',
          label: words.confirmed,
          value: percent(stats.confirmed, stats.total),
          note: number(stats.confirmed),
        }
      : { id: 'confirmed', label: words.confirmed, value: '–', note: words.confirmationOff },
    { id: 'beta', label: words.beta, value: percent(stats.betaTesting, stats.total), note: number(stats.betaTesting) },
    { id: 'submissions', label: words.submissions, value: number(stats.submissions) },
    {
      id: 'family',
      label: words.throughFamily,
      value: number(stats.throughFamily),
      note: percent(stats.throughFamily, stats.total),
    },
  ];
  const throughFamily = new Map(stats.throughFamilyByDay.map((day) => [day.label, day.count]));
  const funnelRows: { label: string; value: (sum: FunnelDay) => string }[] = [
    { label: words.funnelViews, value: (sum) => number(sum.landingViews) },
    { label: words.funnelOpens, value: (sum) => number(sum.dialogOpens) },
    { label: words.funnelSignups, value: (sum) => number(sum.signups) },
    { label: words.funnelConversion, value: conversion },
    { label: words.funnelDownloads, value: (sum) => number(sum.downloadIntents) },
    { label: words.funnelShares, value: (sum) => number(sum.shares) },
  ];
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'overview' },
    <>
      <h1>{words.heading}</h1>
      <ul className="figures">
        {figures.map((figure) => (
          <li key={figure.id} data-figure={figure.id}>
            <span className="figure__label">{figure.label}</span>
            <span className="figure__value">{figure.value}</span>
            {figure.note ? <span className="figure__note">{figure.note}</span> : null}
          </li>
        ))}
      </ul>
      {backups ? <BackupSection backups={backups} /> : null}
      <section>
        <h2 id="chart-heading">{words.chartHeading(days)}</h2>
        <SignupsChart days={filled} label={words.chartLabel(days, inWindow)} />
        <details>
          <summary>{words.chartTable}</summary>
          <CountTable
            label={words.chartTable}
            columns={[words.day, words.newPeople, words.newThroughFamily]}
            rows={filled.map((day) => [day.label, day.count, throughFamily.get(day.label) ?? 0])}
          />
        </details>
      </section>
      {/* Full width: a column for both pages and one for each language's (issue 45). */}
      <section>
        <h2 id="funnel-heading">{words.funnelHeading(days)}</h2>
        <ScrollTable label={words.funnelHeading(days)}>
          <thead>
            <tr>
              <th scope="col">{words.funnelWhat}</th>
              {columns.map((column) => (
                <th scope="col" className="number" key={column.label}>
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {funnelRows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {columns.map((column) => (
                  <td className="number" key={column.label}>
                    {row.value(column.total)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>
      <div className="two-columns">
        <TopTable heading={words.sourcesHeading} column={words.source} rows={stats.topSources} total={stats.total} />
        <TopTable
          heading={words.campaignsHeading}
          column={words.campaign}
          rows={stats.topCampaigns}
          total={stats.total}
        />
      </div>
      <div className="two-columns">
        <TopTable
          heading={words.languagesHeading}
          column={words.language}
          rows={stats.byLanguage.map(({ language, count }) => ({ label: LANGUAGE_NAMES[language].english, count }))}
          total={stats.total}
        />
      </div>
      {health ? <ListHealthSection health={health} days={days} /> : null}
      {jobs ? <JobsSection jobs={jobs} /> : null}
    </>,
  );
}
