// PostgreSQL migration 12, acted-on reports: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 12,
  name: 'acted-on-reports',
  // A stored report is acted on (decision 037): when its effects were written. A report stored but
  // not yet acted on (the action failed) is acted on at the provider's retry, or by the sweep. Every
  // report stored before this release was acted on when it came. The index holds only the few
  // waiting ones.
  sql: `
      ALTER TABLE feedback_events ADD COLUMN acted_at timestamptz;
      UPDATE feedback_events SET acted_at = received_at;
      CREATE INDEX feedback_events_to_act ON feedback_events (received_at) WHERE acted_at IS NULL;
    `,
};
