// PostgreSQL migration 3, create analytics events: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 3,
  name: 'create-analytics-events',
  // The page's first-party events: what happened and on which page, never who or from where.
  sql: `
      CREATE TABLE analytics_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        page_name text NOT NULL,
        params jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX analytics_events_created_at ON analytics_events (created_at);
    `,
};
