// What comes back after a send, acted on in one place (docs/messaging.md, "Hearing back"): each
// report is matched to one message by our signed token (or the provider's id for the message we
// recorded), stored once, and then: a hard bounce suppresses that email; a complaint stops all email
// to the person; three soft bounces on different sends within 30 days, with no delivery between,
// count as a bounce; a text's STOP (21610) is their STOP; an unknown number or a landline (30005,
// 30006) marks the number undeliverable; carriers filtering us (30007) pause the broadcast's texts,
// the owner's problem, not the person's. A report we cannot match to a message of ours changes
// nothing: it is kept, for the owner, never matched by a bare address.
import { classifyTwilioAnswer } from '../messaging/twilio-answers.js';
import type { SentMessage } from '../db/sent-messages-repository.js';
import type { ConsentKind } from '../db/consent-events.table.js';
import type { SuppressionReason } from '../db/suppressions.table.js';
import type { SentMessageState } from '../db/sent-messages.table.js';
import type { SignatureToken } from '../db/webhook-signatures-repository.js';
import type { BatchStores, FeedbackOptions, FeedbackOutcome } from './feedback-options.js';
import { reportedAt, type FeedbackEvent, type FeedbackKind } from './report-event.js';
import { secondOpinion } from './second-opinion.js';

/** Soft bounces on different sends, within this window and with no delivery between, make a bounce. */
export const SOFT_BOUNCES_TO_SUPPRESS = 3;
export const SOFT_BOUNCE_WINDOW_MS = 30 * 86_400_000;

/** What a report does to the message's state. */
const STATE_OF: Partial<Record<FeedbackKind, SentMessageState>> = {
  sent: 'sent',
  delivered: 'delivered',
  hard_bounce: 'bounced',
  soft_bounce: 'soft_bounced',
  complaint: 'complained',
  undeliverable: 'undeliverable',
  stop: 'stopped',
  filtered: 'filtered',
};

/** A report stored this long ago and still not acted on is acted on by the sweep (a provider's retry usually comes first). */
export const WAITING_MS = 60_000;
/** Reports written in one batch at most (the rest wait for the next). */
const MAX_BATCH = 500;
/** How long the first report of a batch waits for others (a provider's 2xx comes this much later). */
const GATHER_MS = 2;

/** Reports that only move a message's state: written many at once. */
const PROGRESS_ONLY: ReadonlySet<FeedbackKind> = new Set(['delivered', 'sent', 'queued', 'delayed']);

/** A batch once stored: each report, the message it is about, and whether it is new (to be acted on). */
interface StoredBatch {
  events: FeedbackEvent[];
  messages: (SentMessage | undefined)[];
  fresh: boolean[];
}

/** One request's reports waiting for a batch, its signature token if it has one, and how to answer it. */
interface Caller {
  events: FeedbackEvent[];
  signature?: SignatureToken;
  resolve: (outcome: FeedbackOutcome) => void;
  reject: (error: unknown) => void;
}

/** Why a broadcast's texts pause for a report of ours: the judge's reason for its Twilio code (30007's when it names none of ours). */
function ourTextProblem(code: string | undefined): string {
  const verdict = classifyTwilioAnswer({ code: Number(code) });
  return verdict.kind === 'sender' ? verdict.reason : classifyTwilioAnswer({ code: 30007 }).reason;
}

export class Feedback {
  private readonly now: () => Date;

  constructor(private readonly options: FeedbackOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Stores these reports once each and acts on the new ones; resolves once they are stored (a
   * provider's 2xx must mean kept). Reports from requests arriving together are written together,
   * a few statements a batch rather than three a report (docs/performance.md, bench:feedback);
   * each caller still gets its own counts. A batch that fails is tried again caller by caller, so
   * one caller's bad report fails only that caller.
   */
  receive(events: FeedbackEvent[], signature?: SignatureToken): Promise<FeedbackOutcome> {
    if (events.length === 0 && !signature) return Promise.resolve({ stored: 0, duplicates: 0, unmatched: 0 });
    return new Promise((resolve, reject) => {
      this.pending.push({ events, ...(signature ? { signature } : {}), resolve, reject });
      this.schedule();
    });
  }

  private pending: Caller[] = [];
  private scheduled = false;
  private flushing = false;

  private pendingEvents(): number {
    return this.pending.reduce((sum, each) => sum + each.events.length, 0);
  }

  private schedule(waited = false): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // A moment's wait gathers the reports of requests arriving close together into one write; those
    // that waited for the previous batch, or a full batch, go at once.
    if (waited || this.pendingEvents() >= MAX_BATCH) setImmediate(() => void this.flush());
    else setTimeout(() => void this.flush(), GATHER_MS);
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    this.flushing = true;
    const batch: typeof this.pending = [];
    let size = 0;
    while (this.pending.length > 0 && size < MAX_BATCH && batch.length < MAX_BATCH) {
      const next = this.pending.shift()!;
      batch.push(next);
      size += next.events.length;
    }
    try {
      const outcomes = await this.signedThenProcessed(batch);
      batch.forEach((each, index) => each.resolve(outcomes[index]!));
    } catch (error) {
      // One caller's bad report must not take the others' with it: each is tried again on its own
      // (storing and acting are idempotent, and its signature is "again" once remembered), so only
      // a caller whose own reports fail is answered 5xx.
      if (batch.length === 1) batch[0]!.reject(error);
      else
        for (const each of batch)
          await this.signedThenProcessed([each]).then(
            ([outcome]) => each.resolve(outcome!),
            (own: unknown) => each.reject(own),
          );
    } finally {
      this.flushing = false;
      if (this.pending.length > 0) this.schedule(true);
    }
  }

  /**
   * The batch's one-use signatures checked and remembered first, in one statement: a caller whose
   * token came before with another body is answered "replayed" and none of its reports is read.
   * Then its reports are stored, all in one transaction where the database offers it, and acted on.
   */
  private async signedThenProcessed(batch: Caller[]): Promise<FeedbackOutcome[]> {
    const inTransaction = this.options.transaction ?? ((work) => work(this.options));
    const { replayed, groups, stored } = await inTransaction(async (stores) => {
      const replayed = new Set<Caller>();
      const signed = batch.filter((each) => each.signature !== undefined);
      if (signed.length > 0) {
        if (!stores.signatures) throw new Error('signatures that do not cover the body cannot be remembered here');
        const uses = await stores.signatures.useMany(signed.map((each) => each.signature!));
        signed.forEach((each, index) => uses[index] === 'reused' && replayed.add(each));
      }
      const groups = batch.map((each) => (replayed.has(each) ? [] : each.events));
      return { replayed, groups, stored: await this.store(groups.flat(), stores) };
    });
    await this.actOnFresh(stored);
    return this.outcomes(groups, stored).map((outcome, index) =>
      replayed.has(batch[index]!) ? { ...outcome, replayed: true } : outcome,
    );
  }

  /** One batch: messages looked up together, progress moved together, reports stored together. */
  private async store(reports: FeedbackEvent[], stores: BatchStores): Promise<StoredBatch> {
    const { tokens } = this.options;
    const { sentMessages, feedbackEvents } = stores;
    // A provider's "permanent" read again through the receiving server's own answer.
    const events = reports.map(secondOpinion);
    if (events.length === 0) return { events, messages: [], fresh: [] };
    // A token that is not ours is a forgery or a mistake: it matches nothing, and nothing else is tried.
    const ours = events.map((event) =>
      event.message.token && tokens.verify(event.message.token) ? event.message.token.toLowerCase() : undefined,
    );
    const byToken = await sentMessages.findByTokens(ours.filter((token): token is string => token !== undefined));
    const messages: (SentMessage | undefined)[] = [];
    for (const [index, event] of events.entries()) {
      const token = ours[index];
      if (event.message.token) messages.push(token ? byToken.get(token) : undefined);
      else messages.push(await this.match(event, sentMessages)); // by the provider's ids: rare, one at a time
    }
    // Progress reports (delivered, sent …) only move a state forward, which is the same however often
    // it is done: moved first, many at once, so that they are stored already acted on (a failure
    // before the store is answered 5xx, and the provider's retry moves and stores them).
    const moves = new Map<SentMessageState, string[]>();
    for (const [index, event] of events.entries()) {
      const message = messages[index];
      const state = STATE_OF[event.kind];
      if (message && PROGRESS_ONLY.has(event.kind) && state)
        moves.set(state, [...(moves.get(state) ?? []), message.token]);
    }
    for (const [state, moved] of moves) await sentMessages.advanceMany([...new Set(moved)], state);
    // To act on: new, or stored earlier but never acted on (its action failed: this is the retry).
    // A progress report, or one about no message of ours, has nothing left to do once stored.
    const fresh = await feedbackEvents.storeMany(
      events.map((event, index) => ({
        source: event.source,
        eventId: event.eventId,
        kind: event.kind,
        token: messages[index]?.token ?? null,
        code: event.code ?? null,
        detail: event.detail ?? null,
        // Whatever the source: a time outside a sane window is taken as now (never one the database refuses).
        occurredAt: reportedAt(Date.parse(event.occurredAt), this.now().getTime(), this.now().getTime()),
        acted: PROGRESS_ONLY.has(event.kind) || !messages[index],
      })),
    );
    return { events, messages, fresh };
  }

  /**
   * The stored reports still to act on, one by one (after the batch's transaction), each marked
   * acted only then: had an action failed, a redelivery (or the sweep) acts.
   */
  private async actOnFresh({ events, messages, fresh }: StoredBatch): Promise<void> {
    const acting: FeedbackEvent[] = [];
    for (const [index, event] of events.entries()) {
      const message = messages[index];
      if (!fresh[index] || !message || PROGRESS_ONLY.has(event.kind)) continue;
      await this.act(event, message);
      acting.push(event);
    }
    if (acting.length > 0) await this.options.feedbackEvents.acted(acting);
  }

  /** Each caller's own counts. */
  private outcomes(groups: FeedbackEvent[][], { messages, fresh }: StoredBatch): FeedbackOutcome[] {
    const outcomes: FeedbackOutcome[] = [];
    let index = 0;
    for (const group of groups) {
      const outcome: FeedbackOutcome = { stored: 0, duplicates: 0, unmatched: 0 };
      for (let count = 0; count < group.length; count += 1, index += 1) {
        if (!fresh[index]) outcome.duplicates += 1;
        else if (!messages[index]) outcome.unmatched += 1;
        else outcome.stored += 1;
      }
      outcomes.push(outcome);
    }
    return outcomes;
  }

  /**
   * Acts on the reports stored at least `olderThanMs` ago whose action failed and that no provider
   * sent again (Twilio does not retry a callback; a mailbox report is read again by itself). The
   * server runs it every minute. Returns how many it acted on.
   */
  async actOnWaiting(olderThanMs = WAITING_MS): Promise<number> {
    const before = new Date(this.now().getTime() - olderThanMs).toISOString();
    const waiting = await this.options.feedbackEvents.waitingToAct(before, MAX_BATCH);
    if (waiting.length === 0) return 0;
    await this.receive(
      waiting.map((row) => ({
        source: row.source as FeedbackEvent['source'],
        eventId: row.eventId,
        kind: row.kind as FeedbackKind,
        // The message it was matched to when stored; none: it matches nothing now either.
        message: row.token ? { token: row.token } : {},
        occurredAt: row.occurredAt,
        ...(row.code ? { code: row.code } : {}),
        ...(row.detail ? { detail: row.detail } : {}),
      })),
    );
    return waiting.length;
  }

  /** The message a report is about: by a token only we could have issued, else by the provider's ids. */
  private async match(
    event: FeedbackEvent,
    sentMessages: BatchStores['sentMessages'],
  ): Promise<SentMessage | undefined> {
    const { token, providerId, messageId } = event.message;
    const { tokens } = this.options;
    if (token) {
      // A token that is not ours is a forgery or a mistake: never fall back to anything else.
      if (!tokens.verify(token)) return undefined;
      return sentMessages.find({ token: token.toLowerCase() });
    }
    if (providerId) return sentMessages.find({ providerId });
    if (messageId) return sentMessages.find({ messageId });
    return undefined;
  }

  private async act(event: FeedbackEvent, message: SentMessage): Promise<void> {
    const state = STATE_OF[event.kind];
    if (state) await this.options.sentMessages.advance(message.token, state);
    switch (event.kind) {
      case 'hard_bounce':
        return this.suppress(message, 'bounced', 'email_bounced');
      case 'complaint':
        return this.suppress(message, 'complained', 'email_complained');
      case 'unsubscribe':
        // As our own unsubscribe link does: email off, on their history with the report as its source.
        if (message.channel === 'email' && message.signupId)
          await this.options.subscriptions.updatePreferences(message.signupId, { email: false }, 'provider_report');
        return;
      case 'soft_bounce': {
        if (!message.addressHash) return;
        const since = new Date(this.now().getTime() - SOFT_BOUNCE_WINDOW_MS).toISOString();
        const count = await this.options.feedbackEvents.softBounces(message.addressHash, message.channel, since);
        if (count >= SOFT_BOUNCES_TO_SUPPRESS)
          await this.suppress(
            message,
            message.channel === 'email' ? 'bounced' : 'undeliverable',
            message.channel === 'email' ? 'email_bounced' : 'sms_undeliverable',
          );
        return;
      }
      case 'undeliverable':
        return this.suppress(
          message,
          'undeliverable',
          message.channel === 'email' ? 'email_undeliverable' : 'sms_undeliverable',
        );
      case 'stop':
        if (message.channel === 'sms') await this.stop(message);
        return;
      case 'filtered':
        // Ours to fix, never the person's (carriers filtering our texts, our account's limits): a
        // broadcast's texts pause with the reason the one judge gives that code. (An email refused
        // or filed as spam by one receiving server is recorded and shown, not acted on.)
        if (message.broadcastId !== null && message.channel === 'sms')
          await this.options.pauses.pauseChannel(message.broadcastId, 'sms', {
            cause: 'sender',
            reason: ourTextProblem(event.code),
            answer: event.detail ?? event.code ?? null,
          });
        return;
      default:
        return; // delivered, delayed, sent, queued: recorded
    }
  }

  /** The address the message went to, suppressed for this reason; the person's history says why. */
  private async suppress(message: SentMessage, reason: SuppressionReason, event: ConsentKind): Promise<void> {
    if (!message.addressHash) return;
    await this.options.optOuts.suppressByReport(
      message.signupId,
      {
        kind: message.channel === 'email' ? 'email' : 'phone',
        hash: message.addressHash,
        reason,
        source: 'provider_report',
      },
      event,
    );
  }

  /** The number replied STOP to our sender: their STOP, for everyone who gave it. */
  private async stop(message: SentMessage): Promise<void> {
    if (!message.addressHash) return;
    const person = message.signupId ? await this.options.subscribers.subscriber(message.signupId) : undefined;
    const suppression = {
      kind: 'phone' as const,
      hash: message.addressHash,
      reason: 'sms_stop' as const,
      source: 'provider_report' as const,
    };
    if (person) await this.options.subscriptions.stopTexts(person.phone, 'provider_report');
    else await this.options.optOuts.suppressByReport(null, suppression, 'sms_off');
  }
}
