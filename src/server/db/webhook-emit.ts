// The events the owner's webhook endpoints are told of, kept with their deliveries (issue 56): one
// outbox row of kind 'webhook' per live endpoint that asked for the event's type, in the caller's
// transaction, so an event is kept if and only if the change that made it is. Written once with
// Kysely for both engines; webhooks-repository.ts keeps the endpoints and reads the consent history.
import type { Kysely, Transaction } from 'kysely';
import { iso, isoOrNull, isTrue } from './column-types.js';
import type { Database } from './database.js';
import type { WebhookKind } from './webhooks.table.js';

export interface WebhookEndpoint {
  id: number;
  name: string;
  kind: WebhookKind;
  url: string;
  /** The event types it is told of; "*" for all. */
  events: string[] | '*';
  withPersonalData: boolean;
  createdAt: string;
  createdBy: string;
  pausedAt: string | null;
  pausedReason: string | null;
}

/** An event to tell the endpoints of: its type, the person it is about (if any), and its facts. */
export interface NewWebhookEvent {
  type: string;
  signupId?: string | null | undefined;
  data: Record<string, unknown>;
}

export type Db = Kysely<Database> | Transaction<Database>;

export function endpointFrom(row: {
  id: number | string;
  name: string;
  kind: WebhookKind;
  url: string;
  events: string;
  with_personal_data: number | boolean;
  created_at: string | Date;
  created_by: string;
  paused_at: string | Date | null;
  paused_reason: string | null;
}): WebhookEndpoint {
  return {
    id: Number(row.id),
    name: row.name,
    kind: row.kind,
    url: row.url,
    events: row.events === '*' ? '*' : (JSON.parse(row.events) as string[]),
    withPersonalData: isTrue(row.with_personal_data),
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
    pausedAt: isoOrNull(row.paused_at),
    pausedReason: row.paused_reason,
  };
}

const wants = (endpoint: WebhookEndpoint, type: string) => endpoint.events === '*' || endpoint.events.includes(type);

/**
 * Keeps the events and queues one delivery per live endpoint that asked for each, inside the caller's
 * transaction (a deletion's, a broadcast's move: the event is kept if and only if the change is).
 * A paused endpoint's deliveries wait (no due time) until it is resumed.
 */
export async function emitWebhookEvents(trx: Db, at: string, events: NewWebhookEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const endpoints = (
    await trx.selectFrom('webhook_endpoints').selectAll().where('deleted_at', 'is', null).execute()
  ).map(endpointFrom);
  let queued = 0;
  for (const event of events) {
    const to = endpoints.filter((endpoint) => wants(endpoint, event.type));
    // An event no endpoint asked for is not kept: an endpoint is told of what happens after it is made.
    if (to.length === 0) continue;
    const row = await trx
      .insertInto('webhook_events')
      .values({ type: event.type, signup_id: event.signupId ?? null, data: JSON.stringify(event.data), created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('outbox')
      .values(
        to.map((endpoint) => ({
          kind: 'webhook' as const,
          broadcast_id: null,
          signup_id: null,
          channel: 'webhook' as const,
          state: 'queued' as const,
          attempts: 0,
          next_attempt_at: endpoint.pausedAt ? null : at,
          claimed_by: null,
          claimed_at: null,
          sent_at: null,
          provider_id: null,
          error: null,
          failure_kind: null,
          pause_mark: null,
          waiting_for: null,
          webhook_endpoint_id: endpoint.id,
          webhook_event_id: row.id,
        })),
      )
      .execute();
    queued += to.length;
  }
  return queued;
}
