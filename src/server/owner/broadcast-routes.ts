// Launch day from the browser, /owner/broadcasts: each broadcast's page and progress (with the
// channels a failure of ours paused, and why), and its buttons (a test message, send, pause, resume,
// try the failed ones again), each behind a question page and a POST.
import type { FastifyPluginAsync } from 'fastify';
import { broadcastProgress } from '../broadcast/broadcast-progress.js';
import type { BroadcastControl } from '../broadcast/broadcast-control.js';
import { notSetUp } from '../broadcast/channel-setup.js';
import type { Owner } from '../db/owner-repository.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import type { BroadcastDb, Db } from '../db/open-database.js';
import {
  BROADCAST_ACTIONS,
  broadcastMissingPage,
  broadcastPage,
  broadcastsPage,
  confirmActionPage,
  NOT_READY_FIELD,
  stateWord,
  type BroadcastAction,
} from './broadcast-pages.js';
import { HELD_FIELD, retryQuestionPage, UNDELIVERABLE_FIELD } from './broadcast-retry-page.js';
import { maskAddress } from '../messaging/mask-email.js';
import { folderPath, writtenMessages } from '../messaging/message-folder.js';
import { maskedOnly } from './masked-address.js';
import { fieldOf, html } from '../html-reply.js';
import { ownerWords } from './owner-words.js';
import { ownerOf, requireOwner } from './require-owner.js';

export interface BroadcastRouteOptions {
  /** The broadcasts, their senders, pauses and outbox. */
  db: BroadcastDb;
  /** What came back about each broadcast's messages (its health); absent in tests that do not need it. */
  messageHealth?: Pick<Db['messageHealth'], 'health'> | undefined;
  owners: Db['owners'];
  siteUrl: string;
  /** Launch day from the browser; absent without SECRET_KEY (nothing can be sent then). */
  control?: BroadcastControl | undefined;
  /** The owner's script (/assets/owner-….js), from the build's manifest; absent in API tests. */
  script?: string | undefined;
  /** The rehearsal transports' folders (MAIL_TRANSPORT, SMS_TRANSPORT set to folder:PATH): listed on the page. */
  rehearsal?: { email?: string; sms?: string } | undefined;
}

/** How many of the newest files of each rehearsal folder the page lists. */
const REHEARSAL_LISTED = 20;

type BroadcastParams = {
  Params: { name: string; action?: string };
  Querystring: { to?: string; done?: string; queued?: string; left?: string };
};

const isAction = (value: string | undefined): value is BroadcastAction =>
  (BROADCAST_ACTIONS as readonly string[]).includes(value ?? '');

/** A count the server put in the address (after a retry); anything else is no count at all. */
const countOf = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : undefined;

export const broadcastRoutes: FastifyPluginAsync<BroadcastRouteOptions> = async (
  app,
  { db, messageHealth, owners, siteUrl, control, script, rehearsal = {} },
) => {
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };
  // The progress the page's script polls every 2 s: data, so refused with 401 rather than a redirect,
  // and a tab left open must not keep its session alive for ever.
  const poll = { preHandler: requireOwner({ owners, siteUrl, refuse: '401', background: true }) };
  const words = ownerWords.broadcasts;

  /** A broadcast's page with its progress now, and what just happened or went wrong. */
  const pageOf = async (
    owner: Owner,
    broadcast: Broadcast,
    said: { notice?: string | undefined; problem?: string | undefined },
  ) =>
    broadcastPage({
      ownerEmail: owner.email,
      broadcast,
      progress: await broadcastProgress(db, broadcast, new Date(), messageHealth),
      skipped: await db.outbox.skippedReasons(broadcast.id),
      ...(control
        ? {
            retry: await control.failed.plan(broadcast),
            held: await control.failed.held(broadcast),
            refused: await control.refusedForOurSending(broadcast),
          }
        : {}),
      ...(script ? { script } : {}),
      ...(said.notice ? { notice: said.notice } : {}),
      ...(said.problem ? { problem: said.problem } : {}),
    });

  app.get('/owner/broadcasts', page, async (request, reply) => {
    const all = await db.broadcasts.list();
    const broadcasts = await Promise.all(
      all.map(async (broadcast) => ({
        broadcast,
        progress: await broadcastProgress(db, broadcast, new Date(), messageHealth),
      })),
    );
    const folders = await Promise.all(
      (['email', 'sms'] as const).flatMap((channel) => {
        const folder = rehearsal[channel];
        return folder === undefined
          ? []
          : [
              writtenMessages(folder, REHEARSAL_LISTED).then((written) => ({
                channel,
                folder: folderPath(folder),
                ...written,
              })),
            ];
      }),
    );
    return html(reply, broadcastsPage({ ownerEmail: ownerOf(request).email, broadcasts, rehearsal: folders }));
  });

  app.get<BroadcastParams>('/owner/broadcasts/:name', page, async (request, reply) => {
    const owner = ownerOf(request);
    const broadcast = await db.broadcasts.get(request.params.name);
    if (!broadcast) return html(reply, broadcastMissingPage(owner.email), 404);
    const { done, queued, left } = request.query;
    const notice =
      done === 'test' && maskedOnly(request.query.to)
        ? words.doneTest(maskedOnly(request.query.to) ?? '')
        : done === 'send' || done === 'resume' || done === 'pause'
          ? words.done[done]
          : done === 'retry' && countOf(queued) !== undefined
            ? words.doneRetry(countOf(queued) ?? 0, countOf(left) ?? 0, (await db.broadcasts.state(broadcast.id)) ?? '')
            : undefined;
    const missing = control?.missingChannels(broadcast) ?? [];
    const problem = !control ? words.noSecretKey : missing.length > 0 ? notSetUp(missing) : undefined;
    return html(reply, await pageOf(owner, broadcast, { notice, problem }));
  });

  app.get<BroadcastParams>('/owner/broadcasts/:name/progress', poll, async (request, reply) => {
    const broadcast = await db.broadcasts.get(request.params.name);
    if (!broadcast) return reply.code(404).send({ error: { code: 'not_found', message: 'No such broadcast.' } });
    const progress = await broadcastProgress(db, broadcast, new Date(), messageHealth);
    return reply.send({ ...progress, stateLabel: stateWord(progress.state) });
  });

  app.get<BroadcastParams>('/owner/broadcasts/:name/:action', page, async (request, reply) => {
    const owner = ownerOf(request);
    const { action } = request.params;
    const broadcast = await db.broadcasts.get(request.params.name);
    if (!broadcast || !isAction(action)) return html(reply, broadcastMissingPage(owner.email), 404);
    const to = (request.query.to ?? '').trim();
    const back = () => reply.redirect(`/owner/broadcasts/${encodeURIComponent(broadcast.name)}`, 303);
    if (action === 'test' && !to) return back();
    if (action === 'retry') {
      // What would go again is the control's to say; without SECRET_KEY the broadcast's page says why not.
      if (!control) return back();
      return html(
        reply,
        retryQuestionPage({ ownerEmail: owner.email, broadcast, plan: await control.failed.plan(broadcast) }),
      );
    }
    const counts = await db.outbox.counts(broadcast.id);
    // Send and Resume lift what a failure of ours paused, once the providers answer: say so first.
    const paused =
      action !== 'pause' && action !== 'test' && (await db.broadcastPauses.channelPauses(broadcast.id)).length > 0;
    const question =
      action === 'test'
        ? words.confirm.test(to)
        : action === 'send'
          ? words.confirm.send(broadcast.name, counts.total)
          : action === 'resume'
            ? words.confirm.resume(broadcast.name)
            : words.confirm.pause(broadcast.name);
    // A first send waits for the launch checks: the question names the red ones and offers to go anyway.
    const red = action === 'send' && broadcast.state === 'ready' && control ? await control.redChecks() : [];
    return html(
      reply,
      confirmActionPage({
        ownerEmail: owner.email,
        broadcast,
        action,
        question,
        ...(paused ? { hint: words.confirm.resumePaused } : {}),
        ...(to ? { to } : {}),
        ...(red.length > 0 ? { red } : {}),
      }),
    );
  });

  app.post<BroadcastParams>('/owner/broadcasts/:name/:action', page, async (request, reply) => {
    const owner = ownerOf(request);
    const { action } = request.params;
    const broadcast = await db.broadcasts.get(request.params.name);
    if (!broadcast || !isAction(action)) return html(reply, broadcastMissingPage(owner.email), 404);
    const back = (query: string) =>
      reply.redirect(`/owner/broadcasts/${encodeURIComponent(broadcast.name)}?${query}`, 303);
    if (!control) return back('');
    const to = fieldOf(request.body, 'to');
    // A test written to a rehearsal folder says so in the audit log (the launch checks do not count it).
    const rehearsed = to.includes('@') ? rehearsal.email : rehearsal.sms;
    let detail = ownerWords.audit.broadcastDetail(
      action,
      action === 'test' ? maskAddress(to) : '',
      rehearsed !== undefined,
    );
    let query = action === 'test' ? `done=test&to=${encodeURIComponent(maskAddress(to))}` : `done=${action}`;
    try {
      if (action === 'test') await control.test(broadcast, to);
      else if (action === 'pause') await control.pause(broadcast);
      else if (action === 'retry') {
        const includeUndeliverable = fieldOf(request.body, UNDELIVERABLE_FIELD) === 'yes';
        const held = fieldOf(request.body, HELD_FIELD) === 'yes';
        const done = await control.failed.retry(broadcast, { includeUndeliverable, held });
        const queued = done.retryable + (includeUndeliverable ? done.undeliverable : 0) + (held ? done.held : 0);
        const leftOut = includeUndeliverable ? 0 : done.undeliverable;
        detail = ownerWords.audit.retryDetail(queued, done.undeliverable, includeUndeliverable, done.held, held);
        query = `done=retry&queued=${queued}&left=${leftOut}`;
      } else {
        const despite = await control.send(broadcast, { notReady: fieldOf(request.body, NOT_READY_FIELD) === 'yes' });
        if (despite.length > 0)
          detail = `${detail}; ${ownerWords.audit.notReadyDetail(despite.map((one) => one.title))}`;
      }
    } catch (error) {
      return html(reply, await pageOf(owner, broadcast, { problem: (error as Error).message }), 409);
    }
    await owners.audit({ ownerEmail: owner.email, action: 'broadcast', subject: broadcast.name, detail });
    return back(query);
  });
};
