// Builds the HTTP app (no listening): the one place that opens nothing but puts together what it is
// given: the site, the sign-up API, messaging's pages, the owner's dashboard, and one error handler.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { providerOrigins } from '../shared/public-config.js';
import { backupDays, type Config } from './config.js';
import { loggerOptions } from './logger.js';
import {
  apiKeyLimit,
  eventRateLimits,
  signupRateLimits,
  ownerSignInLimit,
  webhookRateLimits,
} from './request-rate-limits.js';
import { API_PREFIX, apiRoutes } from './api/api-routes.js';
import { launchStanding } from './consent/launch-standing.js';
import { CONSENT_SETTLE_MS, WebhookSender } from './webhooks/webhook-sender.js';
import { healthRoutes } from './site/health-routes.js';
import { securityHeaders } from './security-headers.js';
import { errorHandler } from './errors.js';
import { eventRoutes } from './signups/event-routes.js';
import { signupRoutes } from './signups/signup-routes.js';
import { serverPageScripts, sitePaths, siteRoutes } from './site/site-routes.js';
import { appLinkRoutes } from './site/app-link-routes.js';
import type { Db } from './db/open-database.js';
import { REPLY_KEEP_DAYS } from '../shared/kept-days.js';
import { DAY_MS } from './consent/subscriptions.js';
import type { Messaging } from './compose-messaging.js';
import { linkPageRoutes } from './consent/link-pages/link-page-routes.js';
import { LaunchMessages } from './consent/launch-message.js';
import { launchPlansOf } from './broadcast/launch-plans.js';
import { smsInboundRoutes } from './consent/sms-inbound-routes.js';
import { ownerDashboard } from './owner/owner-dashboard.js';
import type { ReadyCheck } from './ready/ready-check.js';
import type { FeedbackParts } from './compose-reports.js';
import { webhookRoutes } from './bounces/webhook-routes.js';
import type { BroadcastControl } from './broadcast/broadcast-control.js';
import type { SignInMailer } from './owner/sign-in-mailer.js';
import type { SendingThread } from './sending-thread.js';
import { JobRunner, type JobRunnerOptions } from './jobs/job-runner.js';
import { createBackupSchedule } from './backups/backup-schedule.js';
import { number, plural } from '../shared/plain-numbers.js';

export interface CreateAppOptions {
  config: Pick<Config, 'distDir' | 'logLevel' | 'rateLimit' | 'trustProxy' | 'publicConfig' | 'siteUrl' | 'launch'> &
    Partial<Pick<Config, 'backup' | 'database' | 'messaging' | 'siteFacts'>>;
  db: Db;
  /** Shared rate-limit counters (REDIS_URL); closed with the app. */
  redis?: Redis;
  /** Off for API tests that run without a build. */
  serveSite?: boolean;
  /** A logger of the caller's (tests capture lines), or false for none; by default pino with loggerOptions. */
  logger?: FastifyBaseLogger | false;
  /** Email and texts (compose.ts builds them); started when the app is ready, stopped before the database closes. */
  messaging: Messaging;
  /** The owner's dashboard: how it sends sign-in links, and launch day from the browser (needs SECRET_KEY). */
  owner?: {
    mailer?: SignInMailer;
    broadcastControl?: (logger: FastifyBaseLogger) => BroadcastControl;
    /** The launch checks, for the "Ready for launch" page. */
    readyChecks?: () => Promise<ReadyCheck[]>;
  };
  /** What comes back after a send: the providers' webhooks and Twilio's status callbacks (createFeedbackParts). */
  feedback?: FeedbackParts | undefined;
  /** Sees every route as it is registered (the owner-access test lists them all). */
  onRoute?: (route: RouteOptions) => void;
  /** Tests: another interval for a recurring job (jobs/job-list.ts). */
  jobEveryMs?: JobRunnerOptions['everyMs'];
  /** The server's: the thread its own messages are sent from (sending-thread.ts); without it, they go from here. */
  sendingThread?: SendingThread;
}

export async function createApp({
  config,
  db,
  redis,
  serveSite = true,
  logger,
  messaging,
  owner,
  feedback,
  onRoute,
  jobEveryMs,
  sendingThread,
}: CreateAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // The client's address for rate limits: the socket's, unless TRUST_PROXY names the proxies in front.
    trustProxy: config.trustProxy as boolean | string | string[], // a number (hops) is accepted too
    ...(logger === undefined
      ? { logger: loggerOptions(config.logLevel) }
      : logger === false
        ? { logger: false }
        : { loggerInstance: logger }),
    // One line per request is noise at launch-day volume; it is there at debug level.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  }) as unknown as FastifyInstance;

  if (onRoute) app.addHook('onRoute', onRoute);

  // Only JSON bodies: a form post or plain text gets 415 instead of being half-understood.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler(errorHandler);

  const origins = providerOrigins(config.publicConfig);
  const scripts = serveSite ? serverPageScripts(sitePaths(config.distDir).pagesDir) : {};
  await securityHeaders(app, {
    scriptHashes: scripts.inlineScriptHashes ?? [],
    scriptOrigins: origins.script,
    connectOrigins: origins.connect,
    imageOrigins: origins.image,
  });
  // The recurring work, each job of jobs/job-list.ts with what it runs here; started once the rest is.
  const jobs = new JobRunner({
    records: db.backgroundJobs,
    logger: app.log.child({ part: 'jobs' }),
    ...(jobEveryMs ? { everyMs: jobEveryMs } : {}),
  });
  const webhooks = new WebhookSender({
    db,
    logger: app.log.child({ part: 'webhooks' }),
    onEvents: () => jobs.wake('webhooks'),
  });
  // A stored sign-up wakes its own messages' senders, and, while there are webhook endpoints, their
  // events' reading once its consent line is settled (webhooks/webhook-sender.ts CONSENT_SETTLE_MS).
  const signupStored = () => {
    messaging.signupStored();
    if (webhooks.endpointsSeen) jobs.wake('webhook-events', CONSENT_SETTLE_MS + 50);
  };
  await app.register(healthRoutes, { db });
  const limits = await signupRateLimits(app, config.rateLimit, redis);
  await app.register(signupRoutes, {
    signups: db.signups,
    limits,
    onStored: signupStored,
    ...(config.messaging?.textHours ? { phoneCountry: config.messaging.textHours.defaultCountry } : {}),
  });
  if (messaging.links) {
    await app.register(linkPageRoutes, {
      ...(scripts.linkPage ? { script: scripts.linkPage } : {}),
      subscriptions: messaging.subscriptions,
      links: messaging.links,
      siteUrl: config.siteUrl,
      confirmationOn: messaging.confirmationOn,
      launch: new LaunchMessages(launchPlansOf(db), messaging.subscriptions, messaging.confirmationOn),
      asksPhoneByEmail: messaging.email !== undefined,
      onPhoneChangeAsked: messaging.signupStored,
      ...(messaging.buttons ? { buttons: messaging.buttons } : {}),
    });
  }
  if (messaging.sms) {
    await app.register(smsInboundRoutes, {
      sms: messaging.sms,
      subscriptions: messaging.subscriptions,
      siteUrl: config.siteUrl,
      contact: messaging.contact,
      sender: messaging.sender,
      inboundTexts: db.inboundTexts,
      replies: db.smsReplies,
      log: messaging.log,
      silent: config.messaging?.sms?.provider === 'twilio' && config.messaging.sms.keywordReplies === 'twilio',
    });
  }
  if (feedback && (feedback.webhooks.length > 0 || feedback.smsStatus)) {
    await app.register(webhookRoutes, {
      feedback: feedback.feedback,
      webhooks: feedback.webhooks,
      smsStatus: feedback.smsStatus,
      siteUrl: config.siteUrl,
      limits: webhookRateLimits(app, config.rateLimit.webhooksPerMinute ?? 0),
    });
  }
  // The API for the owner's other tools (issue 56), with keys the owner makes.
  const apiPerMinute = config.rateLimit.apiPerMinute ?? 120;
  await app.register(apiRoutes, {
    prefix: API_PREFIX,
    db,
    subscriptions: messaging.subscriptions,
    standing: messaging.subscriptions.canSuppress
      ? launchStanding(messaging.subscriptions, db.broadcastRecipients)
      : undefined,
    auth: { allow: apiKeyLimit(app, apiPerMinute, (request) => String(request.apiKey?.id)), perMinute: apiPerMinute },
    onStored: signupStored,
    phoneCountry: config.messaging?.textHours?.defaultCountry,
    siteUrl: config.siteUrl,
  });
  await app.register(eventRoutes, {
    events: db.events,
    limits: eventRateLimits(app, config.rateLimit.eventsPerMinute),
  });
  const control = owner?.broadcastControl?.(app.log);
  await app.register(ownerDashboard, {
    db,
    subscriptions: messaging.subscriptions,
    siteUrl: config.siteUrl,
    confirmationOn: messaging.confirmationOn,
    allowSignIn: ownerSignInLimit(app),
    ...(owner?.mailer ? { mailer: owner.mailer } : {}),
    ...(control ? { control } : {}),
    ...(scripts.owner ? { script: scripts.owner } : {}),
    rehearsal: rehearsalFolders(config.messaging),
    onEndpointMade: () => {
      webhooks.endpointsSeen = true;
    },
    ...(owner?.readyChecks ? { readyChecks: owner.readyChecks } : {}),
    ...(config.backup
      ? { backupSchedule: { everyHours: config.backup.everyHours, keep: config.backup.keep, dir: config.backup.dir } }
      : {}),
  });
  // /app, /app/ios, /beta/…: to the stores, in either mode (before the launch they lead home).
  await app.register(appLinkRoutes, { launch: config.launch });
  if (serveSite)
    await app.register(siteRoutes, {
      ...sitePaths(config.distDir),
      publicConfig: config.publicConfig,
      siteUrl: config.siteUrl,
      mode: config.launch.mode,
      backupDays: backupDays(config.backup),
      ...(config.siteFacts ? { siteFacts: config.siteFacts } : {}),
    });
  else
    app.setNotFoundHandler((_request, reply) =>
      reply.code(404).send({ error: { code: 'not_found', message: 'There is nothing here.' } }),
    );

  app.addHook('onReady', async () => messaging.start(app.log));
  if (feedback)
    // A report stored but not acted on (its action failed, and no retry came) is acted on within a minute or two.
    jobs.add('reports-waiting', async () => {
      const acted = await feedback.feedback.actOnWaiting();
      if (acted > 0) app.log.warn({ acted }, 'acted on reports whose first action had failed');
      return acted === 0 ? 'no report waiting' : `acted on ${plural(acted, 'report')}`;
    });
  // The bounce mailbox (BOUNCE_IMAP_URL), read by one instance, let go before the database closes.
  const mailbox = feedback?.bounceMailbox?.(app.log);
  if (mailbox)
    jobs.add('bounce-mailbox', async () => {
      const { matched, unmatched, setAside = 0 } = await mailbox.checkNow();
      if (matched + unmatched + setAside === 0) return 'the mailbox was empty';
      return `${plural(matched, 'report')} of ours, ${number(unmatched)} unmatched, ${number(setAside)} set aside`;
    });
  // Automatic backups (BACKUP_DIR), made by one instance; one under way stops with the server.
  if (config.backup && config.database) {
    const backups = createBackupSchedule({
      config: config.backup,
      database: config.database,
      runs: db.backupRuns,
      log: app.log.child({ part: 'backups' }),
    });
    jobs.add('backups', (signal) => backups.runIfDue(signal), backups.checkEveryMs);
  }
  // Launch texts held for daytime where their people are go by themselves when their hours come.
  if (control && config.messaging?.sms)
    jobs.add('waiting-texts', async () => {
      const taken = await control.sendWaitingTexts();
      return taken.length === 0 ? 'no text may go yet' : `sending the texts now due of ${taken.join(', ')}`;
    });
  // The replies nobody acted on go after the days the privacy notice names.
  if (config.messaging?.sms)
    jobs.add('replies-forgotten', async () => {
      const erased = await db.smsReplies.forgetBefore(new Date(Date.now() - REPLY_KEEP_DAYS * DAY_MS));
      return erased === 0 ? 'none to erase' : `${erased} ${erased === 1 ? 'reply' : 'replies'} erased`;
    });
  // The queue workers, in the sending thread when the server has one; a stored sign-up wakes them so
  // its messages go at once.
  for (const job of messaging.queueJobs(app.log, (name) => jobs.wake(name)))
    jobs.add(job.name, sendingThread ? sendingThread.runner(job.name) : job.run, job.everyMs);
  jobs.add('phone-changes-forgotten', () => messaging.forgetStalePhoneChanges());
  // The owner's webhook endpoints (issue 56): events read from the consent history by one instance,
  // delivered from the one outbox by every instance.
  jobs.add('webhook-events', () => webhooks.readEvents());
  jobs.add('webhooks', () => webhooks.deliver());
  const { numbersInOneForm } = messaging;
  if (numbersInOneForm) jobs.add('numbers-in-one-form', numbersInOneForm);
  const { sweepUnconfirmed } = messaging;
  // Its reminders are the one sender's too: in the sending thread, under the same channel rate.
  if (sweepUnconfirmed)
    jobs.add(
      'unconfirmed-sign-ups',
      sendingThread ? sendingThread.runner('unconfirmed-sign-ups') : () => sweepUnconfirmed(app.log),
    );
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => {
    // No job starts again; the mailbox's check under way is let finish (or cut after a grace).
    const jobsStopped = jobs.stop();
    // The sending thread's runs end with it: after what is in flight, or cut off after its grace.
    const threadStopped = sendingThread?.stop();
    await mailbox?.stop();
    await jobsStopped;
    if ((await threadStopped) === false)
      app.log.warn(
        'the sending thread was still sending when the server stopped, and was ended; a message cut off is tried again after its lease',
      );
    await control?.stop();
    owner?.mailer?.close();
    await messaging.stop();
    await db.close();
    await redis?.quit().catch(() => undefined);
  });
  return app;
}

/** The folders the rehearsal transports write to (MAIL_TRANSPORT, SMS_TRANSPORT set to folder:PATH). */
function rehearsalFolders(messaging: Config['messaging'] | undefined): { email?: string; sms?: string } {
  const email = messaging?.email?.folder;
  const sms = messaging?.sms?.provider === 'folder' ? messaging.sms.folder : undefined;
  return { ...(email === undefined ? {} : { email }), ...(sms === undefined ? {} : { sms }) };
}
