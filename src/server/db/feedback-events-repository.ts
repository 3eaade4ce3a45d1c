// The reports about our messages (bounces, complaints, deliveries, STOPs), each stored once per
// source and its own id, whatever the provider redelivers (docs/messaging.md, "Hearing back").
// Written once with Kysely for SQLite and PostgreSQL.
import type { Channel } from './message-channels.js';
import { CHUNK, stamp, TEXT_LENGTH, type QueryContext } from './sql-dialect.js';

/** A report as stored. */
export interface StoredReport {
  source: string;
  eventId: string;
  kind: string;
  token: string | null;
  code?: string | null;
  detail?: string | null;
  occurredAt: string;
  /** Stored with nothing left to do (a progress report, one about no message of ours): never waits to be acted on. */
  acted?: boolean;
}

export class FeedbackEventsRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * Stores a report once, acted on already (the sender's own record of a refusal during the send,
   * which the sender acts on itself); false when this source already sent this one.
   */
  async store(report: StoredReport): Promise<boolean> {
    const result = await this.context.db
      .insertInto('feedback_events')
      .values(this.reportRow({ ...report, acted: true }, stamp(this.context)))
      .onConflict((conflict) => conflict.columns(['source', 'event_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Stores a batch of reports, each once: for each, in order, true when it is to be acted on: new,
   * or stored before but never acted on (the action failed). False for a redelivery of one acted on,
   * and for later copies in the same batch. One statement per few hundred; one more only when the
   * batch holds redeliveries.
   */
  async storeMany(reports: StoredReport[]): Promise<boolean[]> {
    const key = (source: string, eventId: string) => `${source}\u0000${eventId.slice(0, TEXT_LENGTH)}`;
    const inserted = new Set<string>();
    const at = stamp(this.context);
    for (let start = 0; start < reports.length; start += CHUNK) {
      const rows = await this.context.db
        .insertInto('feedback_events')
        .values(reports.slice(start, start + CHUNK).map((report) => this.reportRow(report, at)))
        .onConflict((conflict) => conflict.columns(['source', 'event_id']).doNothing())
        .returning(['source', 'event_id'])
        .execute();
      for (const row of rows) inserted.add(key(row.source, row.event_id));
    }
    // Redeliveries of a report whose action failed are acted on now (one stored acted never waits).
    const again = reports.filter((report) => !report.acted && !inserted.has(key(report.source, report.eventId)));
    const waiting = new Set<string>();
    for (const [source, eventIds] of bySource(again))
      for (let start = 0; start < eventIds.length; start += CHUNK) {
        const rows = await this.context.db
          .selectFrom('feedback_events')
          .select(['source', 'event_id'])
          .where('source', '=', source)
          .where('event_id', 'in', eventIds.slice(start, start + CHUNK))
          .where('acted_at', 'is', null)
          .execute();
        for (const row of rows) waiting.add(key(row.source, row.event_id));
      }
    // The first of the batch's copies is the one acted on; later copies are redeliveries.
    const seen = new Set<string>();
    return reports.map((report) => {
      const id = key(report.source, report.eventId);
      const toAct = (inserted.has(id) || waiting.has(id)) && !seen.has(id);
      seen.add(id);
      return toAct;
    });
  }

  /**
   * The latest failure reported about each of these addresses (a bounce, a complaint, a dead
   * number): its code and words, for the owner's list of suppressions.
   */
  async latestFailures(hashes: string[]): Promise<Map<string, { code: string | null; detail: string | null }>> {
    const found = new Map<string, { code: string | null; detail: string | null }>();
    for (let start = 0; start < hashes.length; start += CHUNK) {
      const rows = await this.context.db
        .selectFrom('feedback_events')
        .innerJoin('sent_messages', 'sent_messages.token', 'feedback_events.token')
        .select(['sent_messages.address_hash as hash', 'feedback_events.code', 'feedback_events.detail'])
        .where('sent_messages.address_hash', 'in', hashes.slice(start, start + CHUNK))
        .where('feedback_events.kind', 'in', ['hard_bounce', 'soft_bounce', 'complaint', 'undeliverable', 'stop'])
        .orderBy('feedback_events.id')
        .execute();
      for (const row of rows) if (row.hash) found.set(row.hash, { code: row.code, detail: row.detail });
    }
    return found;
  }

  /** These reports' effects are written: a redelivery is now only a duplicate. */
  async acted(reports: Pick<StoredReport, 'source' | 'eventId'>[]): Promise<void> {
    const at = stamp(this.context);
    for (const [source, eventIds] of bySource(reports))
      for (let start = 0; start < eventIds.length; start += CHUNK)
        await this.context.db
          .updateTable('feedback_events')
          .set({ acted_at: at })
          .where('source', '=', source)
          .where('event_id', 'in', eventIds.slice(start, start + CHUNK))
          .where('acted_at', 'is', null)
          .execute();
  }

  /** Reports stored before `before` and never acted on (their action failed, and no retry came), oldest first. */
  async waitingToAct(before: string, limit: number): Promise<StoredReport[]> {
    const rows = await this.context.db
      .selectFrom('feedback_events')
      .select(['source', 'event_id', 'kind', 'token', 'code', 'detail', 'occurred_at'])
      .where('acted_at', 'is', null)
      .where('received_at', '<', before)
      .orderBy('received_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      source: row.source,
      eventId: row.event_id,
      kind: row.kind,
      token: row.token,
      code: row.code,
      detail: row.detail,
      occurredAt: new Date(row.occurred_at).toISOString(),
    }));
  }

  /**
   * The soft-bounce rule's count for one address: the different messages that soft-bounced since
   * `since`, after the address's latest delivery (a delivery resets it). By when we received each
   * report, not the date written in it: a server with a wrong clock, or a report sent late, still
   * counts in the window.
   */
  async softBounces(addressHash: string, channel: Channel, since: string): Promise<number> {
    const rows = await this.context.db
      .selectFrom('feedback_events')
      .innerJoin('sent_messages', 'sent_messages.token', 'feedback_events.token')
      .select(['feedback_events.kind', 'feedback_events.token'])
      .where('sent_messages.address_hash', '=', addressHash)
      .where('sent_messages.channel', '=', channel)
      .where('feedback_events.kind', 'in', ['soft_bounce', 'delivered'])
      .where('feedback_events.received_at', '>=', since)
      .orderBy('feedback_events.id') // the order we received them in
      .execute();
    const tokens = new Set<string>();
    for (const row of rows) {
      if (row.kind === 'delivered') tokens.clear();
      else if (row.token) tokens.add(row.token);
    }
    return tokens.size;
  }

  private reportRow(report: StoredReport, at: string) {
    return {
      source: report.source,
      event_id: report.eventId.slice(0, TEXT_LENGTH),
      kind: report.kind,
      token: report.token,
      code: report.code?.slice(0, 40) ?? null,
      detail: report.detail?.slice(0, TEXT_LENGTH) ?? null,
      occurred_at: report.occurredAt,
      received_at: at,
      acted_at: report.acted ? at : null,
    };
  }
}

/** Event ids by source, each as stored (cut to TEXT_LENGTH). */
function bySource(reports: Pick<StoredReport, 'source' | 'eventId'>[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const report of reports) {
    const ids = groups.get(report.source) ?? [];
    ids.push(report.eventId.slice(0, TEXT_LENGTH));
    groups.set(report.source, ids);
  }
  return groups;
}
