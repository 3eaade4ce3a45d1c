// The page's first-party events: what happened and on which page, never who or from where.
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';

export interface AnalyticsEventsTable {
  id: Generated<Id>;
  name: string;
  page_name: string;
  /** The validated params as JSON (jsonb on PostgreSQL). */
  params: string;
  created_at: Generated<Time>;
}
