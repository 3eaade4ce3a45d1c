// The one sender of webhook deliveries (issue 56, docs/webhooks.md). Each run reads the consent
// history on for new events, then claims the due deliveries from the one outbox (db/outbox-claims.ts
// claimWebhooks) and posts each, signed as Standard Webhooks 1.0 says: webhook-id (the event's, the
// same on every try), webhook-timestamp and webhook-signature (v1, HMAC-SHA256 over id.timestamp.body
// with the endpoint's whsec_ secret). What became of each is recorded with the one record.
// Whose fault a failed delivery is, is plain: always the endpoint's (no person is ever marked by it).
// It is tried again with back-off for over a day; then, or at once on 410 Gone, the endpoint is paused
// with the reason, its deliveries kept until the owner resumes it. A person's details go only to an
// endpoint made with --with-personal-data, read as they are when the delivery goes (a person deleted
// since is sent by id alone).
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../db/open-database.js';
import type { WebhookClaim } from '../db/outbox-claims.js';
import type { Outcome } from '../db/outbox-rows.js';
import type { WebhookEndpoint, WebhookEvent } from '../db/webhooks-repository.js';
import { withoutAddresses } from '../messaging/log-safe.js';
import { plural } from '../../shared/plain-numbers.js';
import { eventsOfConsentLine } from './webhook-events.js';
import { slackText, type BroadcastFacts } from './slack-message.js';

/** The waits between tries: Standard Webhooks' schedule, 8 tries over about 27 hours. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
/** A line of the consent history is read once it is this old (one still being written may take a lower id). */
export const CONSENT_SETTLE_MS = 1_000;
/** How long an endpoint has to answer. */
export const ANSWER_TIMEOUT_MS = 10_000;
/** A claimed delivery is another sender's to take after this long (its sender died). */
const LEASE_MS = 5 * 60_000;
/** Claimed at a time: each slow endpoint costs one try of ANSWER_TIMEOUT_MS a run, well within the lease. */
const BATCH = 10;
const HOLDER = `webhooks:${randomUUID()}`;
/** A paused endpoint's delivery claimed before the pause waits for the resume (which makes it due). */
const UNTIL_RESUMED_MS = 365 * 24 * 3_600_000;

export interface WebhookSenderOptions {
  db: Pick<Db, 'webhooks' | 'outbox' | 'subscribers' | 'signups'>;
  logger: FastifyBaseLogger;
  now?: () => Date;
  /** The network's edge: tests bring their own servers, never a stand-in for this code. */
  fetch?: typeof fetch;
  /** Told when a reading made deliveries to send (the server wakes the delivering job). */
  onEvents?: () => void;
}

export interface DeliveryResult {
  ok: boolean;
  /** The answer, for the owner: "200", "answered 503", "no answer in 10 s". */
  answer: string;
  status?: number;
}

export class WebhookSender {
  private readonly now: () => Date;
  private readonly fetch: typeof fetch;
  /** Whether the last run found an endpoint: until one is made, a sign-up wakes nothing here. */
  endpointsSeen = false;

  constructor(private readonly options: WebhookSenderOptions) {
    this.now = options.now ?? (() => new Date());
    this.fetch = options.fetch ?? fetch;
  }

  /** The job webhook-events (one instance): new events from the consent history. */
  async readEvents(): Promise<string | undefined> {
    const { db } = this.options;
    // Without an endpoint nothing is read or written: a busy database is not touched for nothing.
    // Nothing done says nothing, so a run a sign-up woke writes no record of itself (jobs/job-runner.ts).
    this.endpointsSeen = await db.webhooks.anyLive();
    if (!this.endpointsSeen) return undefined;
    let read = 0;
    let queued = 0;
    for (;;) {
      const done = await db.webhooks.readConsent(
        new Date(this.now().getTime() - CONSENT_SETTLE_MS),
        500,
        eventsOfConsentLine,
      );
      read += done.lines;
      queued += done.queued;
      if (done.lines < 500) break;
    }
    if (queued > 0) this.options.onEvents?.();
    return read === 0
      ? undefined
      : `read ${plural(read, 'consent line')}, ${plural(queued, 'delivery', 'deliveries')} queued`;
  }

  /** The job webhooks (every instance, each claiming its own): every due delivery. */
  async deliver(): Promise<string | undefined> {
    const { db } = this.options;
    if (!(await db.webhooks.anyLive())) return undefined;
    let sent = 0;
    let failed = 0;
    // An endpoint that did not take a delivery this run is tried once: what else it has due waits,
    // untried, until that delivery's next try, so one endpoint down never holds up the others.
    const waiting = new Map<number, Date>();
    for (;;) {
      const claims = await db.outbox.claimWebhooks(HOLDER, BATCH, LEASE_MS);
      if (claims.length === 0) break;
      for (const claim of claims) {
        const until = waiting.get(claim.endpointId);
        if (until) {
          await db.outbox.record(HOLDER, [{ id: claim.id, result: 'wait', until }]);
          failed += 1;
          continue;
        }
        const outcome = await this.deliverClaimed(claim);
        if (outcome.result === 'sent') sent += 1;
        else if (outcome.result === 'failed') {
          failed += 1;
          waiting.set(claim.endpointId, outcome.next ?? new Date(this.now().getTime() + UNTIL_RESUMED_MS));
        }
      }
      if (claims.length < BATCH) break;
    }
    if (sent + failed === 0) return undefined;
    return `${plural(sent, 'delivery', 'deliveries')} made, ${failed} to try again`;
  }

  /** Sends one event to one endpoint now, outside the outbox (the owner's test), and says what came back. */
  async sendTest(endpoint: WebhookEndpoint & { secret: string }): Promise<DeliveryResult> {
    const event: WebhookEvent = {
      id: 0,
      type: 'webhook.test',
      data: { note: 'A test the owner sent. It names no person.' },
      createdAt: this.now().toISOString(),
    };
    return this.post(endpoint, `test_${randomUUID()}`, (await this.body(endpoint, event)) ?? '{}');
  }

  /** `next`: when a delivery that failed is tried again (none: its endpoint is paused now). */
  private async deliverClaimed(
    claim: WebhookClaim,
  ): Promise<{ result: 'sent' | 'ended' } | { result: 'failed'; next: Date | null }> {
    const { db, logger } = this.options;
    const record = (outcome: Outcome) => db.outbox.record(HOLDER, [outcome]);
    const [endpoint, event] = await Promise.all([
      db.webhooks.forSending(claim.endpointId),
      db.webhooks.event(claim.eventId),
    ]);
    if (!endpoint || endpoint.deleted || !event) {
      await record({ id: claim.id, result: 'skipped', error: 'its endpoint was deleted' });
      return { result: 'ended' };
    }
    if (endpoint.pausedAt) {
      await record({ id: claim.id, result: 'wait', until: new Date(this.now().getTime() + UNTIL_RESUMED_MS) });
      return { result: 'ended' };
    }
    const body = await this.body(endpoint, event);
    if (body === undefined) {
      await record({ id: claim.id, result: 'skipped', error: 'Slack is not told of this event' });
      return { result: 'ended' };
    }
    const result = await this.post(endpoint, `evt_${event.id}`, body);
    if (result.ok) {
      await record({ id: claim.id, result: 'sent' });
      return { result: 'sent' };
    }
    const gone = result.status === 410 || (endpoint.kind === 'slack' && result.status === 404);
    const delay = gone ? undefined : RETRY_DELAYS_MS[claim.attempts - 1];
    const next = delay === undefined ? null : new Date(this.now().getTime() + delay);
    await record({ id: claim.id, result: 'temporary', error: result.answer, retryAt: next, kind: 'unknown' });
    if (delay === undefined) {
      const reason = gone
        ? `It answered ${result.status}: the address is gone. Check it, then resume.`
        : `No delivery was accepted for over a day (last: ${result.answer}). Check it, then resume.`;
      await db.webhooks.pause(endpoint.id, reason);
      logger.warn({ endpoint: endpoint.name, reason }, 'paused a webhook endpoint');
    }
    return { result: 'failed', next };
  }

  /** The body for this endpoint: the event as Standard Webhooks' payload, or Slack's words. */
  private async body(endpoint: WebhookEndpoint, event: WebhookEvent): Promise<string | undefined> {
    if (endpoint.kind === 'slack') {
      const text = slackText(event.type, await this.slackFacts(event));
      return text === undefined ? undefined : JSON.stringify({ text });
    }
    const data: Record<string, unknown> = { ...event.data };
    if (endpoint.withPersonalData && event.signupId) {
      const person = await this.options.db.subscribers.subscriber(event.signupId);
      if (person)
        data.person = { name: person.name, email: person.email, phone: person.phone, language: person.language };
    }
    return JSON.stringify({ type: event.type, timestamp: event.createdAt, data });
  }

  private async slackFacts(event: WebhookEvent): Promise<Parameters<typeof slackText>[1]> {
    const { db } = this.options;
    if (event.type === 'signup.created') {
      const now = this.now();
      const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      return { growth: await db.signups.growth(dayStart) };
    }
    if (!event.type.startsWith('broadcast.')) return {};
    const broadcast = event.data as unknown as BroadcastFacts & { broadcastId: number };
    if (event.type !== 'broadcast.completed') return { broadcast };
    const counts = await db.outbox.counts(broadcast.broadcastId);
    return { broadcast: { ...broadcast, sent: counts.sent, notSent: counts.total - counts.sent } };
  }

  private async post(
    endpoint: WebhookEndpoint & { secret: string },
    id: string,
    body: string,
  ): Promise<DeliveryResult> {
    const at = this.now();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'ScamSavvy-Webhooks/1.0',
    };
    if (endpoint.kind === 'standard') {
      headers['webhook-id'] = id;
      headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
      headers['webhook-signature'] = new Webhook(endpoint.secret).sign(id, at, body);
    }
    try {
      const response = await this.fetch(endpoint.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      // The answer's body is not read: nothing an endpoint says can hold the sender up.
      await response.body?.cancel().catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return { ok, status: response.status, answer: ok ? String(response.status) : `answered ${response.status}` };
    } catch (error) {
      const name = (error as Error)?.name;
      const answer =
        name === 'TimeoutError'
          ? `no answer in ${ANSWER_TIMEOUT_MS / 1000} s`
          : withoutAddresses(connectionProblem(error));
      return { ok: false, answer: answer.slice(0, 300) };
    }
  }
}

/** Why a connection failed, as plainly as the error says it: its code (ECONNREFUSED), else its words. */
function connectionProblem(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } })?.cause;
  return String(cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error)?.message ?? error);
}
