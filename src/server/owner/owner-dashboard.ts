// The owner's pages under /owner (docs/owner-guide.md, decision 024), put together: the scope they
// share (cookies, forms, headers) and the route groups, each handed only what it uses. Only the
// sign-in pages answer without a session; every other route runs requireOwner, and start-up fails
// if one does not. Every change is a POST from one of our own pages; nothing here is cached by
// anyone or indexed.
import { consentProof } from '../consent/consent-proof.js';
import cookie from '@fastify/cookie';
import formBody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { BroadcastControl } from '../broadcast/broadcast-control.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import type { BroadcastDb, Db } from '../db/open-database.js';
import { auditRoutes } from './audit-routes.js';
import { apiKeyRoutes } from './api-keys-routes.js';
import { webhookRoutes } from './webhooks-routes.js';
import { repliesRoutes } from './replies-routes.js';
import { broadcastRoutes } from './broadcast-routes.js';
import { readyRoutes } from './ready-routes.js';
import type { ReadyCheck } from '../ready/ready-check.js';
import { exportRoutes } from './export-routes.js';
import { launchStanding } from '../consent/launch-standing.js';
import { SIGN_IN_PATH } from './owner-auth.js';
import { signInRoutes } from './owner-sign-in-routes.js';
import { suppressionRoutes } from './suppressions-routes.js';
import { WayBack, type WayBackStores } from '../suppressions/way-back.js';
import { overviewRoutes } from './overview-routes.js';
import { peopleRoutes } from './people-routes.js';
import { runsRequireOwner } from './require-owner.js';
import type { SignInMailer } from './sign-in-mailer.js';

export interface OwnerDashboardOptions {
  db: Pick<
    Db,
    | 'signups'
    | 'events'
    | 'subscribers'
    | 'consentEvents'
    | 'owners'
    | 'apiKeys'
    | 'webhooks'
    | 'consentTexts'
    | 'suppressions'
  > &
    BroadcastDb &
    WayBackStores &
    Partial<Pick<Db, 'messageHealth' | 'backupRuns' | 'backgroundJobs' | 'smsReplies'>>;
  subscriptions: Subscriptions;
  /** The site's address: a POST's Origin may be it, and sign-in links point to it. */
  siteUrl: string;
  /** EMAIL_CONFIRMATION is on (with email): the overview shows the share confirmed, else says it is off. */
  confirmationOn?: boolean;
  /** Sends sign-in links; absent when email is not set up (owner:link prints one instead). */
  mailer?: SignInMailer;
  /** Launch day from the browser; absent without SECRET_KEY (nothing can be sent then). */
  control?: BroadcastControl;
  /** The owner's script (/assets/owner-….js), from the build's manifest; absent in API tests. */
  script?: string;
  /** The automatic backups' settings (BACKUP_DIR), for the overview's "Last backup"; absent while they are off. */
  backupSchedule?: { everyHours: number; keep: number; dir: string };
  /** The launch checks now, for the "Ready for launch" page; absent, the page is not served. */
  readyChecks?: () => Promise<ReadyCheck[]>;
  /** The rehearsal transports' folders (MAIL_TRANSPORT, SMS_TRANSPORT set to folder:PATH), listed on the launch day page. */
  rehearsal?: { email?: string; sms?: string };
  /** Told when an owner makes a webhook endpoint here, so a sign-up wakes the webhooks' reading at once. */
  onEndpointMade?: () => void;
  /** Counts a sign-in attempt against the connection's allowance (memory or Redis); false once used up. */
  allowSignIn: (request: FastifyRequest) => Promise<boolean>;
}

/** The sign-in pages: the only owner routes that answer without a session. */
const isSignInPage = (url: string) => url === SIGN_IN_PATH || url.startsWith(`${SIGN_IN_PATH}/`);

export const ownerDashboard: FastifyPluginAsync<OwnerDashboardOptions> = async (app, options) => {
  const { db, siteUrl } = options;
  const { owners } = db;
  await app.register(cookie);
  await app.register(formBody, { bodyLimit: 8 * 1024 });
  app.decorateRequest('owner', undefined);

  // Personal data: never kept by a browser's back button or any cache, never indexed, never sent on as a referrer.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex, nofollow');
    reply.header('referrer-policy', 'no-referrer');
  });

  // A route added without the session check would serve anyone: refuse to start instead.
  app.addHook('onRoute', (route) => {
    if (!isSignInPage(route.url) && !runsRequireOwner(route))
      throw new Error(`${String(route.method)} ${route.url} does not run requireOwner.`);
  });

  await app.register(signInRoutes, {
    owners,
    siteUrl,
    mailer: options.mailer,
    allowSignIn: options.allowSignIn,
  });
  await app.register(overviewRoutes, {
    signups: db.signups,
    events: db.events,
    owners,
    messageHealth: db.messageHealth,
    siteUrl,
    confirmationOn: options.confirmationOn ?? false,
    ...(db.backgroundJobs ? { jobs: db.backgroundJobs } : {}),
    ...(db.backupRuns
      ? { backups: { runs: db.backupRuns, ...(options.backupSchedule ? { schedule: options.backupSchedule } : {}) } }
      : {}),
  });
  // Where each person stands for the launch, by the senders' own rule (it reads the "no"s kept by
  // address): on their page and beside each record of the export.
  const standing = options.subscriptions.canSuppress
    ? launchStanding(options.subscriptions, db.broadcastRecipients)
    : undefined;
  await app.register(peopleRoutes, {
    people: db.subscribers,
    consentEvents: db.consentEvents,
    outbox: db.outbox,
    signups: db.signups,
    owners,
    subscriptions: options.subscriptions,
    siteUrl,
    standing,
    proof: (email) => consentProof(db, options.subscriptions, { email }),
  });
  await app.register(exportRoutes, { signups: db.signups, owners, siteUrl, standing });
  await app.register(auditRoutes, { owners, siteUrl });
  await app.register(apiKeyRoutes, { owners, apiKeys: db.apiKeys, siteUrl });
  await app.register(webhookRoutes, {
    owners,
    db,
    siteUrl,
    ...(options.onEndpointMade ? { onEndpointMade: options.onEndpointMade } : {}),
  });
  if (db.smsReplies) await app.register(repliesRoutes, { owners, replies: db.smsReplies, siteUrl });
  await app.register(suppressionRoutes, {
    owners,
    siteUrl,
    ...(options.subscriptions.canSuppress
      ? { wayBack: new WayBack(db, options.subscriptions, db.outboxRefusals) }
      : {}),
  });
  if (options.readyChecks) await app.register(readyRoutes, { owners, siteUrl, checks: options.readyChecks });
  await app.register(broadcastRoutes, {
    db,
    messageHealth: db.messageHealth,
    owners,
    siteUrl,
    control: options.control,
    script: options.script,
    rehearsal: options.rehearsal,
  });
};
