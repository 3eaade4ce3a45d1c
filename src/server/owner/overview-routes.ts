// The dashboard's first page, /owner: sign-ups by day, the funnel, the top sources and campaigns.
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/open-database.js';
import { html } from '../html-reply.js';
import { overviewPage, type BackupsSummary } from './overview-page.js';
import { ownerOf, requireOwner } from './require-owner.js';
import { jobStatuses } from '../jobs/job-status.js';

export interface OverviewRouteOptions {
  signups: Db['signups'];
  events: Db['events'];
  owners: Db['owners'];
  /** What came back after sends (the list's health); absent in tests that do not need it. */
  messageHealth?: Pick<Db['messageHealth'], 'listHealth'> | undefined;
  siteUrl: string;
  /** EMAIL_CONFIRMATION is on: a share confirmed means something. */
  confirmationOn: boolean;
  /** The backup record, and the automatic backups' settings (BACKUP_DIR) when they are on. */
  backups?: { runs: Pick<Db['backupRuns'], 'status'>; schedule?: BackupsSummary['schedule'] } | undefined;
  /** The recurring jobs' record (jobs/job-runner.ts). */
  jobs?: Pick<Db['backgroundJobs'], 'list'> | undefined;
}

/** The days the overview's chart and funnel cover, and how many sources and campaigns it lists. */
const OVERVIEW_DAYS = 30;
const OVERVIEW_TOP = 10;

export const overviewRoutes: FastifyPluginAsync<OverviewRouteOptions> = async (
  app,
  { signups, events, owners, messageHealth, siteUrl, confirmationOn, backups, jobs },
) => {
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };

  app.get('/owner', page, async (request, reply) => {
    const now = new Date();
    const [stats, funnel, health, backupStatus, jobRecords] = await Promise.all([
      signups.stats({ days: OVERVIEW_DAYS, top: OVERVIEW_TOP, now }),
      events.funnel({ days: OVERVIEW_DAYS, now, byLanguage: true }),
      messageHealth?.listHealth(new Date(now.getTime() - OVERVIEW_DAYS * 86_400_000).toISOString()),
      backups?.runs.status(),
      jobs?.list(),
    ]);
    return html(
      reply,
      overviewPage({
        stats,
        funnel,
        days: OVERVIEW_DAYS,
        now,
        ownerEmail: ownerOf(request).email,
        confirmationOn,
        ...(health ? { health } : {}),
        ...(jobRecords ? { jobs: jobStatuses(jobRecords) } : {}),
        ...(backups && backupStatus
          ? { backups: { status: backupStatus, ...(backups.schedule ? { schedule: backups.schedule } : {}) } }
          : {}),
      }),
    );
  });
};
