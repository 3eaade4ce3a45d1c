// PostgreSQL migration 20, texts wait: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { PostgresMigration } from './migration.js';

export const migration: PostgresMigration = {
  version: 20,
  name: 'texts-wait',
  // A queued text held back until it may reach the person (issue 44): 'daytime', the hours at their
  // location; 'cap', a state's limit of texts in 24 hours. Its next_attempt_at is when it may go.
  sql: `
      ALTER TABLE broadcast_messages
        ADD COLUMN waiting_for text CHECK (waiting_for IN ('daytime', 'cap'));
    `,
};
