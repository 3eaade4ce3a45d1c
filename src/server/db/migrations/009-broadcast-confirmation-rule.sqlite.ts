// SQLite migration 9, broadcast confirmation rule: never edit it once it has shipped (docs/architecture.md, "Adding a column").
import type { SqliteMigration } from './migration.js';

export const migration: SqliteMigration = {
  version: 9,
  name: 'broadcast-confirmation-rule',
  // Who a broadcast takes among the unconfirmed (decision 032): 'asked' (the default: everyone but
  // those asked to confirm who did not), 'confirmed_only', or 'everyone'. Broadcasts made before
  // keep what they meant.
  up: (db) =>
    db.exec(`
        ALTER TABLE broadcasts ADD COLUMN confirmation TEXT NOT NULL DEFAULT 'asked'
          CHECK (confirmation IN ('asked', 'confirmed_only', 'everyone'));
        UPDATE broadcasts SET confirmation = CASE WHEN include_unconfirmed = 1 THEN 'everyone' ELSE 'confirmed_only' END;
      `),
};
