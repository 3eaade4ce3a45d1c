// The one Database type: every table of both engines, as Kysely sees it. Add a table here and in
// one migration per engine (docs/architecture.md, "Adding a column").
import type { AnalyticsEventsTable } from './analytics-events.table.js';
import type { ConsentEventsTable, SuppressionsTable } from './consent.table.js';
import type { FeedbackEventsTable, SentMessagesTable } from './feedback.table.js';
import type {
  BroadcastMessagesTable,
  BroadcastPausesTable,
  BroadcastSendersTable,
  BroadcastsTable,
} from './outbox.table.js';
import type { OwnerAuditLogTable, OwnerSessionsTable, OwnerSignInLinksTable, OwnersTable } from './owners.table.js';
import type { SignupsTable } from './signups.table.js';

export interface Database {
  signups: SignupsTable;
  analytics_events: AnalyticsEventsTable;
  consent_events: ConsentEventsTable;
  suppressions: SuppressionsTable;
  broadcasts: BroadcastsTable;
  broadcast_messages: BroadcastMessagesTable;
  broadcast_senders: BroadcastSendersTable;
  broadcast_pauses: BroadcastPausesTable;
  sent_messages: SentMessagesTable;
  feedback_events: FeedbackEventsTable;
  owners: OwnersTable;
  owner_sign_in_links: OwnerSignInLinksTable;
  owner_sessions: OwnerSessionsTable;
  owner_audit_log: OwnerAuditLogTable;
}
