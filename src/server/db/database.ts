// The one Database type: every table of both engines, as Kysely sees it. Add a table here and in
// one migration per engine (docs/architecture.md, "Adding a column").
import type { AnalyticsEventsTable } from './analytics-events.table.js';
import type { BackupRunsTable } from './backup-runs.table.js';
import type { ConsentEventsTable } from './consent-events.table.js';
import type { ApiKeysTable } from './api-keys.table.js';
import type { ConsentTextsTable } from './consent-texts.table.js';
import type { WebhookEndpointsTable, WebhookEventsTable, WebhookMarksTable } from './webhooks.table.js';
import type { SuppressionsTable } from './suppressions.table.js';
import type { FeedbackEventsTable } from './feedback-events.table.js';
import type { SentMessagesTable } from './sent-messages.table.js';
import type { OutboxTable } from './outbox.table.js';
import type { BroadcastPausesTable } from './broadcast-pauses.table.js';
import type { BroadcastSendersTable } from './broadcast-senders.table.js';
import type { BroadcastsTable } from './broadcasts.table.js';
import type { OwnerAuditLogTable } from './owner-audit-log.table.js';
import type { OwnerSessionsTable } from './owner-sessions.table.js';
import type { OwnerSignInLinksTable } from './owner-sign-in-links.table.js';
import type { OwnersTable } from './owners.table.js';
import type { SignupsTable } from './signups.table.js';
import type { InboundTextsTable } from './inbound-texts.table.js';
import type { SmsRepliesTable } from './sms-replies.table.js';
import type { SecretKeysTable } from './secret-keys.table.js';
import type { RestoreMarksTable } from './restore-marks.table.js';
import type { WebhookSignaturesTable } from './webhook-signatures.table.js';
import type { BackgroundJobsTable } from './background-jobs.table.js';

export interface Database {
  signups: SignupsTable;
  analytics_events: AnalyticsEventsTable;
  consent_events: ConsentEventsTable;
  suppressions: SuppressionsTable;
  broadcasts: BroadcastsTable;
  outbox: OutboxTable;
  broadcast_senders: BroadcastSendersTable;
  broadcast_pauses: BroadcastPausesTable;
  sent_messages: SentMessagesTable;
  feedback_events: FeedbackEventsTable;
  owners: OwnersTable;
  owner_sign_in_links: OwnerSignInLinksTable;
  owner_sessions: OwnerSessionsTable;
  owner_audit_log: OwnerAuditLogTable;
  backup_runs: BackupRunsTable;
  inbound_texts: InboundTextsTable;
  sms_replies: SmsRepliesTable;
  secret_keys: SecretKeysTable;
  restore_marks: RestoreMarksTable;
  webhook_signatures: WebhookSignaturesTable;
  background_jobs: BackgroundJobsTable;
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_marks: WebhookMarksTable;
  consent_texts: ConsentTextsTable;
}

/** Every table of the Database type, for the few places that go through them all (a restore replaces them). */
export const TABLE_NAMES = [
  'signups',
  'analytics_events',
  'consent_events',
  'suppressions',
  'broadcasts',
  'outbox',
  'broadcast_senders',
  'broadcast_pauses',
  'sent_messages',
  'feedback_events',
  'owners',
  'owner_sign_in_links',
  'owner_sessions',
  'owner_audit_log',
  'backup_runs',
  'inbound_texts',
  'sms_replies',
  'secret_keys',
  'restore_marks',
  'webhook_signatures',
  'background_jobs',
  'api_keys',
  'webhook_endpoints',
  'webhook_events',
  'webhook_marks',
  'consent_texts',
] as const satisfies readonly (keyof Database)[];

/** Tables an older release's migrations made that a later one renamed: its backups hold them (migration 23: outbox). */
export const FORMER_TABLE_NAMES = ['broadcast_messages'] as const;

/** Every table name a database or backup of this product may hold, whatever its release. */
export const KNOWN_TABLE_NAMES: ReadonlySet<string> = new Set([
  ...TABLE_NAMES,
  ...FORMER_TABLE_NAMES,
  'schema_migrations',
]);

// A table added to Database and not to TABLE_NAMES fails to compile here.
type Unlisted = Exclude<keyof Database, (typeof TABLE_NAMES)[number]>;
export const everyTableListed: [Unlisted] extends [never] ? true : never = true;
