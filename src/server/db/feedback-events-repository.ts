// The reports about our messages (bounces, complaints, deliveries, STOPs), each stored once per
// source and its own id, whatever the provider redelivers (docs/messaging.md, "Hearing back").
// Written once with Kysely for SQLite and PostgreSQL.
import type { BroadcastChannel } from './message-channels.js';
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
}

export class FeedbackEventsRepository {
  constructor(private readonly context: QueryContext) {}

  /** Stores a report once; false when this source already sent this one (a redelivery). */
  async store(report: StoredReport): Promise<boolean> {
    const result = await this.context.db
      .insertInto('feedback_events')
      .values(this.reportRow(report, stamp(this.context)))
      .onConflict((conflict) => conflict.columns(['source', 'event_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Stores a batch of reports, each once: for each, in order, true when it is new (false when this
   * source sent it already, before or earlier in the same batch). One statement per few hundred.
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
    // The first of the batch's copies is the one inserted; later copies are redeliveries.
    const seen = new Set<string>();
    return reports.map((report) => {
      const id = key(report.source, report.eventId);
      const fresh = inserted.has(id) && !seen.has(id);
      seen.add(id);
      return fresh;
    });
  }

  /**
   * The soft-bounce rule's count for one address: the different messages that soft-bounced since
   * `since`, after the address's latest delivery (a delivery resets it). By when we received each
   * report, not the date written in it: a server with a wrong clock, or a report sent late, still
   * counts in the window.
   */
  async softBounces(addressHash: string, channel: BroadcastChannel, since: string): Promise<number> {
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
    };
  }
}
