// SQLite migration 3, create analytics events: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 3,
  name: 'create-analytics-events',
  // The page's first-party events: what happened and on which page, never who or from where.
  // created_at defaults to the database's clock, in the same ISO 8601 form as the sign-ups' times.
  up: (db) =>
    db.exec(`
        CREATE TABLE analytics_events (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          page_name TEXT NOT NULL,
          params TEXT NOT NULL CHECK (json_valid(params)),
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ) STRICT;
        CREATE INDEX analytics_events_created_at ON analytics_events (created_at);
      `),
};
