// Every report that came back about a message: a bounce, a complaint, a delivery (docs/messaging.md, "Hearing back").
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';

export interface FeedbackEventsTable {
  id: Generated<Id>;
  source: string;
  event_id: string;
  kind: string;
  /** The message it was about, when it could be matched. */
  token: string | null;
  code: string | null;
  detail: string | null;
  occurred_at: Time;
  received_at: Time;
  /** When its effects were written; null while it waits to be acted on (release 12 on). */
  acted_at: Time | null;
}
