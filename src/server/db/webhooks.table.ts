// The owner's webhook endpoints, the events they are told of, and how far the consent history has
// been read for them (issue 56, migration 27). A delivery is an outbox row of kind 'webhook'.
import type { Generated } from 'kysely';
import type { Flag, Id, Time } from './column-types.js';

export const WEBHOOK_KINDS = ['standard', 'slack'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export interface WebhookEndpointsTable {
  id: Generated<Id>;
  name: string;
  /** standard: signed as Standard Webhooks 1.0 says; slack: an incoming-webhook URL, words only. */
  kind: WebhookKind;
  url: string;
  /** The signing secret, whsec_ and base64 (Standard Webhooks); shown once when made. */
  secret: string;
  /** The event types it is told of, as JSON (an array), or "*" for all. */
  events: string;
  /** Its payloads carry the person's name, email and phone (made with --with-personal-data). */
  with_personal_data: Generated<Flag>;
  created_at: Time;
  created_by: string;
  /** Set while it is paused (by the owner, or after a day of failures), with why. */
  paused_at: Time | null;
  paused_reason: string | null;
  deleted_at: Time | null;
}

export interface WebhookEventsTable {
  id: Generated<Id>;
  type: string;
  /** The person it is about, if any: their details are read when a delivery goes, never kept here. */
  signup_id: string | null;
  /** The event's facts as JSON: ids, channels, counts; never a name, address or number. */
  data: string;
  created_at: Time;
}

export interface WebhookMarksTable {
  /** What was read: "consent_events". */
  name: string;
  last_id: Id;
}
