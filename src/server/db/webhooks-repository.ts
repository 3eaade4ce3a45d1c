// The owner's webhook endpoints and the events they are told of (issue 56), written once with Kysely
// for both engines. An event is kept with its facts (ids, channels, counts: never a person's details)
// and, in the same transaction, one outbox row of kind 'webhook' per live endpoint that asked for its
// type: the one outbox carries every delivery, at most one per event and endpoint (outbox_webhook_once).
// The consent history is read for events in order, and how far it was read moves in the same
// transaction as the events it gave, so each of its lines becomes its events once.
import { iso, isoOrNull, isTrue } from './column-types.js';
import type { ConsentKind, ConsentSource } from './consent-events.table.js';
import { LIVE_STATES } from './outbox-claims.js';
import type { MessageState } from './outbox.table.js';
import { sql } from 'kysely';
import { flag, stamp, type QueryContext } from './sql-dialect.js';
import type { WebhookKind } from './webhooks.table.js';
import {
  emitWebhookEvents,
  endpointFrom,
  type Db,
  type NewWebhookEvent,
  type WebhookEndpoint,
} from './webhook-emit.js';

export type { NewWebhookEvent, WebhookEndpoint } from './webhook-emit.js';

export interface WebhookEvent extends NewWebhookEvent {
  id: number;
  createdAt: string;
}

/** A line of the consent history as the events are made from it. */
export interface ConsentLine {
  id: number;
  signupId: string;
  kind: ConsentKind;
  source: ConsentSource;
  at: string;
  /** For a sign-up: it is the person's first (a repeat sign-up is not a new person). */
  first: boolean;
}

/** One delivery as the owner's page lists it. */
export interface WebhookDelivery {
  id: number;
  eventId: number;
  type: string;
  state: MessageState;
  attempts: number;
  sentAt: string | null;
  nextAttemptAt: string | null;
  error: string | null;
}

const CONSENT_MARK = 'consent_events';

export class WebhooksRepository {
  constructor(private readonly context: QueryContext) {}

  /** Keeps a new endpoint; 'name_taken' while a live one has the name. */
  async create(endpoint: {
    name: string;
    kind: WebhookKind;
    url: string;
    secret: string;
    events: string[] | '*';
    withPersonalData: boolean;
    createdBy: string;
  }): Promise<'created' | 'name_taken'> {
    return this.context.db.transaction().execute(async (trx) => {
      // The first live endpoint starts the reading from now: while there was none, nothing was read.
      if (!(await trx.selectFrom('webhook_endpoints').select('id').where('deleted_at', 'is', null).executeTakeFirst()))
        await trx
          .updateTable('webhook_marks')
          .set((eb) => ({
            last_id: eb.selectFrom('consent_events').select(sql<number>`coalesce(max(id), 0)`.as('last')),
          }))
          .where('name', '=', CONSENT_MARK)
          .execute();
      const inserted = await trx
        .insertInto('webhook_endpoints')
        .values({
          name: endpoint.name,
          kind: endpoint.kind,
          url: endpoint.url,
          secret: endpoint.secret,
          events: endpoint.events === '*' ? '*' : JSON.stringify(endpoint.events),
          with_personal_data: flag(this.context, endpoint.withPersonalData),
          created_at: stamp(this.context),
          created_by: endpoint.createdBy,
        })
        .onConflict((conflict) => conflict.doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted ? 'created' : 'name_taken';
    });
  }

  /** Whether any endpoint is live (not deleted): without one, the webhook jobs touch nothing. */
  async anyLive(): Promise<boolean> {
    const row = await this.context.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('deleted_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The live endpoints (not deleted), oldest first. */
  async list(): Promise<WebhookEndpoint[]> {
    const rows = await this.context.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map(endpointFrom);
  }

  async byName(name: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.context.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('name', '=', name)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? endpointFrom(row) : undefined;
  }

  /** An endpoint by id, with its secret (the sender signs with it); deleted ones too (their rows end). */
  async forSending(id: number): Promise<(WebhookEndpoint & { secret: string; deleted: boolean }) | undefined> {
    const row = await this.context.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { ...endpointFrom(row), secret: row.secret, deleted: row.deleted_at !== null } : undefined;
  }

  async event(id: number): Promise<WebhookEvent | undefined> {
    const row = await this.context.db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
    return row
      ? {
          id: Number(row.id),
          type: row.type,
          signupId: row.signup_id,
          data: JSON.parse(row.data) as Record<string, unknown>,
          createdAt: iso(row.created_at),
        }
      : undefined;
  }

  /** Keeps events and queues their deliveries, in a transaction of their own. */
  async emit(events: NewWebhookEvent[]): Promise<number> {
    return this.context.db.transaction().execute((trx) => emitWebhookEvents(trx, stamp(this.context), events));
  }

  /**
   * Reads the consent history on from where it was last read, up to `limit` lines stamped at or
   * before `until` (a line still being written on PostgreSQL may take a lower id than one already
   * read: the few seconds' wait lets it land first), makes events of them with `eventsOf`, and moves
   * the mark past them, all in one transaction. How many lines it read.
   */
  async readConsent(
    until: Date,
    limit: number,
    eventsOf: (line: ConsentLine) => NewWebhookEvent[],
  ): Promise<{ lines: number; queued: number }> {
    return this.context.db.transaction().execute(async (trx) => {
      // The mark (made by migration 27 where the history then ended) is held for this transaction:
      // two instances reading at once take turns (PostgreSQL's row lock; SQLite's writer lock).
      const mark = await trx
        .selectFrom('webhook_marks')
        .select('last_id')
        .where('name', '=', CONSENT_MARK)
        .$if(this.context.dialect.engine === 'postgres', (query) => query.forUpdate())
        .executeTakeFirst();
      if (!mark)
        await trx
          .insertInto('webhook_marks')
          .values({ name: CONSENT_MARK, last_id: 0 })
          .onConflict((conflict) => conflict.column('name').doNothing())
          .execute();
      const after = Number(mark?.last_id ?? 0);
      const rows = await trx
        .selectFrom('consent_events as line')
        .select((eb) => [
          'line.id',
          'line.signup_id',
          'line.kind',
          'line.source',
          'line.created_at',
          eb
            .not(
              eb.exists(
                eb
                  .selectFrom('consent_events as earlier')
                  .select('earlier.id')
                  .whereRef('earlier.signup_id', '=', 'line.signup_id')
                  .where('earlier.kind', '=', 'signed_up')
                  .whereRef('earlier.id', '<', 'line.id'),
              ),
            )
            .as('first'),
        ])
        .where('line.id', '>', after)
        .where('line.created_at', '<=', until.toISOString())
        .orderBy('line.id')
        .limit(limit)
        .execute();
      const last = rows.at(-1);
      if (!last) return { lines: 0, queued: 0 };
      const lines = rows.map((row) => ({
        id: Number(row.id),
        signupId: row.signup_id,
        kind: row.kind,
        source: row.source,
        at: iso(row.created_at),
        first: isTrue(row.first as number | boolean),
      }));
      const queued = await emitWebhookEvents(trx, stamp(this.context), lines.flatMap(eventsOf));
      await this.setMark(trx, Number(last.id));
      return { lines: rows.length, queued };
    });
  }

  private async setMark(trx: Db, lastId: number): Promise<void> {
    await trx.updateTable('webhook_marks').set({ last_id: lastId }).where('name', '=', CONSENT_MARK).execute();
  }

  /** Pauses an endpoint with why: its deliveries wait, untried, until it is resumed. */
  async pause(id: number, reason: string): Promise<void> {
    await this.context.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_endpoints')
        .set({ paused_at: stamp(this.context), paused_reason: reason.slice(0, 500) })
        .where('id', '=', id)
        .where('paused_at', 'is', null)
        .execute();
      await trx
        .updateTable('outbox')
        .set({ next_attempt_at: null })
        .where('kind', '=', 'webhook')
        .where('webhook_endpoint_id', '=', id)
        .where('state', 'in', ['queued', 'failed_temporary'])
        .execute();
    });
  }

  /** Resumes a paused endpoint: every delivery it has waiting goes now, each with a fresh day of tries. */
  async resume(name: string): Promise<boolean> {
    const endpoint = await this.byName(name);
    if (!endpoint) return false;
    await this.context.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_endpoints')
        .set({ paused_at: null, paused_reason: null })
        .where('id', '=', endpoint.id)
        .execute();
      await trx
        .updateTable('outbox')
        .set({ state: 'queued', next_attempt_at: stamp(this.context), attempts: 0 })
        .where('kind', '=', 'webhook')
        .where('webhook_endpoint_id', '=', endpoint.id)
        .where('state', 'in', ['queued', 'failed_temporary'])
        .execute();
    });
    return true;
  }

  /** Deletes an endpoint: nothing more goes to it, and its waiting deliveries end (skipped). */
  async remove(name: string): Promise<boolean> {
    return this.context.db.transaction().execute(async (trx) => {
      const endpoint = await trx
        .updateTable('webhook_endpoints')
        .set({ deleted_at: stamp(this.context) })
        .where('name', '=', name)
        .where('deleted_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!endpoint) return false;
      await trx
        .updateTable('outbox')
        .set({ state: 'skipped', next_attempt_at: null, error: 'its endpoint was deleted' })
        .where('kind', '=', 'webhook')
        .where('webhook_endpoint_id', '=', endpoint.id)
        .where('state', 'in', ['queued', 'failed_temporary'])
        .execute();
      return true;
    });
  }

  /** An endpoint's latest deliveries, newest first. */
  async deliveries(endpointId: number, limit = 20): Promise<WebhookDelivery[]> {
    const rows = await this.context.db
      .selectFrom('outbox')
      .innerJoin('webhook_events', 'webhook_events.id', 'outbox.webhook_event_id')
      .select([
        'outbox.id',
        'outbox.webhook_event_id',
        'webhook_events.type',
        'outbox.state',
        'outbox.attempts',
        'outbox.sent_at',
        'outbox.next_attempt_at',
        'outbox.error',
      ])
      .where('outbox.kind', '=', 'webhook')
      .where('outbox.webhook_endpoint_id', '=', endpointId)
      .orderBy('outbox.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      eventId: Number(row.webhook_event_id),
      type: row.type,
      state: row.state,
      attempts: row.attempts,
      sentAt: isoOrNull(row.sent_at),
      nextAttemptAt: isoOrNull(row.next_attempt_at),
      error: row.error,
    }));
  }

  /** How many deliveries wait per endpoint (queued or to be tried again), for the owner's page. */
  async waiting(endpointId: number): Promise<number> {
    const row = await this.context.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('kind', '=', 'webhook')
      .where('webhook_endpoint_id', '=', endpointId)
      .where('state', 'in', [...LIVE_STATES])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
